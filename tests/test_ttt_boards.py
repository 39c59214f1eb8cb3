"""Several boards (issue 11 item 5): 1-3 copies of the board in one game,
side by side along x (board b's cell (x, y, z) is ``x-1 + b*X + B*X*(y-1 +
Y*(z-1))``); a board whose outcome is decided locks for everyone; the players
who win the most boards win. Hand-played games check docs/rules/ttt.md's
decisions (ties, draws, stalemate per board, moves never crossing boards);
small rule sets are compared move by move with the slow reference model and
run through pyspiel.random_sim_test with serialisation; the solver and UCT run
on them."""

import json

import pytest

import games  # noqa: F401  (registers ttt)
from games.ttt import make_core, rules
from ttt_checks import play_against_reference
from ttt_checks import random_sim_test_of

SQ = {"kind": "squares", "size": [3, 3, 1]}


def parse(**fields):
    rec = {"name": "B", "board": dict(SQ)}
    rec.update(fields)
    return rules.parse(rec)


def core(**fields):
    return make_core(parse(**fields))


def play(c, actions):
    for a in actions:
        c.apply_action(a)
    return c


def board_rule_sets():
    out = []

    def add(name, **kw):
        rec = {"name": name, "board": dict(SQ)}
        rec.update(kw)
        out.append(rules.parse(rec))

    add("boards2-ttt", boards=2, reserves={"black": 9, "white": 9})
    add(
        "boards3-blotto-exclusive",
        boards=3,
        turn_checks=[],
        stalemate="most-pieces-wins",
        board={
            "kind": "stacks",
            "size": [2, 1, 4],
            "exclusive": [{"at": [[1, 1]], "players": [1]}, {"at": [[2, 1]], "players": [2]}],
        },
        reserves={"black": 6, "white": 6},
    )
    add(
        "boards2-chaos-move",
        boards=2,
        players="2-vs-chaos",
        reserves={"black": 3, "white": 3, "pink": 3},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=40,
        stalemate="most-in-a-row-wins",
    )
    add(
        "boards3-3p-loses",
        boards=3,
        players="3",
        board={"kind": "squares", "size": [3, 1, 1]},
        reserves={"black": 3, "white": 3, "pink": 3},
        turn_checks=["first-2-loses-no-diagonal"],
        stalemate="least-in-a-row-loses",
    )
    add(
        "boards2-alquerque",
        boards=2,
        reserves={"black": 3, "white": 3},
        shapes={"circle": {"move": "adjacent-alquerque"}},
        move_limit=30,
    )
    add(
        "boards2-knight-phases",
        boards=2,
        reserves={"black": 4, "white": 4},
        pieces_per_turn=2,
        shapes={"circle": {"move": "linear-or-knight"}},
        move_limit=30,
        board=dict(SQ, locked=[[2, 2, 1]]),
        phases=[{"pass": True, "movement": "placement-only", "locked": [[1, 1, 1]]}, {"pass": True}],
    )
    add(
        "boards2-solo-stacks",
        boards=2,
        players="1-vs-chaos",
        board={"kind": "stacks", "size": [3, 1, 3]},
        reserves={"black": 9, "white": 9},
        turn_checks=["first-3-wins-no-diagonal"],
        stalemate="all-win",
        agree_draw=False,
    )
    add(
        "boards2-partners-draw",
        boards=2,
        players="partners",
        colours="partners-share",
        board={"kind": "squares", "size": [4, 1, 1]},
        reserves={"black": 4, "white": 4},
        turn_checks=["first-3-wins"],
        agree_draw=True,
        stalemate="all-lose",
    )
    return out


BOARDS = board_rule_sets()


def test_one_board_rule_sets_keep_their_action_ids_and_tables():
    one = parse(reserves={"black": 5, "white": 4})
    assert one.record["boards"] == 1
    assert make_core(one).num_actions == 9
    assert rules.catalogue()["Connect4"].compile()["boards"] == 1


def test_a_decided_board_locks_and_the_game_goes_on():
    c = core(boards=2, reserves={"black": 9, "white": 9})
    assert c.num_actions == 18
    # board 1 (cells x = 0..2 of rows 6 wide): black completes its bottom row
    play(c, [0, 3, 1, 4, 2])
    assert not c.terminal()
    assert c.board_results() == [[1, -1], None]
    assert c.legal_action_list() == [5, 9, 10, 11, 15, 16, 17]  # board 2 only
    assert c.action_string(1, 5) == "white@b2:(3,1,1)"
    assert c.cells()[6] == -1  # shown locked
    play(c, [5])  # white completes its row on board 2
    assert c.terminal() and c.ending() == "turn check"
    assert c.returns_list() == [0.0, 0.0]  # one board each: a draw


def test_most_boards_wins_and_open_boards_follow_the_stalemate_rule():
    # 3 boards of 1x1: each player places on one board, the third stays with
    # one black piece: "most pieces" on each board.
    c = core(
        boards=3,
        board={"kind": "squares", "size": [1, 1, 1]},
        turn_checks=[],
        reserves={"black": 2, "white": 1},
        stalemate="most-pieces-wins",
    )
    play(c, [0, 1, 2])
    assert c.terminal() and c.board_results() == [[1, -1], [-1, 1], [1, -1]]
    assert c.returns_list() == [1.0, -1.0]


def test_boards_that_end_alike_give_everyone_that_result():
    for stalemate, value in (("all-lose", -1.0), ("all-win", 1.0), ("draws", 0.0)):
        c = core(
            boards=2,
            board={"kind": "squares", "size": [1, 1, 1]},
            turn_checks=[],
            reserves={"black": 1, "white": 1},
            stalemate=stalemate,
        )
        play(c, [0, 1])
        assert c.terminal() and c.returns_list() == [value, value]


def test_chaos_winning_a_board_makes_every_player_lose_it():
    c = core(
        boards=2,
        players="1-vs-chaos",
        board={"kind": "squares", "size": [2, 1, 1]},
        turn_checks=["first-2-wins"],
        reserves={"black": 2, "white": 2},
    )
    play(c, [2, 0, 3])  # black wins board 2; Chaos...
    assert c.board_results() == [None, [1]]
    play(c, [1])  # white (Chaos) completes board 1
    assert c.terminal() and c.board_results() == [[-1], [1]]
    assert c.returns_list() == [0.0]  # one board won, one lost


def test_moves_never_cross_from_one_board_to_another():
    c = core(
        boards=2,
        board={"kind": "squares", "size": [2, 1, 1]},
        turn_checks=[],
        reserves={"black": 1, "white": 1},
        shapes={"circle": {"move": "linear-or-knight"}},
        move_limit=10,
        phases=[{"pass": True}],
    )
    T = 4
    play(c, [1, 3])  # black on board 1's (2,1,1); white on board 2's (2,1,1)
    moves = [a for a in c.legal_action_list() if T <= a < T + T * T]
    assert moves == [T + 1 * T + 0]


def test_validation_of_boards():
    def problems(**fields):
        with pytest.raises(rules.RuleSetError) as info:
            parse(**fields)
        return info.value.problems

    assert any(
        p.startswith("boards: 4 is not supported")
        for p in problems(boards=4, reserves={"black": 2, "white": 2})
    )
    assert any(p.startswith("boards: True") for p in problems(boards=True, reserves={"black": 2, "white": 2}))
    big = problems(boards=3, board={"kind": "squares", "size": [19, 9, 1]}, reserves={"black": 2, "zz": 1})
    assert any(p.startswith("boards: 3 boards of [19, 9, 1] have 513 spaces") for p in big)
    assert any(p.startswith("reserves.zz") for p in big)
    # reserves are shared: up to the spaces of all boards
    assert parse(boards=2, reserves={"black": 18}).record["reserves"] == {"black": {"circle": 18}}
    assert any(p.startswith("reserves.black: 19") for p in problems(boards=2, reserves={"black": 19}))


def test_canonical_form_and_symmetries():
    a = parse(boards=2, reserves={"black": 5, "white": 4})
    b = rules.parse({"name": "Other", "boards": 2, "board": dict(SQ), "reserves": {"white": 4, "black": 5}})
    assert a == b and a != parse(reserves={"black": 5, "white": 4})
    assert make_core(a).symmetry_count() == 8
    assert (
        make_core(
            parse(boards=2, board=dict(SQ, locked=[[1, 1, 1]]), reserves={"black": 4, "white": 4})
        ).symmetry_count()
        == 2
    )


@pytest.mark.parametrize("rs", BOARDS, ids=lambda rs: rs.name)
def test_engine_matches_reference(rs):
    play_against_reference(rs, games=60, seed=9)


@pytest.mark.slow
@pytest.mark.parametrize("rs", BOARDS, ids=lambda rs: rs.name)
def test_engine_matches_reference_long(rs):
    play_against_reference(rs, games=1000, seed=10)


@pytest.mark.parametrize("rs", BOARDS, ids=lambda rs: rs.name)
def test_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=20)


def test_solver_and_uct_run(tmp_path):
    from solvers.exhaustive import solve

    uct = pytest.importorskip("mcts.uct")
    rs = parse(
        name="B",
        boards=2,
        board={"kind": "squares", "size": [3, 1, 1]},
        turn_checks=["first-2-wins"],
        reserves={"black": 3, "white": 3},
    )
    path = tmp_path / "b.json"
    path.write_text(json.dumps(rs.to_json()))
    result = solve(f"ttt(rules={path})", tt_log2=18)
    assert result["complete"] and result["value"] == _minimax(make_core(rs))
    c = make_core(BOARDS[0])
    assert uct.UCTSearch(uct_c=1.4, max_simulations=200, seed=1).search(c)["action"] in c.legal_action_list()


def _minimax(c):
    """Plain minimax of player 0's return (two-player zero-sum, no chance)."""
    if c.terminal():
        return c.returns_list()[0]
    values = []
    for a in c.legal_action_list():
        child = c.clone()
        child.apply_action(a)
        values.append(_minimax(child))
    return max(values) if c.player() == 0 else min(values)
