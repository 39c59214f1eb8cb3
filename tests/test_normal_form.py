"""solvers/normal_form.py: tables read from OpenSpiel against its own utilities,
textbook equilibria (pure by enumeration, all by pygambit), social optimum and
price of anarchy, backward induction on textbook sequential games, and CFR's
average policies agreeing with pygambit's equilibria."""

import itertools
import json

import numpy as np
import pyspiel
import pytest

import games  # noqa: F401
from cfr.solve import run
from solvers.normal_form import (
    Chance,
    Decision,
    NormalFormGame,
    backward_induction,
    expected_payoffs,
    induced_normal_form,
    nash_equilibria,
    price_of_anarchy,
    pure_equilibria,
    social_optimum,
)

MATRIX = ["matrix_pd", "matrix_sh", "matrix_bos", "matrix_rps"]


@pytest.mark.parametrize("name", MATRIX)
def test_table_matches_openspiels_matrix_utilities(name):
    game = pyspiel.load_game(name)
    g = NormalFormGame.from_openspiel(game)
    for r, c in itertools.product(range(game.num_rows()), range(game.num_cols())):
        assert g.payoffs[0, r, c] == game.row_utility(r, c)
        assert g.payoffs[1, r, c] == game.col_utility(r, c)
    induced = induced_normal_form(game).game  # the same table through the tree walk
    assert np.array_equal(induced.payoffs, g.payoffs)


def test_profiles_orders_and_refusals():
    g = NormalFormGame.from_openspiel("matrix_bos")
    table = g.to_profiles()
    assert np.array_equal(NormalFormGame.from_profiles(table, (2, 2)).payoffs, g.payoffs)
    # gambit order: player 0's strategy changes fastest
    gambit = np.stack([g.payoffs[p].T.reshape(-1) for p in range(2)])
    assert np.array_equal(NormalFormGame.from_profiles(gambit, (2, 2), order="gambit").payoffs, g.payoffs)
    three = np.arange(3 * 24, dtype=float).reshape(3, 24)
    nf = NormalFormGame.from_profiles(three, (2, 3, 4))
    assert nf.payoffs[2, 1, 2, 3] == three[2, 1 * 12 + 2 * 4 + 3]
    nf_g = NormalFormGame.from_profiles(three, (2, 3, 4), order="gambit")
    assert nf_g.payoffs[2, 1, 2, 3] == three[2, 1 + 2 * 2 + 3 * 6]
    with pytest.raises(ValueError, match="profiles"):
        NormalFormGame.from_profiles(three, (2, 3, 3))
    with pytest.raises(ValueError, match="order"):
        NormalFormGame.from_profiles(three, (2, 3, 4), order="fortran")
    with pytest.raises(ValueError, match="shape"):
        NormalFormGame(np.zeros((3, 2, 2)))
    with pytest.raises(ValueError, match="finite"):
        NormalFormGame(np.full((2, 2, 2), np.nan))
    with pytest.raises(ValueError, match="simultaneous"):
        NormalFormGame.from_openspiel("tic_tac_toe")


def test_pure_equilibria_optimum_and_anarchy():
    pd, sh, bos, rps = (NormalFormGame.from_openspiel(n) for n in MATRIX)
    assert pure_equilibria(pd) == [(1, 1)]  # both defect
    assert pure_equilibria(sh) == [(0, 0), (1, 1)]
    assert pure_equilibria(bos) == [(0, 0), (1, 1)]
    assert pure_equilibria(rps) == []
    assert social_optimum(pd) == ((0, 0), 10.0)
    assert price_of_anarchy(pd) == pytest.approx(10 / 2)
    assert price_of_anarchy(sh) == pytest.approx(4 / 2)
    assert price_of_anarchy(bos) == pytest.approx(1.0)
    assert price_of_anarchy(rps) is None
    assert expected_payoffs(rps, [np.full(3, 1 / 3)] * 2) == pytest.approx([0, 0])


# -- pygambit ------------------------------------------------------------------


def _close_to_one_of(profile, equilibria, tol=1e-3):
    return any(
        all(np.allclose(p, q, atol=tol) for p, q in zip(profile, eq, strict=True)) for eq in equilibria
    )


def test_gambit_finds_the_textbook_equilibria():
    pd, sh, bos, rps = (NormalFormGame.from_openspiel(n) for n in MATRIX)
    assert len(nash_equilibria(pd)) == 1
    assert _close_to_one_of([[0, 1], [0, 1]], nash_equilibria(pd))
    sh_eq = nash_equilibria(sh)
    assert len(sh_eq) == 3 and _close_to_one_of([[0.5, 0.5], [0.5, 0.5]], sh_eq)
    bos_eq = nash_equilibria(bos)
    # the mixed one: each mixes to make the other indifferent
    assert len(bos_eq) == 3 and _close_to_one_of([[0.6, 0.4], [0.4, 0.6]], bos_eq)
    assert _close_to_one_of([np.full(3, 1 / 3)] * 2, nash_equilibria(rps))
    for method in ("gnm", "simpdiv", "logit"):
        found = nash_equilibria(rps, method)
        assert found and _close_to_one_of([np.full(3, 1 / 3)] * 2, found)


def test_three_player_methods():
    # a 3-player coordination game: everyone gets 1 if all match, else 0
    pay = np.zeros((3, 2, 2, 2))
    pay[:, 0, 0, 0] = pay[:, 1, 1, 1] = 1
    g = NormalFormGame(pay)
    assert pure_equilibria(g) == [(0, 0, 0), (1, 1, 1)]  # a lone dissenter would switch
    for method in ("gnm", "logit"):
        for eq in nash_equilibria(g, method):
            values = expected_payoffs(g, eq)
            for p in range(3):  # no player gains by a pure deviation
                for s in range(2):
                    dev = list(eq)
                    dev[p] = np.eye(2)[s]
                    assert expected_payoffs(g, dev)[p] <= values[p] + 1e-6
    with pytest.raises(ValueError, match="two-player"):
        nash_equilibria(g, "enummixed")
    with pytest.raises(ValueError, match="unknown method"):
        nash_equilibria(g, "lemke")


@pytest.mark.parametrize("name", MATRIX)
def test_cfr_average_is_one_of_gambits_equilibria(name):
    game = pyspiel.load_game(name)
    g = NormalFormGame.from_openspiel(game)
    result = run(game, "cfr+", iterations=2000)
    keys = sorted(result.policy, key=lambda k: int(k.split("player: ")[1][0]))
    profile = [np.array([p for _, p in result.policy[k]]) for k in keys]
    equilibria = nash_equilibria(g)
    assert _close_to_one_of(profile, equilibria)
    match = next(
        eq for eq in equilibria if all(np.allclose(p, q, atol=1e-3) for p, q in zip(profile, eq, strict=True))
    )
    assert expected_payoffs(g, profile) == pytest.approx(expected_payoffs(g, match), abs=1e-3)


def test_cfr_and_gambit_agree_on_kuhn():
    import pygambit as gbt

    from solvers.normal_form import to_gambit

    game = pyspiel.load_game("kuhn_poker")
    nf = induced_normal_form(game)
    gambit_game = to_gambit(nf.game)
    eq = gbt.nash.lp_solve(gambit_game, rational=False).equilibria[0]
    players = list(gambit_game.players)
    sigma = [np.array([float(eq[s]) for s in player.strategies]) for player in players]
    assert expected_payoffs(nf.game, sigma)[0] == pytest.approx(-1 / 18, abs=1e-6)
    # gambit's mixed equilibrium as a behaviour policy is unexploitable for OpenSpiel too
    behaviour = {**nf.behaviour(0, sigma[0]), **nf.behaviour(1, sigma[1])}
    policy = pyspiel.TabularPolicy({k: v for k, v in behaviour.items()})
    assert pyspiel.exploitability(game, policy) < 1e-6
    result = run(game, "cfr+", iterations=2000)
    assert result.curve[-1]["exploitability"] < 1e-3
    cfr_value = pyspiel.expected_returns(
        game.new_initial_state(), pyspiel.TabularPolicy(result.policy), -1, True
    )[0]
    assert cfr_value == pytest.approx(expected_payoffs(nf.game, sigma)[0], abs=1e-3)
    assert len(players) == 2


# -- one enumeration: induced_normal_form is games.normal_form's table ---------------

# Black and white (one piece each) and Chaos (one pink) plan one simultaneous
# round on a row of three cells (the rule set of tests/test_payoffs.py, whose
# table is checked there by hand and against OpenSpiel's policy_value).
SIM_CHAOS = {
    "name": "sim-chaos",
    "players": "2-vs-chaos",
    "board": {"kind": "squares", "size": [3, 1, 1]},
    "reserves": {"black": 1, "white": 1, "pink": 1},
    "turn_checks": ["first-2-wins"],
    "phases": [{"order": "single"}],
    "stalemate": "most-pieces-wins",
}


def _rule_set(tmp_path, which):
    from pathlib import Path

    from games.ttt.payoffs import game_string

    if which == "rps":
        return game_string(str(Path(games.__file__).parent / "ttt" / "examples" / "RPS-Shared-Lines.json"))
    path = tmp_path / "sim-chaos.json"
    path.write_text(json.dumps(SIM_CHAOS))
    return game_string(str(path))


@pytest.mark.parametrize(
    "name",
    [
        "matrix_pd",
        "kuhn_poker",
        "rps",
        "sim-chaos",
        "goofspiel(num_cards=2,players=3,imp_info=True)",
        "nim(pile_sizes=1;2)",
    ],
)
def test_induced_normal_form_is_the_payoff_table(name, tmp_path):
    """Two routes, one table: games.normal_form on the game itself (simultaneous
    nodes decided per player, perfect-information games by decision node) and
    induced_normal_form (simultaneous games converted to turn-based, states named
    by information-state strings) give the same strategies and the same payoffs."""
    from games.normal_form import enumerate_tree, payoff_table

    if name in ("rps", "sim-chaos"):
        name = _rule_set(tmp_path, name)
    game = pyspiel.load_game(name)
    table = payoff_table(game)
    induced = induced_normal_form(game)
    assert induced.game.shape == table.shape
    assert [len(s) for s in induced.infosets] == [len(s) for s in table.infostates]
    assert [[len(a) for a in acts] for acts in induced.actions] == [
        [len(i.actions) for i in states] for states in table.infostates
    ]
    assert np.array_equal(induced.game.payoffs, table.array())
    simultaneous = game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert simultaneous == (name in ("matrix_pd",) or "ttt(" in name or "goofspiel" in name)
    if game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION:
        # one information state per decision node of its player, named by the
        # node's information-state string (distinct strings: the same partition)
        tree = enumerate_tree(game)
        assert induced.infosets == tree.state_strings
        assert [len(set(s)) for s in induced.infosets] == [len(s) for s in tree.infostates]
        assert induced.game.shape == (3, 4)  # nim(1;2): 3 opening moves; 2 x 2 x 1 replies


def test_induced_sequences_are_the_players_own_earlier_decisions():
    nf = induced_normal_form("kuhn_poker")
    # kuhn: each player decides once per card, player 0 again after pass-bet ("...pb")
    for p in range(2):
        for key, seq in nf.sequences[p].items():
            assert all(nf.infosets[p].index(k) < nf.infosets[p].index(key) for k, _ in seq)
            assert len(seq) == (1 if key.endswith("pb") else 0)
    assert sum(len(s) for s in nf.infosets) == 12
    with pytest.raises(ValueError, match="more than 63 pure strategies"):
        induced_normal_form("kuhn_poker", max_strategies=63)


# -- backward induction ----------------------------------------------------------


def _split(mover, big, small):
    return (big, small) if mover == 0 else (small, big)


def _centipede(rounds):
    """Take: the mover gets the larger share (big) of the pot; pass doubles both
    shares and hands the move on; after the last pass the other player gets big."""

    def node(k, big, small):
        mover = k % 2
        take = _split(mover, big, small)
        if k == rounds - 1:
            return Decision(mover, {"take": take, "pass": _split(1 - mover, big * 2, small * 2)})
        return Decision(mover, {"take": take, "pass": node(k + 1, big * 2, small * 2)})

    return node(0, 4, 1)


def test_centipede_takes_at_once():
    spe = backward_induction(_centipede(6))
    assert spe.path == ["take"]
    assert spe.value.tolist() == [4, 1]
    assert all(a == "take" for a in spe.strategy.values())  # in every subgame


def test_ultimatum_offers_the_least():
    offers = {x: Decision(1, {"accept": (10 - x, x), "reject": (0, 0)}) for x in range(11)}
    spe = backward_induction(Decision(0, offers))
    assert spe.path == [0, "accept"] and spe.value.tolist() == [10, 0]
    assert spe.ties == [(0,)]  # accepting 0 ties with rejecting: noted
    assert all(spe.strategy[(x,)] == "accept" for x in range(11))


def test_chance_and_openspiel_games():
    lottery = Decision(0, {"safe": (1, 0), "gamble": Chance({"win": (0.25, (3, 0)), "lose": (0.75, (0, 0))})})
    assert backward_induction(lottery).path == ["safe"]
    assert backward_induction(lottery).value.tolist() == [1, 0]
    ttt = backward_induction("tic_tac_toe")
    assert ttt.value.tolist() == [0, 0]  # a draw under perfect play
    with pytest.raises(ValueError, match="perfect-information"):
        backward_induction("kuhn_poker")
    with pytest.raises(ValueError, match="sum to"):
        backward_induction(Chance({"a": (0.5, (1, 1))}))


def test_cfr_and_gambit_agree_on_our_simultaneous_rule_set():
    name = "ttt(rules=games/ttt/examples/RPS-Shared-Lines.json)"
    g = NormalFormGame.from_openspiel(name)
    equilibria = nash_equilibria(g)
    assert len(equilibria) == 1  # one move is dominated; RPS on the other three
    result = run(pyspiel.load_game(name), "cfr+", iterations=10000)
    keys = sorted(result.policy)  # "Current player: 0..." before "...: 1..."
    profile = [np.array([p for _, p in result.policy[k]]) for k in keys]
    assert _close_to_one_of(profile, equilibria)


# -- the command line ------------------------------------------------------------


def _cli(*args):
    """The command in this process (a subprocess per call costs seconds of imports)."""
    import contextlib
    import io
    import types

    from solvers.equilibria import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as e:
            code = e.code
    return types.SimpleNamespace(returncode=code, stdout=out.getvalue(), stderr=err.getvalue())


def test_cli_reads_openspiel_tables_and_nfg_files(tmp_path):
    import json
    import subprocess
    import sys

    from solvers.normal_form import to_gambit

    helped = subprocess.run(
        [sys.executable, "-m", "solvers.equilibria", "--help"], capture_output=True, text=True
    )
    assert helped.returncode == 0 and "--table" in helped.stdout
    out = _cli("--game", "matrix_bos", "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["pure_equilibria"] == [["Bach", "Bach"], ["Stravinsky", "Stravinsky"]]
    assert len(doc["equilibria"]) == 3
    assert doc["price_of_anarchy"] == pytest.approx(5 / 2.4)
    assert doc["method"] == "enummixed" and doc["complete"]
    # by default the table's payoff-identical strategies are merged first (as the study does):
    # a duplicated row does not duplicate the equilibria, and the output says what it lists
    dup = NormalFormGame.from_openspiel("matrix_bos")
    twice = np.concatenate([dup.payoffs, dup.payoffs[:, :1, :]], axis=1)  # Bach twice for player 0
    (tmp_path / "dup.json").write_text(
        json.dumps({"payoffs": NormalFormGame(twice).to_profiles().tolist(), "strategies": [3, 2]})
    )
    merged = json.loads(_cli("--table", str(tmp_path / "dup.json"), "--json").stdout)
    assert len(merged["equilibria"]) == 3 and merged["complete"] and "merging" in merged["found"]
    raw = json.loads(_cli("--table", str(tmp_path / "dup.json"), "--method", "logit", "--json").stdout)
    assert raw["method"] == "logit" and not raw["complete"]
    pd = NormalFormGame.from_openspiel("matrix_pd")
    (tmp_path / "pd.nfg").write_text(to_gambit(pd).to_nfg())
    table = {"payoffs": pd.to_profiles().tolist(), "strategies": [2, 2]}
    (tmp_path / "pd.json").write_text(json.dumps(table))
    from_nfg = json.loads(_cli("--nfg", str(tmp_path / "pd.nfg"), "--json").stdout)
    from_table = json.loads(_cli("--table", str(tmp_path / "pd.json"), "--json").stdout)
    assert from_nfg["payoffs"] == from_table["payoffs"] == table["payoffs"]
    assert from_nfg["equilibria"] == from_table["equilibria"]
    assert from_nfg["strategies"] == [["Cooperate", "Defect"]] * 2
    spe = json.loads(_cli("--game", "tic_tac_toe", "--spe", "--json").stdout)
    assert spe["value"] == [0.0, 0.0]
    bad = _cli("--table", str(tmp_path / "missing.json"))
    assert bad.returncode == 2 and "cannot read" in bad.stderr
    assert _cli("--game", "kuhn_poker").returncode == 2  # not one round: refused
    induced = json.loads(_cli("--game", "matrix_sh", "--induced", "--json").stdout)
    assert induced["payoffs"] == json.loads(_cli("--game", "matrix_sh", "--json").stdout)["payoffs"]


@pytest.mark.slow  # gnm's child crashes, answers or hangs by the run: up to a minute
def test_a_gnm_crash_is_an_error_not_the_end_of_the_caller(monkeypatch):
    """pygambit 16.7.0's gnm dies with SIGSEGV on 4P-TrendSetter's 3x3x3x3
    table in some runs and not in others; the forked child turns a crash into
    SolverCrashed, and logit still finds an equilibrium of the same table. (The child has twice hung
    instead, under load: a minute bounds the test then.)"""
    import pyspiel

    import games  # noqa: F401
    from solvers import normal_form
    from solvers.normal_form import SolverCrashed, induced_normal_form, nash_equilibria

    monkeypatch.setattr(normal_form, "CHILD_TIMEOUT_S", 60.0)
    g = induced_normal_form(pyspiel.load_game("ttt(rules=4P-TrendSetter)"), max_strategies=10**5).game
    try:
        found = nash_equilibria(g, "gnm")
    except SolverCrashed as e:
        assert "3x3x3x3" in str(e)
    else:
        # no crash in this run (whether gnm crashes depends on the run):
        # gnm returns what its path finds that passes the regret check, possibly nothing,
        # and whatever it returns must be an equilibrium
        from solvers.normal_form import expected_payoffs

        for eq in found:
            value = expected_payoffs(g, eq)
            for p in range(g.num_players):
                for i in range(g.shape[p]):
                    pure = np.zeros(g.shape[p])
                    pure[i] = 1.0
                    deviation = list(eq)
                    deviation[p] = pure
                    assert expected_payoffs(g, deviation)[p] <= value[p] + 1e-6
    assert len(nash_equilibria(g, "logit")) == 1


def _sleep_forever(table):
    import time

    while True:
        time.sleep(1)


def _die_by_sigsegv(table):
    import os
    import signal

    os.kill(os.getpid(), signal.SIGSEGV)


def test_a_solver_child_that_dies_is_an_error_not_the_end_of_the_caller():
    """A child killed by SIGSEGV (as pygambit's gnm is on some degenerate
    tables) is reported as SolverCrashed with the table's shape, and the
    caller goes on."""
    from solvers.normal_form import SolverCrashed, _in_child

    with pytest.raises(SolverCrashed, match=r"died \(exit code -11\) on this 2x3 table"):
        _in_child(_die_by_sigsegv, np.zeros((2, 3)), timeout=30.0)
    assert _in_child(np.sum, np.ones((2, 3)), timeout=30.0) == 6.0


def test_a_solver_child_without_an_answer_is_stopped():
    """A child that never answers (as gnm once did for 28 minutes under load)
    is killed after the timeout and reported as SolverCrashed."""
    import numpy as np
    import pytest

    from solvers.normal_form import SolverCrashed, _in_child

    with pytest.raises(SolverCrashed, match="no answer in 0.5 s on this 2x3 table"):
        _in_child(_sleep_forever, np.zeros((2, 3)), timeout=0.5)


def test_backward_induction_keys_histories_not_state_strings():
    """Centipede9's state strings leave out counters, so two different states
    shared a string and the induced path once held an illegal move; keyed by
    history, the path plays legally, and a budget refuses the large tree."""
    import pyspiel
    import pytest

    import games  # noqa: F401
    from solvers.normal_form import InductionTooLarge, backward_induction

    game = pyspiel.load_game("ttt(rules=NeedyTrust)")
    spe = backward_induction(game)
    state = game.new_initial_state()
    for a in spe.path:
        assert a in state.legal_actions()
        state.apply_action(a)
    with pytest.raises(InductionTooLarge):
        backward_induction(pyspiel.load_game("ttt(rules=Centipede9)"), max_nodes=10_000)
