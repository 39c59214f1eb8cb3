"""A game string's standard player (the tic-tac-toe variations specification: the leaderboard shows "the
standard player (SP) for the rule set if there is one (in all universes)"):
game strings are rows of the registry's rule sets (registry/open_games.py),
so a Trainer or Admin names their SP as a rule set's, before or after any
game of theirs is recorded."""

import pytest

from registry import Registry, RegistryError, open_games, players, users
from registry import leaderboard as lb
from registry.cli import main as registry_main
from test_registry_store import snapshot

Y5 = "y_game(board_size=5)"


@pytest.fixture
def reg(tmp_path):
    with Registry(tmp_path / "reg.sqlite3") as r:
        users.add_user(r, "root", "admin")
        users.add_user(r, "ann")
        players.add_bot(r, "m20", "mcts:simulations=20")
        yield r


def test_a_game_strings_sp_on_its_leaderboard_in_every_universe(reg):
    assert Y5 not in open_games.open_game_strings(reg)
    players.set_standard_player(reg, "root", Y5, "m20")  # no game of it recorded yet
    assert players.standard_player(reg, Y5) == "m20"
    assert open_games.is_game_string_row(reg, Y5)
    players.add_universe(reg, "ann", "Dream")
    for universe in ("Public", "Dream"):
        assert {e.player for e in lb.leaderboard(reg, Y5, universe)} == {"Random", "m20"}
    # a recorded game keeps it; another game string has none
    game = open_games.load(Y5).new_initial_state()
    moves = []
    while not game.is_terminal():
        moves.append(game.legal_actions()[0])
        game.apply_action(moves[-1])
    open_games.record_open_game(reg, Y5, ["Random", "m20"], game.returns(), moves)
    assert players.standard_player(reg, Y5) == "m20"
    names = [e.player for e in lb.leaderboard(reg, Y5, "Dream")]
    assert "m20" in names and "Random" in names
    players.set_standard_player(reg, "root", "connect_four", "Random")
    assert players.standard_player(reg, "connect_four") == "Random"
    players.set_standard_player(reg, "root", Y5, None)
    assert players.standard_player(reg, Y5) is None


def test_bad_standard_players_of_game_strings_are_refused_and_change_nothing(reg):
    before = snapshot(reg)
    for who, game, player, words in (
        ("ann", Y5, "m20", "Trainer or Admin"),
        ("root", Y5, "ann", "must be a bot"),
        ("root", "y_game(board_size=99999)", "m20", "not a game string either"),
        ("root", "NoSuchRuleSet", "m20", "unknown rule set 'NoSuchRuleSet'"),
        ("root", "matrix_rps", "m20", "simultaneous moves"),
        ("root", Y5, "nobody", "nobody"),
    ):
        with pytest.raises(RegistryError, match=words):
            players.set_standard_player(reg, who, game, player)
    assert snapshot(reg) == before


def test_set_sp_command_takes_a_game_string(tmp_path, capsys):
    db = str(tmp_path / "r.sqlite3")
    assert registry_main(["--db", db, "user-add", "root", "--role", "admin"]) == 0
    assert registry_main(["--db", db, "bot-add", "m20", "mcts:simulations=20"]) == 0
    assert registry_main(["--db", db, "set-sp", Y5, "m20", "--as", "root"]) == 0
    assert f"m20 is the standard player of {Y5}" in capsys.readouterr().out
    assert registry_main(["--db", db, "set-sp", "nonsense(", "m20", "--as", "root"]) != 0
    assert "not a game string either" in capsys.readouterr().err
