"""Games in progress kept in the registry (webapp/live_store.py, schema 4):
they survive a restart, several server processes share them, two processes
cannot both apply a move to one position, and every decision is reproducible
from the game's seed and moves."""

from __future__ import annotations

import multiprocessing
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

import pytest

from registry import Registry, db, open_games, players, results
from test_webapp import Browser, befriend, make_users, play_to_end, save_example
from webapp import create_app
from webapp.live import LiveGame, MoveError, Seat
from webapp.live_store import LiveStore

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def app(tmp_path):
    return create_app(tmp_path / "r.sqlite3", secret_key=b"k" * 32, benchmark_games=2, testing=True)


def cells(page: str) -> list[str]:
    return re.findall(r'data-action="(\d+)"', page)


def board(page: str) -> str:
    """The game page without its per-session token."""
    return re.sub(r'name="csrf" value="[^"]+"', "", page)


def new_game(
    store: LiveStore, reg: Registry, rule_set="Tic-Tac-Toe", user="cy", seed=7, opponent=("Random", "random")
) -> LiveGame:
    spec = players.bot_spec(reg, opponent[0])
    game = LiveGame.start(
        f"ttt(rules={rule_set})",
        rule_set,
        "Public",
        [Seat("cy", "human", user), Seat(opponent[0], opponent[1], None, spec)],
        seed,
    )
    return store.create(reg, game)


def test_a_restart_keeps_a_game_in_progress(app, tmp_path):
    make_users(app)
    cy = Browser(app, "cy")
    url = cy.post("/play/new", game="Connect4", universe="Public", seat0="cy", seat1="Random").headers[
        "Location"
    ]
    cy.post(url + "/move", action=cells(cy.get(url).text)[0])
    before = board(cy.get(url).text)
    assert "Your move" in before
    # a new server on the same database: nothing of the first app's memory
    again = create_app(tmp_path / "r.sqlite3", secret_key=b"k" * 32, testing=True)
    assert again.extensions["live_games"] is not app.extensions["live_games"]
    cy2 = Browser(again, "cy")
    assert url.rsplit("/", 1)[1] in cy2.get("/").text  # "Your games in progress"
    assert board(cy2.get(url).text) == before
    page = play_to_end(cy2, url)
    gid = int(re.search(r"recorded as game (\d+)", page).group(1))
    with Registry(tmp_path / "r.sqlite3") as reg:
        [stored] = results.games_of(reg, "Connect4")
        assert stored["id"] == gid and stored["players"] == ["cy", "Random"]
        rs = results.rule_set_of(reg, "Connect4")
        assert results.replay(rs, stored["moves"]) == stored["returns"]
    assert url.rsplit("/", 1)[1] not in cy2.get("/").text  # finished: not in progress


def test_a_stale_write_is_refused_and_the_move_retried_on_the_new_position(app):
    make_users(app)
    with Registry(app.config["REGISTRY_DB"]) as reg:
        one, two = LiveStore(app.config["REGISTRY_DB"]), LiveStore(app.config["REGISTRY_DB"])
        game = new_game(one, reg)
        a, b = one.get(reg, game.id), two.get(reg, game.id)
        assert a.changes == b.changes == 0
        first = a.successor()
        first.human_move("cy", 4)
        second = b.successor()
        second.human_move("cy", 0)
        assert a.moves == [] and b.moves == []  # successors leave the read game alone
        assert one.commit(reg, first, expected=0)
        assert not two.commit(reg, second, expected=0)  # written over a count that is gone
        stored = two.get(reg, game.id)
        assert stored.moves == first.moves and stored.moves[0] == 4 and stored.changes == 1
        # through move(): the retry meets the new position, where 4 is taken
        with pytest.raises(MoveError, match="not a legal move"):
            two.move(reg, game.id, "cy", 4)
        assert two.get(reg, game.id).moves == first.moves
        with pytest.raises(MoveError, match="not your turn"):
            two.move(reg, game.id, "dee", 0)


def _race(path, gid, action, barrier, out):
    """One 'server process': its own store and connection, moving when the other does."""
    with Registry(path, seed=False) as reg:
        store = LiveStore(path)
        store.get(reg, gid)  # both read the same position first
        barrier.wait()
        try:
            store.move(reg, gid, "cy", action)
            out.put("applied")
        except MoveError as e:
            out.put(str(e))


def test_two_processes_moving_at_once_apply_one_move(app):
    """Two processes send cy's same move to the same position at the same
    moment, ten times: each time exactly one is applied."""
    make_users(app)
    path = app.config["REGISTRY_DB"]
    ctx = multiprocessing.get_context("fork")
    with Registry(path) as reg:
        store = LiveStore(path)
        for seed in range(10):
            game = new_game(store, reg, seed=seed)
            barrier, out = ctx.Barrier(2), ctx.Queue()
            procs = [ctx.Process(target=_race, args=(path, game.id, 4, barrier, out)) for _ in range(2)]
            for p in procs:
                p.start()
            answers = [out.get(timeout=60) for _ in procs]
            for p in procs:
                p.join(timeout=60)
            assert sorted(answers) == ["4 is not a legal move here", "applied"], answers
            stored = store.get(reg, game.id)
            assert stored.changes == 1 and stored.moves[0] == 4 and len(stored.moves) == 2


def test_decisions_come_from_the_seed_and_the_moves(app):
    """The same seed and the same person's moves give the same bot answers in
    any process; a game rebuilt from its stored row is the position played."""
    make_users(app)
    with Registry(app.config["REGISTRY_DB"]) as reg:
        players.add_bot(reg, "m30", "mcts:simulations=30")
        stores = [LiveStore(app.config["REGISTRY_DB"]) for _ in range(2)]
        runs = []
        for store in stores:
            game = new_game(store, reg, rule_set="Connect4", seed=11, opponent=("m30", "bot"))
            while not game.state.is_terminal():
                game = store.move(reg, game.id, "cy", game.state.legal_actions()[0])
            runs.append(game.moves)
            fresh = LiveStore(app.config["REGISTRY_DB"]).get(reg, game.id)
            assert fresh.moves == game.moves and str(fresh.state) == str(game.state)
            assert fresh.recorded == game.recorded is not None
        assert runs[0] == runs[1]
        other = new_game(stores[0], reg, rule_set="Connect4", seed=12, opponent=("m30", "bot"))
        while not other.state.is_terminal():
            other = stores[0].move(reg, other.id, "cy", other.state.legal_actions()[0])
        assert other.moves != runs[0]  # another seed, other answers (not a constant bot)


def test_a_page_of_an_unchanged_game_is_not_replayed(app):
    make_users(app)
    store = app.extensions["live_games"]
    cy = Browser(app, "cy")
    url = cy.post("/play/new", game="Tic-Tac-Toe", universe="Public", seat0="cy", seat1="Random").headers[
        "Location"
    ]
    replays = store.replays
    for _ in range(3):
        cy.get(url)
    assert store.replays == replays  # created here: cached at its change count
    with Registry(app.config["REGISTRY_DB"]) as reg:  # another process moves
        LiveStore(app.config["REGISTRY_DB"]).move(reg, url.rsplit("/", 1)[1], "cy", 4)
    page = cy.get(url).text
    # behind by one move: only the new decisions are applied to the cached copy
    assert store.replays == replays and store.catch_ups == 1 and 'class="piece' in page
    gid = url.rsplit("/", 1)[1]
    with Registry(app.config["REGISTRY_DB"]) as reg:
        caught_up = store.get(reg, gid)
        rebuilt = LiveStore(app.config["REGISTRY_DB"]).get(reg, gid)  # from all its moves
    assert caught_up.moves == rebuilt.moves and caught_up.changes == rebuilt.changes
    assert str(caught_up.state) == str(rebuilt.state)
    assert caught_up.state.legal_actions() == rebuilt.state.legal_actions()
    assert caught_up.last_move == rebuilt.last_move and caught_up.plans == rebuilt.plans


def test_a_catch_up_over_a_simultaneous_round_equals_a_full_replay(app):
    """A cached game behind a resolved simultaneous round (its decisions are
    stored in the core's order) is brought forward to the same position."""
    make_users(app)
    save_example(app, "Sim-Place-Then-Move")
    cy, di = befriend(app, "cy", "dee")
    url = cy.post(
        "/play/new", game="Sim-Place-Then-Move", universe="Public", seat0="cy", seat1="dee"
    ).headers["Location"]
    gid = url.rsplit("/", 1)[1]
    other = LiveStore(app.config["REGISTRY_DB"])  # another process's cache
    with Registry(app.config["REGISTRY_DB"]) as reg:
        other.get(reg, gid)
    for _ in range(3):  # three rounds, planned by both
        for b in (cy, di):
            page = b.get(url).text
            plans = cells(page) or re.findall(r'name="action" value="(\d+)"', page)
            if plans and "Game over" not in page:
                b.post(url + "/move", action=plans[0])
    with Registry(app.config["REGISTRY_DB"]) as reg:
        caught_up = other.get(reg, gid)
        rebuilt = LiveStore(app.config["REGISTRY_DB"]).get(reg, gid)
    assert other.catch_ups == 1 and other.replays == 1
    assert len(rebuilt.moves) >= 6 and caught_up.moves == rebuilt.moves
    assert str(caught_up.state) == str(rebuilt.state)
    assert caught_up.state.legal_actions(0) == rebuilt.state.legal_actions(0)


def test_a_refused_record_rolls_back_only_itself():
    """Nested registry transactions are savepoints: the web app records a
    finished game inside the transaction of its last move."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("CREATE TABLE t (a)")
    with db.transaction(conn):
        conn.execute("INSERT INTO t VALUES (1)")
        with pytest.raises(ValueError):
            with db.transaction(conn):
                conn.execute("INSERT INTO t VALUES (2)")
                raise ValueError("refused")
        with db.transaction(conn):
            conn.execute("INSERT INTO t VALUES (3)")
    assert [r[0] for r in conn.execute("SELECT a FROM t ORDER BY a")] == [1, 3]
    with pytest.raises(ValueError):
        with db.transaction(conn):
            conn.execute("INSERT INTO t VALUES (4)")
            with db.transaction(conn):
                conn.execute("INSERT INTO t VALUES (5)")
            raise ValueError("outer fails")
    assert [r[0] for r in conn.execute("SELECT a FROM t ORDER BY a")] == [1, 3]


def test_migration_from_schema_3_keeps_records_and_adds_live_games(tmp_path):
    path = tmp_path / "v3.sqlite3"
    raw = sqlite3.connect(path, isolation_level=None)
    for step in db.MIGRATIONS[:3]:
        raw.executescript(step)
    raw.execute("PRAGMA user_version = 3")
    raw.execute("INSERT INTO universes (name, created) VALUES ('Public', 't')")
    raw.execute(
        "INSERT INTO players (name, kind, spec, created) VALUES "
        "('Random', 'random', '{\"kind\": \"random\"}', 't')"
    )
    raw.execute("INSERT INTO open_games (game_string, created) VALUES ('y_game(board_size=5)', 't')")
    raw.execute(
        "INSERT INTO open_game_records (open_game_id, universe_id, moves, finished) "
        "VALUES (1, 1, '[3, 1, 4]', 't1')"
    )
    raw.execute("INSERT INTO open_game_seats VALUES (1, 0, 1, 1.0)")
    raw.close()
    with Registry(path) as reg:
        assert db.version(reg.db) == db.SCHEMA_VERSION
        [stored] = open_games.open_games_of(reg)
        assert stored["moves"] == [3, 1, 4] and stored["players"] == ["Random"]
        assert stored["finished"] == "t1"
        assert reg.query("SELECT count(*) FROM live_games") == [(0,)]


# -- the server as its user starts it: several processes, then a restart --------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db_path, port, workers=2):
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "webapp",
            "--db",
            str(db_path),
            "--port",
            str(port),
            "--workers",
            str(workers),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    for _ in range(600):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/login", timeout=1).read()
            return proc
        except OSError:
            if proc.poll() is not None:
                raise AssertionError(proc.stdout.read()) from None
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server did not start")


def stop_server(proc) -> str:
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=30)
    return out


class Http:
    def __init__(self, base):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        self.token = ""

    def get(self, path):
        with self.opener.open(self.base + path, timeout=60) as r:
            page = r.read().decode()
        m = re.search(r'name="csrf" value="([^"]+)"', page)
        self.token = m.group(1) if m else self.token
        return page

    def post(self, path, **data):
        data["csrf"] = self.token
        with self.opener.open(self.base + path, urllib.parse.urlencode(data).encode(), timeout=60) as r:
            page = r.read().decode()
            return r.geturl(), page


def test_worker_processes_share_games_and_a_restart_keeps_them(tmp_path):
    path, port = tmp_path / "w.sqlite3", free_port()
    proc = start_server(path, port)
    base = f"http://127.0.0.1:{port}"
    try:
        ada = Http(base)
        ada.get("/register")
        ada.post("/register", name="ada", password="correct-horse", password2="correct-horse")
        ada.get("/")
        url, page = ada.post("/play/new", game="Tic-Tac-Toe", universe="Public", seat0="ada", seat1="Random")
        game_path = urllib.parse.urlparse(url).path
        _, page = ada.post(game_path + "/move", action=cells(page)[0])
        for _ in range(20):  # new connections: the kernel spreads them over both processes
            assert board(ada.get(game_path)) == board(page)
    finally:
        out = stop_server(proc)
    assert "with 2 processes" in out
    proc = start_server(path, port)
    try:
        page = ada.get(game_path)  # the same login (the key is kept) and game
        assert board(page) == board(ada.get(game_path)) and "Your move" in page
        while "Game over" not in page:
            _, page = ada.post(game_path + "/move", action=cells(page)[0])
        assert re.search(r"recorded as game \d+ and rated", page)
    finally:
        stop_server(proc)
    with Registry(path) as reg:
        [stored] = results.games_of(reg, "Tic-Tac-Toe")
        assert stored["players"] == ["ada", "Random"]
        assert reg.query("SELECT count(*) FROM live_games WHERE finished IS NOT NULL") == [(1,)]


def test_the_server_refuses_bad_worker_counts_and_a_taken_port(capsys, tmp_path):
    from webapp import cli

    for argv in (["--workers", "0"], ["--workers", "99"], ["--workers", "2", "--dev-server"]):
        assert cli.main(["--db", str(tmp_path / "x.sqlite3")] + argv) == 2
        assert "error: --" in capsys.readouterr().err
    parse = cli._parser().parse_args
    assert cli.workers_of(parse([])) == cli.DEFAULT_WORKERS >= 1
    assert cli.workers_of(parse(["--dev-server"])) == 1  # one process, no error
    assert cli.workers_of(parse(["--workers", "3"])) == 3
    with socket.socket() as held:  # a plain socket, no SO_REUSEPORT
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        assert cli.main(["--db", str(tmp_path / "x.sqlite3"), "--port", str(port), "--workers", "2"]) == 2
        assert "cannot listen on 127.0.0.1" in capsys.readouterr().err
