"""The engine's rules on hand-made positions: each test plays a short,
fully specified game and checks exactly what docs/rules/ttt.md says happens.
Cells are numbered x + X*(y + Y*z) from 0; on stacks an action names a stack."""

import pickle
import random

import pytest

from games.ttt import make_core, rules

CAT = rules.catalogue()


def core(name_or_record):
    rs = CAT[name_or_record] if isinstance(name_or_record, str) else rules.parse(name_or_record)
    return make_core(rs)


def play(c, actions):
    for a in actions:
        c.apply_action(a)
    return c


def test_tic_tac_toe_row_wins():
    c = play(core("Tic-Tac-Toe"), [0, 3, 1, 4])
    assert not c.terminal()
    play(c, [2])
    assert c.terminal() and c.returns_list() == [1.0, -1.0] and c.ending() == "turn check"


def test_connect6_two_stones_a_turn_and_the_preplaced_white_stone():
    c = core("Connect6-19x19")
    assert c.cells()[9 + 19 * 9] == 2  # white on (10,10)
    assert 180 not in c.legal_action_list()
    order = []
    for a in [0, 1, 340, 341, 2, 3, 342, 343, 4]:
        order.append(c.player())
        c.apply_action(a)
    assert order == [0, 0, 1, 1, 0, 0, 1, 1, 0]
    assert not c.terminal()  # five in a row is not enough
    c.apply_action(5)
    assert c.terminal() and c.returns_list() == [1.0, -1.0]


def test_tapatan_places_then_moves_adjacent():
    c = play(core("Tapatan"), [0, 4, 8, 2, 6])
    assert all(a < 9 for a in c.legal_action_list())  # White still holds a piece
    play(c, [3])
    # Black: 0, 8, 6; White: 4, 2, 3; empty: 1, 5, 7. Moves are 9 + from*9 + to.
    assert c.legal_action_list() == [9 + 0 * 9 + 1, 9 + 6 * 9 + 7, 9 + 8 * 9 + 5, 9 + 8 * 9 + 7]
    play(c, [9 + 8 * 9 + 5, 9 + 2 * 9 + 1, 9 + 5 * 9 + 2])
    assert not c.terminal()
    play(c, [9 + 3 * 9 + 7])  # White 1, 4, 7
    assert c.terminal() and c.returns_list() == [-1.0, 1.0]


def test_traditional_board_steps_diagonally_only_along_its_drawn_diagonals():
    # Black 3, 8, 2; White 4, 0, 6; empty 1, 5, 7. Cell 3 is the edge midpoint
    # (1,2,1): on the hash board (king steps) it reaches 1 and 7 diagonally,
    # on the traditional board no diagonal line passes through it.
    opening = [3, 4, 8, 0, 2, 6]
    king = play(core("Tapatan"), opening)
    lines = play(make_core(rules.load(rules.EXAMPLES_DIR / "Tapatan-Traditional.json")), opening)
    step = lambda f, u: 9 + f * 9 + u
    assert king.legal_action_list() == sorted(
        [step(3, 1), step(3, 7), step(8, 5), step(8, 7), step(2, 1), step(2, 5)]
    )
    assert lines.legal_action_list() == sorted([step(8, 5), step(8, 7), step(2, 1), step(2, 5)])
    # the centre does step diagonally: White's centre piece to each free corner
    c = play(
        make_core(rules.load(rules.EXAMPLES_DIR / "Tapatan-Traditional.json")), [1, 4, 3, 0, 8, 5, step(8, 7)]
    )
    assert {step(4, 2), step(4, 6), step(4, 8)} <= set(c.legal_action_list())


def test_most_wins_and_least_loses_keep_the_default_turn_check():
    # 3x4 board, cells x + 3*y: Black completes the bottom row on its third
    # piece, which ends the game at once (issue 10 item 10).
    for name in ("3P-MostWins-3x4", "3P-LeastLoses-3x4"):
        c = play(core(name), [0, 3, 6, 1, 4, 7])
        assert not c.terminal()
        play(c, [2])
        assert c.terminal() and c.ending() == "turn check" and c.returns_list() == [1.0, -1.0, -1.0]


def test_nine_holes_ignores_diagonals_and_moves_anywhere():
    c = play(core("9-Holes"), [0, 1, 4, 3, 8])
    assert not c.terminal()  # Black's diagonal 0-4-8 does not count
    play(c, [6])
    moves = c.legal_action_list()
    # linear or knight on 3x3 reaches every empty space (2, 5, 7) from every piece
    assert moves == sorted(9 + f * 9 + u for f in (0, 4, 8) for u in (2, 5, 7))
    play(c, [9 + 0 * 9 + 2, 9 + 6 * 9 + 7])
    assert not c.terminal()
    play(c, [9 + 4 * 9 + 5])  # Black 2, 5, 8: a column
    assert c.terminal() and c.returns_list() == [1.0, -1.0]


def test_agreed_draw_offer_refuse_and_accept():
    c = core("4on7sq")
    offer, agree, refuse = 49, 50, 51
    assert c.num_actions == 52 and offer in c.legal_action_list()
    c.apply_action(offer)
    assert c.player() == 1 and c.legal_action_list() == [agree, refuse]
    c.apply_action(refuse)
    assert c.player() == 0 and offer not in c.legal_action_list()  # must choose another move
    c.apply_action(0)
    assert c.player() == 1 and offer in c.legal_action_list()
    play(c, [offer, agree])
    assert c.terminal() and c.returns_list() == [0.0, 0.0] and c.ending() == "agreed draw"


def test_draw_needs_every_other_non_chaos_player():
    c = core(
        {
            "name": "d3",
            "players": "3",
            "board": {"kind": "squares", "size": [4, 4, 1]},
            "reserves": {"black": 5, "white": 5, "pink": 5},
            "agree_draw": True,
        }
    )
    offer, agree, refuse = 16, 17, 18
    play(c, [0, offer])
    assert c.player() == 2
    c.apply_action(agree)
    assert c.player() == 0 and not c.terminal()  # player 0 answers too
    c.apply_action(refuse)
    assert c.player() == 1 and offer not in c.legal_action_list()


def test_chaos_is_the_chance_player_moves_last_and_can_beat_everyone():
    c = core({"name": "c", "players": "2-vs-chaos", "reserves": {"black": 3, "white": 3, "pink": 3}})
    play(c, [0, 1])
    assert c.player() == -1
    outcomes = c.chance_outcome_list()
    assert [a for a, _ in outcomes] == list(range(2, 9)) and sum(p for _, p in outcomes) == pytest.approx(1)
    play(c, [4, 8, 7, 6, 3, 5])
    assert c.player() == -1
    c.apply_action(2)  # pink 2-4-6
    assert c.terminal() and c.returns_list() == [-1.0, -1.0]


def test_partners_share_the_outcome():
    c = core(
        {
            "name": "p",
            "players": "partners",
            "colours": "partners-share",
            "reserves": {"black": 5, "white": 4},
        }
    )
    play(c, [0, 3, 1, 4])
    assert c.player() == 0
    c.apply_action(2)
    assert c.returns_list() == [1.0, -1.0, 1.0, -1.0]


def test_a_round_of_passes_is_a_stalemate():
    c = core(
        {
            "name": "p",
            "reserves": {"black": 5, "white": 4},
            "phases": [{"pass": True}],
            "stalemate": "all-lose",
        }
    )
    play(c, [9, 0, 9])
    assert not c.terminal()
    c.apply_action(9)
    assert c.terminal() and c.returns_list() == [-1.0, -1.0] and c.ending() == "stalemate"


@pytest.mark.parametrize(
    "stalemate,actions,expected",
    [
        ("most-pieces-wins", [0, 3, 1, 4, 2], [1.0, -1.0]),
        ("most-in-a-row-wins", [0, 3, 1, 4, 2], [1.0, -1.0]),
        ("least-in-a-row-loses", [0, 3, 1, 4, 2], [1.0, -1.0]),
        ("most-in-a-row-wins", [0, 1, 2, 3, 4], [0.0, 0.0]),
        ("least-in-a-row-loses", [0, 1, 2, 3, 4], [0.0, 0.0]),
        ("all-win", [0, 1, 2, 3, 4], [1.0, 1.0]),
        ("draws", [0, 3, 1, 4, 2], [0.0, 0.0]),
    ],
)
def test_stalemate_rules(stalemate, actions, expected):
    c = core(
        {
            "name": "s",
            "board": {"kind": "squares", "size": [5, 1, 1]},
            "reserves": {"black": 3, "white": 2},
            "turn_checks": [],
            "stalemate": stalemate,
        }
    )
    play(c, actions)
    assert c.terminal() and c.ending() == "stalemate" and c.returns_list() == expected


def test_stacks_fall_and_fill():
    c = core("Connect4")
    play(c, [3, 3])
    cells = c.cells()
    assert cells[3] == 1 and cells[3 + 7] == 2
    play(c, [0, 0, 0, 0, 0, 0])
    assert 0 not in c.legal_action_list()


def test_qubic_space_diagonal_wins():
    c = play(core("Qubic-4"), [0, 1, 21, 2, 42, 3])
    assert not c.terminal()
    c.apply_action(63)
    assert c.returns_list() == [1.0, -1.0]


def test_wild_ttt_colour_choice_locks_and_whoever_completes_wins():
    c = core("Wild-TTT-6sq3143")
    legal = c.legal_action_list()
    assert c.num_actions == 72 and len(legal) == 68
    assert not {2, 15, 36 + 2, 36 + 15} & set(legal)  # (3,1,1) and (4,3,1) are locked
    # Black (player 0) starts a white row; White (player 1) finishes it and wins.
    play(c, [36 + 6, 36 + 7, 30])
    c.apply_action(36 + 8)
    assert c.returns_list() == [-1.0, 1.0]


def test_misere_notakto_3p_the_completer_loses():
    c = play(core("3P-Notakto"), [0, 1, 4, 5])
    assert c.player() == 1
    c.apply_action(8)  # player 1 completes 0-4-8
    assert c.returns_list() == [1.0, -1.0, 1.0]


def test_cannot_move_while_holding_an_identical_piece():
    c = core(
        {
            "name": "m",
            "reserves": {"black": 4, "white": 3},
            "shapes": {"circle": {"move": "adjacent"}},
            "move_limit": 30,
        }
    )
    play(c, [0, 8, 2, 6, 3])  # Black 0, 2, 3; White 8, 6
    play(c, [5])  # White placed its last piece
    assert all(a < 9 for a in c.legal_action_list())  # Black still holds one
    c.apply_action(7)  # Black's last piece (0, 2, 3, 7)
    assert any(a >= 9 for a in c.legal_action_list())  # White (no reserve) moves


def test_move_limit_ends_under_the_stalemate_rule():
    rec = dict(CAT["Tapatan"].to_json(), name="t", move_limit=7, stalemate="all-win")
    c = play(core(rec), [0, 4, 8, 2, 6, 3])
    c.apply_action(9 + 8 * 9 + 5)
    assert c.terminal() and c.ending() == "move limit" and c.returns_list() == [1.0, 1.0]


def test_symmetric_hashes_identify_mirror_images():
    a, b = play(core("Tic-Tac-Toe"), [0]), play(core("Tic-Tac-Toe"), [8])
    assert a.symmetry_count() == 8 and a.position_hash() != b.position_hash()
    assert a.position_hash_under(0) == a.position_hash()
    assert min(a.position_hash_under(s) for s in range(8)) == min(b.position_hash_under(s) for s in range(8))
    c4a, c4b = play(core("Connect4"), [0, 1]), play(core("Connect4"), [6, 5])
    assert c4a.symmetry_count() == 2
    assert {c4a.position_hash_under(s) for s in range(2)} == {c4b.position_hash_under(s) for s in range(2)}
    assert core("Wild-TTT-6sq3143").symmetry_count() == 1  # the locks break every symmetry


def test_hash_follows_the_position_not_the_path():
    assert (
        play(core("Tic-Tac-Toe"), [0, 4, 8]).position_hash()
        == play(core("Tic-Tac-Toe"), [8, 4, 0]).position_hash()
    )
    assert (
        play(core("Tic-Tac-Toe"), [0, 4]).position_hash() != play(core("Tic-Tac-Toe"), [4, 0]).position_hash()
    )


@pytest.mark.parametrize("name", sorted(CAT))
def test_clone_and_pickle_are_independent_copies(name):
    rng = random.Random(1)
    c = core(name)
    for _ in range(3):
        if c.terminal():
            break
        legal = c.legal_action_list() or [a for a, _ in c.chance_outcome_list()]
        c.apply_action(rng.choice(legal))
    d = pickle.loads(pickle.dumps(c))
    e = c.clone()
    assert d.to_string() == c.to_string() and d.position_hash() == c.position_hash()
    assert d.legal_action_list() == c.legal_action_list()
    e.random_playout(3)
    d.random_playout(3)
    assert e.terminal() and d.terminal() and e.to_string() == d.to_string()


def test_observation_has_one_plane_per_colour_empty_and_locked():
    c = core("Wild-TTT-6sq3143")
    obs = c.observation()
    S = 36
    assert len(obs) == 4 * S + 2 + 2 + 2
    assert obs[3 * S + 2] == 1.0 and obs[2 * S + 2] == 0.0  # (3,1,1) locked, not empty
