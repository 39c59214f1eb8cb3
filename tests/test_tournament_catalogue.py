"""Every catalogue game through analysis.tournament, and CFR
policies that play either form of a simultaneous game.

Why every game and not a sample: the failures this guards against (a
simultaneous game refused, a hidden-information game handed to UCT, an
IndexError on 3- and 4-player tables) were per game. Two games a table at four
simulations a move take a few seconds for all the rule sets (the specification's
42 games and the dilemma variants).
"""

import json
import os

import pyspiel
import pytest

import games  # noqa: F401
from agents import BotSpec, make_bot
from analysis.tournament import (
    check_bots,
    load_game,
    main,
    make_tasks,
    playable_game_string,
    run_tasks,
    search_kind,
)
from policy_checks import distribution

CATALOGUE = sorted(
    f[:-5]
    for f in os.listdir(os.path.join(os.path.dirname(games.__file__), "ttt", "catalogue"))
    if f.endswith(".json")
)


def test_catalogue_is_the_specifications_42_games_and_the_dilemma_variants():
    from games.ttt.dilemmas import VARIANTS

    variants = {v.name for v in VARIANTS}
    assert len(set(CATALOGUE) - variants) == 42
    assert variants <= set(CATALOGUE)


# the longest (3P-9X-HideSeek, KBeauty9 and its variant: about 10 s each) play in the full tier
LONG_TOURNAMENTS = {"3P-9X-HideSeek", "KBeauty9", "KBeauty9-LeastWins"}


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=pytest.mark.slow) if n in LONG_TOURNAMENTS else n for n in CATALOGUE]
)
def test_every_catalogue_game_plays_a_tournament(name, tmp_path):
    game_string = f"ttt(rules={name})"
    played = load_game(playable_game_string(game_string))
    kind = search_kind(played)
    specs = [BotSpec.make("random"), BotSpec.make(kind, simulations=4)]
    tasks = make_tasks(game_string, specs, 2, seed=3)
    records = run_tasks(tasks, tmp_path / "t.jsonl", progress=False)
    n = played.num_players()
    assert len(records) == (2 if n == 2 else len(tasks)) and len(records) >= 2
    for record in records:
        assert len(record["returns"]) == n
        assert sorted(set(record["players"])) == sorted(s.label for s in specs)
        assert (
            record["game"] == str(played)
            if played.get_type().short_name != "ttt"
            else record["game"] == game_string
        )
    original = load_game(game_string)
    simultaneous = original.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    perfect = original.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind == ("mcts" if perfect and not simultaneous else "ismcts")
    assert (records[0]["game"] != game_string) == simultaneous


def test_both_spellings_of_a_simultaneous_game_are_the_same_games():
    specs = [BotSpec.make("random"), BotSpec.make("ismcts", simulations=4)]
    plain = make_tasks("ttt(rules=StagHunt)", specs, 4, seed=1)
    wrapped = make_tasks("turn_based_simultaneous_game(game=ttt(rules=StagHunt))", specs, 4, seed=1)
    assert plain == wrapped
    assert plain[0].game == "turn_based_simultaneous_game(game=ttt(rules=StagHunt))"


@pytest.mark.parametrize("name", ["StagHunt", "3Blotto13", "3P-BoS"])
@pytest.mark.parametrize("kind", ["mcts", "openspiel_mcts", "alphabeta"])
def test_full_state_searches_are_refused_on_hidden_games_naming_ismcts(name, kind):
    extra = {"depth": 2} if kind == "alphabeta" else {}
    with pytest.raises(ValueError, match=r"use the information-set search ismcts"):
        make_tasks(f"ttt(rules={name})", [BotSpec.make("random"), BotSpec.make(kind, **extra)], 2, 0)


def test_sm_mcts_is_refused_on_the_turn_based_form():
    with pytest.raises(ValueError, match="sm_mcts needs a round's start position.*use ismcts"):
        check_bots(playable_game_string("ttt(rules=BoS)"), [BotSpec.make("sm_mcts")])


def test_mcts_plays_perfect_information_games():
    check_bots("ttt(rules=Centipede9)", [BotSpec.make("mcts", simulations=4)])


def test_cli_notes_the_wrapping(tmp_path, capsys):
    assert (
        main(
            [
                "--game",
                "ttt(rules=PrisonerDilemma)",
                "--bot",
                "random",
                "--bot",
                "ismcts:simulations=4",
                "--games-per-pair",
                "2",
                "--out",
                str(tmp_path / "o.jsonl"),
                "--no-progress",
            ]
        )
        == 0
    )
    err = capsys.readouterr().err
    assert "note: ttt(rules=PrisonerDilemma) has simultaneous moves" in err
    assert "turn_based_simultaneous_game(game=ttt(rules=PrisonerDilemma))" in err


def test_cli_refuses_mcts_on_a_simultaneous_game(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(
            [
                "--game",
                "ttt(rules=BoS)",
                "--bot",
                "random",
                "--bot",
                "mcts:simulations=4",
                "--out",
                str(tmp_path / "o.jsonl"),
                "--no-progress",
            ]
        )
    assert "ismcts" in capsys.readouterr().err


# --------------------------------------------------------------------------- CFR policy forms


def _solve(game_string, path):
    from cfr.__main__ import main as cfr_main

    assert (
        cfr_main(
            [
                "--game",
                game_string,
                "--algorithm",
                "cfr+",
                "--iterations",
                "30",
                "--save",
                str(path),
                "--json",
            ]
        )
        == 0
    )
    return json.loads(path.read_text())


def _decisions(state):
    """Every decision state of a sequential game (chance expanded)."""
    if state.is_terminal():
        return
    if state.is_chance_node():
        for action, _ in state.chance_outcomes():
            yield from _decisions(state.child(action))
        return
    yield state
    for action in state.legal_actions():
        yield from _decisions(state.child(action))


@pytest.mark.parametrize("name", ["StagHunt", "BoS"])
def test_a_cfr_policy_plays_either_form_of_its_game(name, tmp_path):
    plain = f"ttt(rules={name})"
    wrapped = playable_game_string(plain)
    on_plain = _solve(plain, tmp_path / "plain.json")
    on_wrapped = _solve(wrapped, tmp_path / "wrapped.json")
    # the premise of agents.builtin.policy_for_form, checked rather than assumed
    assert on_plain["turn_based"] and not on_wrapped["turn_based"]
    assert set(on_plain["policy"]) == set(on_wrapped["policy"])
    tb = load_game(wrapped)
    states = list(_decisions(tb.new_initial_state()))
    assert {s.information_state_string(s.current_player()) for s in states} == set(on_plain["policy"])
    for path in (tmp_path / "plain.json", tmp_path / "wrapped.json"):
        for form in (plain, wrapped):
            bots = [make_bot("cfr", form, p, policy=str(path)) for p in range(2)]
            assert all(b.misses == 0 for b in bots)
        wrapped_bots = [make_bot("cfr", wrapped, p, policy=str(path)) for p in range(2)]
        for state in states:
            got = distribution(wrapped_bots[state.current_player()].get_policy(state))
            want = distribution(on_plain["policy"][state.information_state_string(state.current_player())])
            assert got == pytest.approx(want, abs=2e-3)
        assert all(b.misses == 0 for b in wrapped_bots)
    # the plain form's state at the first round, seen by the bot of each file
    game = load_game(plain)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    for p in range(2):
        a = make_bot("cfr", game, p, policy=str(tmp_path / "plain.json")).get_policy(state)
        b = make_bot("cfr", game, p, policy=str(tmp_path / "wrapped.json")).get_policy(state)
        assert distribution(a) == pytest.approx(distribution(b))
    # and a tournament takes the game in either spelling with either file
    specs = [BotSpec.make("random"), BotSpec.make("cfr", policy=str(tmp_path / "plain.json"))]
    records = run_tasks(make_tasks(plain, specs, 2, 0), tmp_path / "t.jsonl", progress=False)
    assert len(records) == 2


def test_a_policy_of_another_game_is_still_refused(tmp_path):
    _solve("ttt(rules=StagHunt)", tmp_path / "sh.json")
    with pytest.raises(ValueError, match="policy file was solved for"):
        make_bot("cfr", "ttt(rules=BoS)", 0, policy=str(tmp_path / "sh.json"))
    with pytest.raises(ValueError, match="cannot play"):
        make_tasks(
            "ttt(rules=BoS)",
            [BotSpec.make("random"), BotSpec.make("cfr", policy=str(tmp_path / "sh.json"))],
            2,
            0,
        )
