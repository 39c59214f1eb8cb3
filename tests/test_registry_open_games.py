"""Games other than rule sets (Y family, Flipway, Caeth Y, OpenSpiel's own)
recorded and rated by their game string (registry/open_games.py), and the
migration that adds their tables to an existing database."""
from __future__ import annotations

import random
import sqlite3

import pyspiel
import pytest

import games  # noqa: F401  (registers y_game, flipway, caeth_y)
from registry import Registry, RegistryError, db, open_games, players, users


@pytest.fixture
def reg(tmp_path):
    with Registry(tmp_path / "reg.sqlite3") as r:
        users.add_user(r, "ada", "admin")
        users.add_user(r, "bob", "creator")
        yield r


def random_game(game_string: str, seed: int):
    """(actions, returns) of a random playout, chance outcomes included."""
    rng = random.Random(seed)
    state = pyspiel.load_game(game_string).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state.history(), state.returns()


def snapshot(reg):
    tables = [r[0] for r in reg.query("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {t: reg.query(f"SELECT * FROM {t} ORDER BY rowid") for t in sorted(tables)}


@pytest.mark.parametrize("game_string", ["y_game(board_size=5)", "flipway(board_size=5)",
                                         "caeth_y(board_size=4)", "connect_four"])
def test_a_game_is_stored_replayable_and_rated(reg, game_string):
    moves, returns = random_game(game_string, 1)
    gid = open_games.record_open_game(reg, game_string, ["ada", "Random"], returns, moves)
    [stored] = open_games.open_games_of(reg, game_string)
    assert stored["id"] == gid and stored["players"] == ["ada", "Random"]
    assert stored["moves"] == list(moves) and stored["returns"] == list(returns)
    assert open_games.replay(game_string, stored["moves"]) == list(returns)
    board = {r["player"]: r for r in open_games.open_ratings(reg, game_string)}
    assert set(board) == {"ada", "Random"} and board["ada"]["games"] == 1
    if returns[0] != returns[1]:              # the winner's skill ends above the loser's
        winner, loser = ("ada", "Random") if returns[0] > returns[1] else ("Random", "ada")
        assert board[winner]["skill"] > board[loser]["skill"]
    assert open_games.open_game_strings(reg) == [game_string]
    assert open_games.open_games_of(reg, player="bob") == []


def test_ratings_follow_the_games_in_order(reg):
    """ada beats Random three times at Connect Four (OpenSpiel's own game):
    her mu rises and her sigma shrinks with each game."""
    game = pyspiel.load_game("connect_four")
    history = []
    for _ in range(3):
        state = game.new_initial_state()
        for col in (0, 1, 0, 1, 0, 1, 0):        # four in column 0 for the first seat
            state.apply_action(col)
        assert state.is_terminal() and state.returns() == [1.0, -1.0]
        open_games.record_open_game(reg, "connect_four", ["ada", "Random"], state.returns(),
                                    state.history())
        history.append(reg.one("SELECT mu, sigma FROM open_game_ratings r JOIN players p ON "
                               "p.id = r.player_id WHERE p.name = 'ada' ORDER BY game_id DESC "
                               "LIMIT 1"))
    assert history[0][0] < history[1][0] < history[2][0]
    assert history[0][1] > history[1][1] > history[2][1]


@pytest.mark.parametrize("change, message", [
    (lambda m, r: (m[:-1], r), "do not finish"),
    (lambda m, r: (m + [0], r), "already over"),
    (lambda m, r: ([99] + m[1:], r), "illegal"),
    (lambda m, r: (m, [x + 1 for x in r]), "are not what the moves give"),
])
def test_wrong_games_are_refused_and_change_nothing(reg, change, message):
    moves, returns = random_game("y_game(board_size=5)", 2)
    moves, returns = change(list(moves), list(returns))
    before = snapshot(reg)
    with pytest.raises(RegistryError, match=message):
        open_games.record_open_game(reg, "y_game(board_size=5)", ["ada", "bob"], returns, moves)
    assert snapshot(reg) == before


def test_bad_players_and_games_are_refused(reg):
    moves, returns = random_game("y_game(board_size=5)", 3)
    for players_, message in ((["ada"], "2 seats"), (["ada", "ada"], "different player"),
                              (["ada", "Chaos"], "Chaos"), (["ada", "nobody"], "unknown player")):
        with pytest.raises(RegistryError, match=message):
            open_games.record_open_game(reg, "y_game(board_size=5)", players_, returns, moves)
    with pytest.raises(RegistryError, match="rule set"):
        open_games.record_open_game(reg, "ttt(rules=Tic-Tac-Toe)", ["ada", "bob"], [0, 0], [])
    with pytest.raises(RegistryError, match="not a game OpenSpiel can load"):
        open_games.record_open_game(reg, "no_such_game", ["ada", "bob"], [0, 0], [])
    with pytest.raises(RegistryError, match="simultaneous"):
        open_games.record_open_game(reg, "matrix_rps", ["ada", "bob"], [0, 0], [])
    players.add_bot(reg, "Bot", "mcts:simulations=10")
    reg.db.execute("INSERT INTO universes (name, created) VALUES ('Dream', 't')")
    with pytest.raises(RegistryError, match="does not live in this universe"):
        open_games.record_open_game(reg, "y_game(board_size=5)", ["ada", "Bot"], returns, moves,
                                    universe="Dream")


def test_migration_from_version_2_keeps_everything_and_adds_the_tables(tmp_path):
    path = tmp_path / "v2.sqlite3"
    raw = sqlite3.connect(path, isolation_level=None)
    raw.executescript(db.MIGRATIONS[0])
    raw.executescript(db.MIGRATIONS[1])
    raw.execute("PRAGMA user_version = 2")
    raw.execute("INSERT INTO universes (name, created) VALUES ('Public', 't')")
    raw.execute("INSERT INTO users (name, role, created) VALUES ('old', 'admin', 't')")
    raw.close()
    with Registry(path) as reg:
        assert db.version(reg.db) == db.SCHEMA_VERSION >= 3       # and every later migration
        assert users.list_users(reg) == [{"name": "old", "role": "admin", "rule_sets": 0}]
        assert open_games.open_game_strings(reg) == []
        moves, returns = random_game("y_game(board_size=5)", 4)
        reg.db.execute("INSERT INTO players (name, kind, user_id, universe_id, created) VALUES "
                       "('old', 'human', 1, 1, 't')")
        open_games.record_open_game(reg, "y_game(board_size=5)", ["old", "Random"], returns, moves)
    with Registry(path) as reg:
        assert len(open_games.open_games_of(reg, player="old")) == 1
