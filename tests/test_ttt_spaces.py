"""Spaces (issue 11 item 4): per-player entry and exit locks, sticky spaces
(locked against exit) and exclusive spaces (locked against entry and exit
except for the players they are exclusive to), on the board for the whole
game or per phase; and the fold rule counting pieces on spaces locked against
exit. Hand-played games check the rules page's sentences; small rule sets are
compared move by move with the slow reference model (tests/ttt_reference/)
and run through pyspiel.random_sim_test with serialisation; the solver and UCT
run on them. Cells are x + X*(y + Y*z) from 0."""

import json

import pytest

import games  # noqa: F401  (registers ttt)
from games.ttt import make_core, rules
from test_ttt_reference import play_against_reference
from ttt_checks import random_sim_test_of

SQ = {"kind": "squares", "size": [3, 3, 1]}


def parse(**fields):
    rec = {"name": "S", "board": dict(SQ), "turn_checks": []}
    rec.update(fields)
    return rules.parse(rec)


def core(**fields):
    return make_core(parse(**fields))


def space_rule_sets():
    out = []

    def add(name, **kw):
        rec = {"name": name, "board": dict(SQ), "reserves": {"black": 3, "white": 3}}
        rec.update(kw)
        out.append(rules.parse(rec))

    add(
        "sticky-adjacent",
        board=dict(SQ, sticky=[[2, 2, 1], [1, 1, 1]]),
        shapes={"circle": {"move": "adjacent"}},
        move_limit=30,
    )
    add(
        "exclusive-knight",
        board=dict(
            SQ,
            exclusive=[{"at": [[1, 2, 1], [2, 2, 1]], "players": [1]}, {"at": [[3, 3, 1]], "players": [2]}],
        ),
        shapes={"circle": {"move": "linear-or-knight"}},
        move_limit=30,
        stalemate="most-in-a-row-wins",
    )
    add(
        "seat-locks-pass",
        board=dict(
            SQ,
            entry_locked=[{"at": [[1, 1, 1], [3, 1, 1]], "players": [2]}],
            exit_locked=[{"at": [[2, 1, 1]], "players": [1]}],
        ),
        shapes={"circle": {"move": "adjacent-orthogonal"}},
        move_limit=30,
        phases=[{"pass": True}],
    )
    add(
        "exclusive-stacks-chaos",
        players="2-vs-chaos",
        board={
            "kind": "stacks",
            "size": [4, 1, 3],
            "exclusive": [
                {"at": [[1, 1]], "players": [1]},
                {"at": [[2, 1]], "players": [2]},
                {"at": [[4, 1]], "players": ["chaos"]},
            ],
        },
        reserves={"black": 3, "white": 3, "pink": 3},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=30,
        turn_checks=["first-3-wins-no-diagonal"],
        stalemate="most-pieces-wins",
    )
    add(
        "phase-seat-locks-fold",
        players="3",
        reserves={"black": 3, "white": 3, "pink": 3},
        turn_checks=[],
        stalemate="most-pieces-wins",
        shapes={"circle": {"move": "adjacent"}},
        move_limit=40,
        board=dict(SQ, sticky=[[1, 1, 1]], exclusive=[{"at": [[3, 3, 1]], "players": [3]}]),
        phases=[
            {
                "pass": True,
                "movement": "placement-only",
                "exit_locked": [{"at": [[2, 2, 1], [3, 1, 1]], "players": [1, 2]}],
                "fold": "less-than-most-committed",
            },
            {"pass": True, "entry_locked": [{"at": [[1, 3, 1]], "players": [3]}]},
        ],
    )
    add(
        "solo-exclusive",
        players="1-vs-chaos",
        reserves={"black": 4, "white": 4},
        board=dict(SQ, exclusive=[{"at": [[1, 1, 1], [2, 1, 1], [3, 1, 1]], "players": ["chaos"]}]),
        shapes={"circle": {"move": "adjacent"}},
        move_limit=20,
    )
    return out


SPACES = space_rule_sets()


def test_exclusive_spaces_take_only_their_players_pieces():
    c = core(
        board=dict(SQ, exclusive=[{"at": [[1, 1, 1]], "players": [1]}, {"at": [[2, 1, 1]], "players": [2]}]),
        reserves={"black": 3, "white": 3},
    )
    assert 0 in c.legal_action_list() and 1 not in c.legal_action_list()
    c.apply_action(4)
    assert 1 in c.legal_action_list() and 0 not in c.legal_action_list()
    with pytest.raises(ValueError):
        c.clone().apply_action(0)


def test_sticky_pieces_cannot_leave_but_pieces_may_enter_and_pass_over():
    line = {"kind": "squares", "size": [4, 1, 1]}
    knight = {"circle": {"move": "linear-or-knight"}}
    T = 4
    c = core(
        board=dict(line, sticky=[[1, 1, 1]]), reserves={"black": 1, "white": 1}, shapes=knight, move_limit=10
    )
    c.apply_action(0)  # black onto the sticky (1,1,1)
    c.apply_action(3)  # white onto (4,1,1)
    assert c.terminal() and c.ending() == "stalemate"  # black's only piece cannot leave
    c = core(
        board=dict(line, sticky=[[2, 1, 1]]), reserves={"black": 1, "white": 1}, shapes=knight, move_limit=10
    )
    c.apply_action(0)  # black (1,1,1)
    c.apply_action(2)  # white (3,1,1)
    legal = c.legal_action_list()
    assert T + 0 * T + 1 in legal  # black may enter the sticky space
    assert T + 0 * T + 3 in legal  # and may pass over it and the white piece
    c.apply_action(T + 0 * T + 1)
    c.apply_action(T + 2 * T + 0)  # white moves over the sticky space to (1,1,1)
    assert c.terminal() and c.ending() == "stalemate"  # black is stuck on (2,1,1)


def test_per_player_entry_and_exit_locks():
    c = core(
        board=dict(
            SQ,
            entry_locked=[{"at": [[1, 1, 1]], "players": [2]}],
            exit_locked=[{"at": [[2, 1, 1]], "players": [1]}],
        ),
        reserves={"black": 1, "white": 1},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=20,
    )
    c.apply_action(1)  # black on (2,1,1), its exit locked for black
    assert 0 not in c.legal_action_list()  # white may not enter (1,1,1)
    c.apply_action(8)
    assert c.legal_action_list() == [] or c.terminal()  # black's only piece cannot leave
    assert c.terminal() and c.ending() == "stalemate"


def test_exclusive_stacks_follow_the_landing_cell():
    # the seed's "first stack exclusive to black": [x, y] names the whole stack
    c = core(
        board={
            "kind": "stacks",
            "size": [2, 1, 2],
            "exclusive": [{"at": [[1, 1]], "players": [1]}],
            "entry_locked": [{"at": [[2, 1, 2]], "players": [1]}],
        },
        reserves={"black": 2, "white": 2},
    )
    assert c.legal_action_list() == [0, 1]
    c.apply_action(1)  # black onto stack 2 (height 1)
    assert c.legal_action_list() == [1]  # white: only stack 2
    c.apply_action(1)
    assert c.legal_action_list() == [0]  # stack 2 full; stack 1 is black's


def test_fold_counts_pieces_on_spaces_locked_against_exit():
    # sticky (1,1,1); (3,3,1) exclusive to white; (2,2,1) and (2,1,1) locked
    # against exit for black only. Black places on (1,1,1) and (2,2,1): 2
    # committed. White's piece on its own exclusive space may leave, its other
    # piece is on a free space: 0. Pink's piece on (2,1,1) is locked only for
    # black: 0. So white and pink fold; with no per-player locks none would.
    c = core(
        players="3",
        reserves={"black": 2, "white": 2, "pink": 2},
        stalemate="most-pieces-wins",
        shapes={"circle": {"move": "adjacent"}},
        move_limit=40,
        board=dict(
            SQ,
            sticky=[[1, 1, 1]],
            exclusive=[{"at": [[3, 3, 1]], "players": [2]}],
            exit_locked=[{"at": [[2, 2, 1], [2, 1, 1]], "players": [1]}],
        ),
        phases=[
            {"pass": True, "movement": "placement-only", "fold": "less-than-most-committed"},
            {"pass": True},
        ],
    )
    PASS = c.num_actions - 1
    for a in [0, 8, 1, 4, 2, PASS, PASS, PASS]:
        c.apply_action(a)
    assert c.current_phase() == 1 and c.folded_players() == [1, 2]
    assert c.player() == 0


def test_fold_counts_the_ending_phases_exit_locks():
    # the exit lock on (1,1,1) for white exists only in phase 1, so white's
    # piece there is committed at the end of phase 1 and black (0) folds
    c = core(
        reserves={"black": 2, "white": 2},
        stalemate="most-pieces-wins",
        phases=[
            {
                "pass": True,
                "exit_locked": [{"at": [[1, 1, 1]], "players": [2]}],
                "fold": "less-than-most-committed",
            },
            {"pass": True},
        ],
    )
    for a in [4, 0, 9, 9]:
        c.apply_action(a)
    assert c.current_phase() == 1 and c.folded_players() == [0]


def test_validation_lists_every_space_problem():
    with pytest.raises(rules.RuleSetError) as info:
        rules.parse(
            {
                "name": "S",
                "players": "2-vs-chaos",
                "reserves": {"black": 2, "white": 2},
                "board": {
                    "kind": "squares",
                    "size": [3, 3, 1],
                    "locked": [[3, 3, 1]],
                    "sticky": [[1, 1, 1], [1, 1, 1], [3, 3, 1]],
                    "exclusive": [
                        {"at": [[2, 2, 1]], "players": [3]},
                        {"at": [[2, 1, 1]], "players": [1, 2, "chaos"]},
                        {"at": [], "players": [1], "extra": 1},
                    ],
                    "entry_locked": [{"at": [[9, 9, 9]], "players": []}],
                },
                "phases": [{"exclusive": [], "exit_locked": "all"}],
            }
        )
    problems = info.value.problems
    expected = [
        "board.sticky[1]: [1, 1, 1] is listed twice",
        "board.sticky[2]: [3, 3, 1] is locked for the whole game already",
        "board.exclusive[0].players[0]: 3 is not a seat of players='2-vs-chaos' (allowed: 1, 2, chaos)",
        "board.exclusive: [2, 1, 1] is exclusive to every seat",
        "board.exclusive[2].extra: unknown field",
        "board.exclusive[2].at: must be a non-empty list",
        "board.entry_locked[0].players: must be a non-empty list",
        "board.entry_locked[0].at[0]: x=9 is off the board",
        "phases[0].exclusive: only cloak and lock properties can change after phase 1",
        "phases[0].exit_locked: must be a list",
    ]
    for e in expected:
        assert any(p.startswith(e) for p in problems), (e, problems)
    assert len(problems) == len(expected)


def test_canonical_form_is_one_form_for_the_same_locks():
    a = parse(
        reserves={"black": 2, "white": 2},
        board={
            "kind": "stacks",
            "size": [2, 1, 2],
            "exclusive": [{"at": [[1, 1]], "players": [1]}],
            "entry_locked": [{"at": [[2, 1, 1]], "players": [2, 1]}, {"at": [[2, 1, 2]], "players": [1, 2]}],
        },
    )
    b = rules.parse(
        {
            "name": "Other",
            "turn_checks": [],
            "reserves": {"black": 2, "white": 2},
            "board": {
                "kind": "stacks",
                "size": [2, 1, 2],
                "exclusive": [{"players": [1], "at": [[1, 1, 2], [1, 1, 1]]}],
                "entry_locked": [{"at": [[2, 1]], "players": [1, 2]}],
            },
        }
    )
    assert a == b and a.fingerprint == b.fingerprint
    assert a.record["board"]["entry_locked"] == [{"at": [[2, 1, 1], [2, 1, 2]], "players": [1, 2]}]
    # a rule set without space locks keeps the canonical form it had before
    plain = parse(reserves={"black": 2, "white": 2})
    assert not {"sticky", "exclusive", "entry_locked", "exit_locked"} & set(plain.record["board"])
    assert "entry_locked" not in plain.record["phases"][0]
    assert plain != parse(reserves={"black": 2, "white": 2}, board=dict(SQ, sticky=[[1, 1, 1]]))


def test_symmetries_keep_the_locks_in_place():
    assert make_core(parse(reserves={"black": 2, "white": 2})).symmetry_count() == 8
    sticky_corner = make_core(parse(reserves={"black": 2, "white": 2}, board=dict(SQ, sticky=[[1, 1, 1]])))
    assert sticky_corner.symmetry_count() == 2  # the diagonal through (1,1,1)
    excl = make_core(
        parse(
            reserves={"black": 2, "white": 2}, board=dict(SQ, exclusive=[{"at": [[2, 2, 1]], "players": [1]}])
        )
    )
    assert excl.symmetry_count() == 8


@pytest.mark.parametrize("rs", SPACES, ids=lambda rs: rs.name)
def test_engine_matches_reference(rs):
    play_against_reference(rs, games=80, seed=5)


@pytest.mark.slow
@pytest.mark.parametrize("rs", SPACES, ids=lambda rs: rs.name)
def test_engine_matches_reference_long(rs):
    play_against_reference(rs, games=1500, seed=8)


@pytest.mark.parametrize("rs", SPACES, ids=lambda rs: rs.name)
def test_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=20)


@pytest.mark.parametrize("rs", SPACES[:3], ids=lambda rs: rs.name)
def test_solver_and_uct_run(rs, tmp_path):
    from solvers.exhaustive import solve

    uct = pytest.importorskip("mcts.uct")
    path = tmp_path / f"{rs.name}.json"
    path.write_text(json.dumps(rs.to_json()))
    result = solve(f"ttt(rules={path})", tt_log2=20)
    assert result["complete"] and -1.0 <= result["value"] <= 1.0
    c = make_core(rs)
    assert uct.UCTSearch(uct_c=1.4, max_simulations=200, seed=1).search(c)["action"] in c.legal_action_list()
