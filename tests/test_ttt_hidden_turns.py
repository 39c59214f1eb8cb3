"""Hidden turns (``cloaking_hides_turns``; docs/rules/ttt.md, "Hidden turns";
docs/rules/dilemmas.md, KBeauty9): what each player knows when another seat's
turn on a cloaked space leaves no trace.

Information-state tests: two histories a player cannot tell apart (the earlier
players stacked different heights, out of its sight) give it identical
information-state strings, tensors, keys, observations and legal actions; the
player's own moves and the public passes stay in its information state; the
worlds ISMCTS searches come from the player's knowledge only. The partition of
histories into information states is checked against an independent model
built on the reference's views (tests/ttt_reference/, ``hidden_turns_key``).
"""

import json
import random
from itertools import product

import numpy as np
import pyspiel
import pytest

import games  # noqa: F401  (registers ttt)
from games.openspiel import core_of
from games.ttt import rules
from games.ttt.resolve import REPO_ROOT
from mcts.worlds import WorldSampler, enumerate_worlds, first_world, knowledge_of
from test_ttt_cloak import ALL9, ROW1, _saved, rule_set
from ttt_reference import ReferenceState, hidden_turns_key, hidden_turns_step

KB = "ttt(rules=KBeauty9)"
KB_FILE = REPO_ROOT / "games" / "ttt" / "catalogue" / "KBeauty9.json"


@pytest.fixture(scope="module")
def kb():
    return pyspiel.load_game(KB)


def stacked(game, heights):
    """The seats in turn order stack ``heights[i]`` circles each and pass; the
    state after the last of them passed (the next seat to decide)."""
    s = game.new_initial_state()
    for h in heights:
        for _ in range(h):
            s.apply_action(_named(s, "@"))
        s.apply_action(_named(s, "pass"))
    return s


def _named(s, text):
    acts = [a for a in s.legal_actions() if text in s.action_to_string(a)]
    assert len(acts) == 1, [s.action_to_string(a) for a in s.legal_actions()]
    return acts[0]


def views(s, player):
    """Everything ``player`` is given of ``s``, comparable."""
    out = (
        s.information_state_string(player),
        tuple(s.information_state_tensor(player)),
        s.observation_string(player),
        tuple(s.observation_tensor(player)),
        core_of(s).info_state_key(player),
    )
    if s.current_player() == player:
        out += (tuple(s.legal_actions(player)),)
    return out


def test_catalogue_kbeauty9_hides_turns():
    rec = json.loads(KB_FILE.read_text())
    assert rec["cloaking_hides_turns"] is True
    assert core_of(pyspiel.load_game(KB).new_initial_state()).hides_turns()
    assert not core_of(pyspiel.load_game("ttt(rules=3Blotto13)").new_initial_state()).hides_turns()


@pytest.mark.parametrize(
    "seat, a, b",
    [
        (1, (0,), (9,)),
        (2, (4, 4), (0, 9)),
        (3, (3, 5, 7), (0, 9, 1)),
        (3, (9, 9, 9), (0, 0, 0)),
    ],
)
def test_later_player_cannot_tell_the_earlier_heights(kb, seat, a, b):
    sa, sb = stacked(kb, a), stacked(kb, b)
    assert sa.current_player() == sb.current_player() == seat
    assert sa.to_string() != sb.to_string()  # the truth differs ...
    assert views(sa, seat) == views(sb, seat)  # ... what the seat is given does not
    text = sa.information_state_string(seat)
    assert "placed" not in text and "?" in text.split("reserves:")[1]
    assert text.count("pass") == seat  # the public passes stay


def test_own_placements_and_reserve_stay_known(kb):
    sa, sb = stacked(kb, (2, 8)), stacked(kb, (6, 1))
    for s in (sa, sb):
        for _ in range(3):
            s.apply_action(_named(s, "@"))
    assert views(sa, 2) == views(sb, 2)
    text = sa.information_state_string(2)
    assert text.count("pink@stack(3,1)") == 3
    assert "pink 6" in text
    # the earlier players still tell their own heights apart (perfect recall)
    assert sa.information_state_string(0) != sb.information_state_string(0)
    assert sa.information_state_string(1) != sb.information_state_string(1)


def test_indistinguishable_histories_share_knowledge_and_worlds(kb):
    sa, sb = stacked(kb, (3, 5, 7)), stacked(kb, (0, 9, 1))
    ka, kb_ = knowledge_of(sa, 3), knowledge_of(sb, 3)
    assert ka == kb_  # the sampler's whole input
    wa = WorldSampler(kb, ka).sample(np.random.default_rng(5))
    wb = WorldSampler(kb, kb_).sample(np.random.default_rng(5))
    assert wa.to_string() == wb.to_string() and _heights(wa) == _heights(wb)


def _heights(world):
    """(black, white, pink) heights of a world at yellow's first decision."""
    return tuple(world.reserves()[c] for c in ("black", "white", "pink"))


def test_worlds_are_every_combination_of_hidden_heights(kb):
    worlds = enumerate_worlds(kb, knowledge_of(stacked(kb, (3, 5, 7)), 3), max_worlds=1000)
    assert sorted(tuple(9 - h for h in _heights(w)) for w, _ in worlds) == list(product(range(10), repeat=3))
    assert all(weight == 1.0 for _, weight in worlds)
    assert len(enumerate_worlds(kb, knowledge_of(stacked(kb, (4,)), 1))) == 10
    # the one-world baseline's guess: the canonical walk's lowest actions, every
    # earlier seat stacking its whole reserve
    assert _heights(first_world(kb, knowledge_of(stacked(kb, (3, 5, 7)), 3))) == (0, 0, 0)


def test_without_the_flag_turns_stay_public():
    rec = json.loads(KB_FILE.read_text())
    rec.pop("cloaking_hides_turns")
    rec["name"] = "KBeauty9-public-turns"
    game = pyspiel.load_game("ttt", {"rules": _saved(rules.parse(rec))})
    sa, sb = stacked(game, (0,)), stacked(game, (9,))
    assert sa.information_state_string(1) != sb.information_state_string(1)
    assert "black 9" in sa.observation_string(1) and "black 0" in sb.observation_string(1)


BASE2 = dict(turn_checks=[], stalemate="most-in-a-row-wins", reserves={"black": 3, "white": 3})


@pytest.mark.parametrize(
    "rec",
    [
        dict(cloaking_hides_turns=1, phases=[{"cloaked": ALL9}]),
        dict(cloaking_hides_turns=True, phases=[{}]),
        dict(cloaking_hides_turns=True, cloaking="obscures", phases=[{"cloaked": ALL9}]),
        dict(cloaking_hides_turns=True, phases=[{"cloaked": ALL9, "order": "simultaneous"}]),
        dict(cloaking_hides_turns=True, pieces_per_turn=2, phases=[{"cloaked": ALL9}]),
        dict(
            cloaking_hides_turns=True,
            move_limit=20,
            shapes={"circle": {"move": "adjacent"}},
            phases=[{"cloaked": ALL9}],
        ),
    ],
)
def test_refused_where_not_built(rec):
    with pytest.raises(rules.RuleSetError, match="cloaking_hides_turns"):
        rule_set("hidden-turns-refused", **rec)


def test_flag_false_leaves_the_record_unchanged():
    plain = rule_set("hides-all", phases=[{"cloaked": ALL9}])
    off = rule_set("hides-all", cloaking_hides_turns=False, phases=[{"cloaked": ALL9}])
    assert plain.record == off.record and "cloaking_hides_turns" not in plain.record


HIDDEN_SETS = [
    ("KBeauty9", None),
    # two seats in one phase on a fully cloaked board, then part of it, then open: attempts
    # on hidden pieces, passes, and pieces that become visible later
    (
        "hidden-turns-two-seats",
        rule_set(
            "hidden-turns-two-seats",
            cloaking_hides_turns=True,
            **BASE2,
            phases=[{"pass": True, "cloaked": ALL9}, {"pass": True, "cloaked": ROW1}, {"pass": True}],
        ),
    ),
]


@pytest.mark.parametrize("name, rs", HIDDEN_SETS)
def test_information_partition_matches_the_reference(name, rs):
    """Random histories grouped by each player's information-state string are grouped
    the same way by the reference's independent key (what the player did, saw placed,
    and the public passes, then what it sees now): neither splits what the other joins."""
    rs = rs or rules.resolve("KBeauty9")
    game = pyspiel.load_game(KB) if name == "KBeauty9" else pyspiel.load_game("ttt", {"rules": _saved(rs)})
    rng = random.Random(7)
    pairs, histories = set(), {}
    for _ in range(60 if name == "KBeauty9" else 150):
        s, ref, trace = game.new_initial_state(), ReferenceState(rs), []
        while not s.is_terminal():
            for p in range(game.num_players()):
                text = s.information_state_string(p)
                pairs.add((p, text, hidden_turns_key(ref, trace, p)))
                histories.setdefault((p, text), set()).add(tuple(s.history()))
            legal = s.legal_actions()
            assert legal == ref.legal_actions()
            # KBeauty9: stop early often, so short and long stacks both occur
            a = legal[-1] if name == "KBeauty9" and rng.random() < 0.3 else rng.choice(legal)
            s.apply_action(a)
            trace.append(hidden_turns_step(ref, a))
    by_engine, by_ref = {}, {}
    for p, text, key in pairs:
        by_engine.setdefault((p, text), set()).add(key)
        by_ref.setdefault((p, key), set()).add(text)
    assert all(len(v) == 1 for v in by_engine.values())
    assert all(len(v) == 1 for v in by_ref.values())
    # information states do join several histories; in KBeauty9 of different lengths (what
    # the flag is for: with two seats taking turns in a phase, the turns still alternate)
    assert any(len(hs) > 1 for hs in histories.values())
    if name == "KBeauty9":
        assert any(len({len(h) for h in hs}) > 1 for hs in histories.values())


def test_belief_random_weighs_hidden_heights_as_coin_flips(kb):
    """mcts.worlds.BELIEFS: ``histories`` gives every hidden height 1/10, ``random`` (the
    others play uniformly at random, as the playouts do) 2^-(k+1), 2^-9 for nine: what
    Random's place-or-pass coin flips stack (docs/studies.md, the KBeauty9 check)."""
    k = knowledge_of(stacked(kb, (6,)), 1)
    for belief, expect in (
        ("histories", [0.1] * 10),
        ("random", [2.0 ** -(h + 1) for h in range(9)] + [2.0**-9]),
    ):
        listed = enumerate_worlds(kb, k, belief=belief)
        total = sum(w for _, w in listed)
        got = {9 - w.reserves()["black"]: weight / total for w, weight in listed}
        assert got == pytest.approx(dict(enumerate(expect)))
    with pytest.raises(ValueError, match="belief must be one of histories, random"):
        enumerate_worlds(kb, k, belief="uniform")


def test_belief_option_of_the_bot(kb):
    from agents import make_bot

    s = stacked(kb, (2, 3, 4))
    out = make_bot("ismcts:simulations=30,belief=random", kb, 3, seed=1).search(s)
    assert (out["world_mode"], out["worlds"]) == ("exact", 1000)
    with pytest.raises(ValueError, match="belief must be one of"):
        make_bot("ismcts:belief=nobody", kb, 3)


def test_belief_experiment_runs_and_refuses_bad_input(capsys):
    from experiments import ismcts_belief

    assert ismcts_belief.main(["--games", "2", "--simulations", "10", "--only", "modelled"]) == 0
    out = capsys.readouterr().out
    assert "| modelled belief vs baseline | " in out and "| uniform belief vs baseline" not in out
    assert "weight of the heaviest world" in out
    with pytest.raises(SystemExit):
        ismcts_belief.main(["--games", "0"])
