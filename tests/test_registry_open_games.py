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
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state.history(), state.returns()


def snapshot(reg):
    tables = [r[0] for r in reg.query("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {t: reg.query(f"SELECT * FROM {t} ORDER BY rowid") for t in sorted(tables)}


@pytest.mark.parametrize(
    "game_string", ["y_game(board_size=5)", "flipway(board_size=5)", "caeth_y(board_size=4)", "connect_four"]
)
def test_a_game_is_stored_replayable_and_rated(reg, game_string):
    moves, returns = random_game(game_string, 1)
    gid = open_games.record_open_game(reg, game_string, ["ada", "Random"], returns, moves)
    [stored] = open_games.open_games_of(reg, game_string)
    assert stored["id"] == gid and stored["players"] == ["ada", "Random"]
    assert stored["moves"] == list(moves) and stored["returns"] == list(returns)
    assert open_games.replay(game_string, stored["moves"]) == list(returns)
    board = {r["player"]: r for r in open_games.open_ratings(reg, game_string)}
    assert set(board) == {"ada", "Random"} and board["ada"]["games"] == 1
    if returns[0] != returns[1]:  # the winner's skill ends above the loser's
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
        for col in (0, 1, 0, 1, 0, 1, 0):  # four in column 0 for the first seat
            state.apply_action(col)
        assert state.is_terminal() and state.returns() == [1.0, -1.0]
        open_games.record_open_game(reg, "connect_four", ["ada", "Random"], state.returns(), state.history())
        history.append(
            reg.one(
                "SELECT mu, sigma FROM ratings r JOIN players p ON "
                "p.id = r.player_id WHERE p.name = 'ada' ORDER BY game_id DESC "
                "LIMIT 1"
            )
        )
    assert history[0][0] < history[1][0] < history[2][0]
    assert history[0][1] > history[1][1] > history[2][1]


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda m, r: (m[:-1], r), "do not finish"),
        (lambda m, r: (m + [0], r), "already over"),
        (lambda m, r: ([99] + m[1:], r), "illegal"),
        (lambda m, r: (m, [x + 1 for x in r]), "are not what the moves give"),
    ],
)
def test_wrong_games_are_refused_and_change_nothing(reg, change, message):
    moves, returns = random_game("y_game(board_size=5)", 2)
    moves, returns = change(list(moves), list(returns))
    before = snapshot(reg)
    with pytest.raises(RegistryError, match=message):
        open_games.record_open_game(reg, "y_game(board_size=5)", ["ada", "bob"], returns, moves)
    assert snapshot(reg) == before


def test_bad_players_and_games_are_refused(reg):
    moves, returns = random_game("y_game(board_size=5)", 3)
    for players_, message in (
        (["ada"], "2 seats"),
        (["ada", "ada"], "different player"),
        (["ada", "Chaos"], "Chaos"),
        (["ada", "nobody"], "unknown player"),
    ):
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
        open_games.record_open_game(
            reg, "y_game(board_size=5)", ["ada", "Bot"], returns, moves, universe="Dream"
        )


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
        assert db.version(reg.db) == db.SCHEMA_VERSION >= 3  # and every later migration
        assert users.list_users(reg) == [{"name": "old", "role": "admin", "rule_sets": 0}]
        assert open_games.open_game_strings(reg) == []
        moves, returns = random_game("y_game(board_size=5)", 4)
        reg.db.execute(
            "INSERT INTO players (name, kind, user_id, universe_id, created) VALUES "
            "('old', 'human', 1, 1, 't')"
        )
        open_games.record_open_game(reg, "y_game(board_size=5)", ["old", "Random"], returns, moves)
    with Registry(path) as reg:
        assert len(open_games.open_games_of(reg, player="old")) == 1


# -- one record path (schema 5): game strings are rows of rule_sets, their games rows of games --


def test_game_strings_and_rule_sets_share_one_record_path(reg):
    """A game string's game and a rule set's game are rows of the same tables,
    rated by the same code and shown by the same leaderboard; the game string
    is not a rule set anywhere else (listing, ttt loading, copy, rename)."""
    from registry import leaderboard, results, rulesets

    moves, returns = random_game("y_game(board_size=5)", 5)
    oid = open_games.record_open_game(reg, "y_game(board_size=5)", ["ada", "Random"], returns, moves)
    ttt = pyspiel.load_game("ttt(rules=Tic-Tac-Toe)").new_initial_state()
    for a in (4, 0, 1, 7, 2, 6, 3, 5, 8):
        if not ttt.is_terminal():
            ttt.apply_action(a)
    tid = results.record_game(reg, "Tic-Tac-Toe", ["ada", "Random"], ttt.returns(), ttt.history())
    both = {g["id"]: g for g in results.games_of(reg, player="ada")}
    assert set(both) == {oid, tid}
    assert both[oid]["rule_set"] == both[oid]["game_string"] == "y_game(board_size=5)"
    assert both[tid]["game_string"] is None
    assert reg.query("SELECT count(*) FROM ratings WHERE game_id IN (?, ?)", (oid, tid)) == [(4,)]
    board = [e.player for e in leaderboard.leaderboard(reg, "y_game(board_size=5)", "Public", "ada")]
    assert "ada" in board and "Random" in board
    assert "y_game(board_size=5)" not in [r["name"] for r in rulesets.list_rule_sets(reg)]
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("ttt(rules=y_game(board_size=5))")
    with pytest.raises(RegistryError, match="game string"):
        rulesets.copy_rule_set(reg, "ada", "y_game(board_size=5)")
    with pytest.raises(RegistryError, match="game string"):
        rulesets.rename_rule_set(reg, "ada", "y_game(board_size=5)", "Y5")
    with pytest.raises(RegistryError, match="game string"):
        results.rule_set_of(reg, "y_game(board_size=5)")
    reg.db.execute(
        "INSERT INTO rule_sets (name, canonical, fingerprint, text, created) "
        "VALUES ('tic_tac_toe', 'x', 'f', '{}', 't')"
    )  # a rule set of that name
    with pytest.raises(RegistryError, match="saved rule set"):  # the names cannot mix
        open_games.record_open_game(reg, "tic_tac_toe", ["ada", "Random"], [0, 0], [])


def _schema_4_with_records(path):
    """A schema-4 database as the previous version wrote it: a rule-set game and
    three games of two game strings in migration 3's tables, with ratings."""
    raw = sqlite3.connect(path, isolation_level=None)
    for step in db.MIGRATIONS[:4]:
        raw.executescript(step)
    raw.execute("PRAGMA user_version = 4")
    raw.executescript("""
        INSERT INTO universes (name, created) VALUES ('Public', 't');
        INSERT INTO users (name, role, created) VALUES ('old', 'admin', 't');
        INSERT INTO players (name, kind, user_id, universe_id, created)
            VALUES ('old', 'human', 1, 1, 't');
        INSERT INTO players (name, kind, spec, created)
            VALUES ('Random', 'random', '{"kind": "random"}', 't');
        INSERT INTO rule_sets (name, canonical, fingerprint, text, created)
            VALUES ('Mine', '{}', 'f', '{"name": "Mine"}', 't');
        INSERT INTO games (rule_set_id, universe_id, moves, finished) VALUES (1, 1, '[4]', 't0');
        INSERT INTO seats VALUES (1, 0, 1, 1.0), (1, 1, 2, -1.0);
        INSERT INTO ratings VALUES (1, 1, 1, 1, 26.0, 8.0, 't0'), (1, 1, 2, 1, 24.0, 8.0, 't0');
        INSERT INTO open_games (game_string, created)
            VALUES ('connect_four', 'c1'), ('y_game(board_size=5)', 'c2');
        INSERT INTO open_game_records (open_game_id, universe_id, moves, finished)
            VALUES (1, 1, '[0, 1, 0]', 't1'), (2, 1, '[3, 1, 4]', 't2'), (1, 1, '[2, 2]', 't3');
        INSERT INTO open_game_seats VALUES (1, 0, 1, 1.0), (1, 1, 2, -1.0), (2, 0, 2, 1.0),
            (2, 1, 1, -1.0), (3, 0, 1, 1.0), (3, 1, 2, -1.0);
        INSERT INTO open_game_ratings VALUES (1, 1, 1, 1, 27.0, 7.5, 't1'), (1, 1, 2, 1, 23.0, 7.5, 't1'),
            (2, 1, 2, 2, 26.5, 7.9, 't2'), (2, 1, 1, 2, 23.5, 7.9, 't2'),
            (1, 1, 1, 3, 28.0, 7.0, 't3'), (1, 1, 2, 3, 22.0, 7.0, 't3');
    """)
    raw.close()


def test_migration_from_schema_4_moves_every_open_record_into_games(tmp_path):
    path = tmp_path / "v4.sqlite3"
    _schema_4_with_records(path)
    with Registry(path) as reg:
        assert db.version(reg.db) == db.SCHEMA_VERSION >= 5
        tables = {r[0] for r in reg.query("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert not {t for t in tables if t.startswith("open_game")}
        c4 = open_games.open_games_of(reg, "connect_four")
        assert [(g["moves"], g["players"], g["returns"], g["finished"]) for g in c4] == [
            ([0, 1, 0], ["old", "Random"], [1.0, -1.0], "t1"),
            ([2, 2], ["old", "Random"], [1.0, -1.0], "t3"),
        ]
        [y5] = open_games.open_games_of(reg, "y_game(board_size=5)")
        assert y5["players"] == ["Random", "old"] and y5["finished"] == "t2"
        # ids after the rule set's game, in the old order
        assert 1 < c4[0]["id"] < y5["id"] < c4[1]["id"]
        board = {
            r["player"]: (r["mu"], r["sigma"], r["games"])
            for r in open_games.open_ratings(reg, "connect_four")
        }
        assert board == {"old": (28.0, 7.0, 2), "Random": (22.0, 7.0, 2)}
        assert open_games.open_game_strings(reg) == ["connect_four", "y_game(board_size=5)"]
        from registry import results

        [mine] = results.games_of(reg, "Mine")  # the rule set's game is untouched
        assert mine["id"] == 1 and mine["players"] == ["old", "Random"]
        # the next game continues from the migrated rating
        state = pyspiel.load_game("connect_four").new_initial_state()
        for col in (0, 1, 0, 1, 0, 1, 0):
            state.apply_action(col)
        open_games.record_open_game(reg, "connect_four", ["old", "Random"], state.returns(), state.history())
        after = {r["player"]: r for r in open_games.open_ratings(reg, "connect_four")}
        assert after["old"]["games"] == 3 and after["old"]["mu"] > 28.0
        assert after["old"]["sigma"] < 7.0


def test_migration_from_schema_4_renames_a_rule_set_named_like_a_recorded_game(tmp_path, capsys):
    """A saved rule set called ``connect_four`` beside recorded connect_four
    games: the upgrade keeps both, renaming the rule set with a warning."""
    path = tmp_path / "v4.sqlite3"
    _schema_4_with_records(path)
    raw = sqlite3.connect(path, isolation_level=None)
    raw.execute(
        "INSERT INTO rule_sets (name, canonical, fingerprint, text, created) "
        "VALUES ('connect_four', '{\"x\": 1}', 'g', '{\"name\": \"connect_four\"}', 't')"
    )
    raw.close()
    with Registry(path) as reg:
        assert db.version(reg.db) == db.SCHEMA_VERSION
        assert reg.one("SELECT game_string FROM rule_sets WHERE name = 'connect_four'")[0] == "connect_four"
        assert (
            reg.one("SELECT canonical FROM rule_sets WHERE name = 'connect_four-rule-set'")[0] == '{"x": 1}'
        )
        assert len(open_games.open_games_of(reg, "connect_four")) == 2
    assert "'connect_four' is renamed 'connect_four-rule-set'" in capsys.readouterr().err


def test_benchmark_selected_bots_on_a_game_string(reg, tmp_path):
    """ "Benchmark selected bots" on a game string's leaderboard: every
    combination's games are played by analysis.tournament on the game string,
    stored through the one record path (replayed, rated) and a rerun resumes
    without storing a game twice."""
    from registry import benchmark, results

    players.add_bot(reg, "Mcts8", "mcts:simulations=8")
    out = benchmark.benchmark(reg, "ada", "connect_four", ["Mcts8", "Random"], games=2, seed=3)
    stored = results.games_of(reg, "connect_four")
    assert out["games"] == len(stored) == 2 and {g["benchmark"] for g in stored} == {out["id"]}
    for g in stored:
        assert sorted(g["players"]) == ["Mcts8", "Random"]
        assert open_games.replay("connect_four", g["moves"]) == g["returns"]
    assert {g["players"][0] for g in stored} == {"Mcts8", "Random"}  # seats rotated
    assert {r["player"] for r in open_games.open_ratings(reg, "connect_four")} == {"Mcts8", "Random"}
    again = benchmark.benchmark(reg, "ada", "connect_four", ["Mcts8", "Random"], games=2, seed=3)
    assert again["id"] == out["id"] and len(results.games_of(reg, "connect_four")) == 2
    assert benchmark.game_of(reg, "connect_four") == ("connect_four", 2, "")
    with pytest.raises(RegistryError, match="Creator"):
        benchmark.benchmark(reg, "bob", "connect_four", ["Mcts8", "Random"], games=1)
