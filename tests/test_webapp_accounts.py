"""Accounts and sessions of the web app: redirects stay on this site, a
session ends on the server (logout, a password change), logins are throttled
per name and per address and cost one password hash whatever the name, first
sign-ups at once make one Admin, and names that look like other names are
refused (webapp/accounts.py, webapp/views_auth.py, registry/names.py)."""

from __future__ import annotations

import functools
import hashlib
import html
import re
import sqlite3
import threading
import time

import pytest
from werkzeug.security import generate_password_hash

from registry import Registry, results, rulesets, users
from registry.errors import RegistryError
from test_webapp import PASSWORD, Browser, csrf
from webapp import accounts, create_app
from webapp.live import LiveGame, Seat

#: scrypt with a 32nd of the work of werkzeug's default: every hash these tests
#: count costs the same either way, and the module runs in a few seconds.
CHEAP = "scrypt:1024:8:1"


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setattr(accounts, "HASH_METHOD", CHEAP, raising=False)
    return create_app(tmp_path / "r.sqlite3", secret_key=b"k" * 32, testing=True)


@functools.lru_cache(maxsize=1)
def _hash() -> str:
    return generate_password_hash(PASSWORD, CHEAP)


def account(app, name: str, role: str = "creator") -> None:
    """An account with PASSWORD (its hash made once for the module: the tests
    count and pay for the logins' hashes, not the accounts')."""
    with Registry(app.config["REGISTRY_DB"]) as reg:
        first = not accounts.has_users(reg)
        users.add_user(reg, name, "admin" if first else role, by=None if first else "ada")
        uid, _ = reg.user_id(name)
        reg.db.execute("INSERT INTO webapp_accounts (user_id, password_hash) VALUES (?, ?)", (uid, _hash()))


@pytest.fixture
def hashes(monkeypatch):
    """The password-hash runs (werkzeug's scrypt) made while the test runs."""
    runs = []
    real = hashlib.scrypt

    def counted(*args, **kwargs):
        runs.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(hashlib, "scrypt", counted)
    return runs


def login(c, name: str, password: str = PASSWORD, nxt: str | None = None, address: str = "127.0.0.1"):
    token = csrf(c.get("/login").text)
    data = {"csrf": token, "name": name, "password": password}
    if nxt is not None:
        data["next"] = nxt
    return c.post("/login", data=data, environ_base={"REMOTE_ADDR": address})


# -- redirects
OFF_SITE = (
    "/\t/evil.example/phish",
    "/\n/evil.example/phish",
    "/\r/evil.example/phish",
    "/\r\nSet-Cookie: x=1",
    "//evil.example/phish",
    "/\\evil.example/phish",
    "\\/evil.example",
    "https://evil.example/",
    "/ /evil.example",
    "/\u2028/evil.example",
    " /evil.example",
)


def test_redirects_after_login_and_a_friend_request_stay_on_this_site(app):
    account(app, "ada")
    account(app, "cy")
    c = app.test_client()
    # the login form carries ?next= as it came, and the redirect refuses it
    page = c.get("/login?next=/%09/evil.example/phish").text
    assert re.search(r'name="next" value="/\t/evil.example/phish"', html.unescape(page))
    r = login(c, "cy", nxt="/\t/evil.example/phish")
    assert r.status_code == 302 and r.headers["Location"] == "/"
    for nxt in ("/\n/evil.example/phish", "/\r/evil.example/phish"):  # were a 500
        r = login(app.test_client(), "cy", nxt=nxt)
        assert r.status_code == 302 and r.headers["Location"] == "/", nxt
    b = Browser(app, "cy")
    for back in OFF_SITE:
        r = b.post("/friends/request", player="ada", universe="Public", back=back)
        assert r.status_code == 302 and r.headers["Location"] == "/", repr(back)
    r = b.post("/friends/request", player="ada", universe="Public", back="/rules/Tic-Tac-Toe/leaderboard?x=1")
    assert r.headers["Location"] == "/rules/Tic-Tac-Toe/leaderboard?x=1"  # this site's paths are kept
    assert login(app.test_client(), "cy", nxt="/rules").headers["Location"] == "/rules"


# -- sessions
def test_logout_ends_the_session_on_the_server_and_a_copied_cookie_with_it(app):
    account(app, "ada")
    account(app, "cy")
    cy = Browser(app, "cy")
    copy = app.test_client()
    copy.set_cookie("session", cy.c.get_cookie("session").value)
    assert copy.get("/").status_code == 200  # a copy works while the session lives
    assert cy.post("/logout").status_code == 302
    assert cy.get("/").status_code == 302
    r = copy.get("/")
    assert r.status_code == 302 and r.headers["Location"].startswith("/login")
    assert copy.get("/rules").status_code == 302
    with Registry(app.config["REGISTRY_DB"]) as reg:
        assert reg.one("SELECT count(*) FROM webapp_sessions")[0] == 0


def test_a_password_change_ends_every_other_session(app):
    account(app, "ada")
    account(app, "cy")
    here, there = Browser(app, "cy"), Browser(app, "cy")
    r = here.post("/password", current="wrong-password", new="new-password-1", new2="new-password-1")
    assert "the current password is wrong" in r.text
    r = here.post("/password", current=PASSWORD, new="new-password-1", new2="new-password-1")
    assert r.status_code == 302
    assert there.get("/").status_code == 302  # the other session has ended
    assert here.get("/").status_code == 200  # this browser has a new one
    assert login(app.test_client(), "cy", "new-password-1").status_code == 302
    with Registry(app.config["REGISTRY_DB"]) as reg:  # so does a change from the terminal
        accounts.set_password(reg, "cy", "newer-password-2")
    assert here.get("/").status_code == 302


# -- throttling and the cost of a login
def test_logins_are_throttled_per_name_before_any_hash_runs(app, hashes, monkeypatch):
    account(app, "ada")
    account(app, "cy")
    for i in range(accounts.ACCOUNT_FAILURES):
        r = login(app.test_client(), "cy", "wrong-password", address=f"10.0.0.{i}")
        assert r.status_code == 200 and "wrong name or password" in r.text
    del hashes[:]
    r = login(app.test_client(), "cy", PASSWORD, address="10.0.1.1")  # the right one, from elsewhere
    assert r.status_code == 429 and "too many failed logins" in r.text and hashes == []
    assert re.search(r"wait \d+ s and try again", r.text)
    later = accounts._now() + accounts.FAILURE_WINDOW + 1
    monkeypatch.setattr(accounts, "_now", lambda: later)
    assert login(app.test_client(), "cy").status_code == 302  # the window has passed


def test_logins_are_throttled_per_address(app, hashes, monkeypatch):
    account(app, "ada")
    account(app, "dee")
    monkeypatch.setattr(accounts, "ADDRESS_FAILURES", 3)
    for name in ("x1", "x2", "x3"):  # three names that do not exist, one address
        assert login(app.test_client(), name, "guess-1234", address="10.9.9.9").status_code == 200
    del hashes[:]
    r = login(app.test_client(), "dee", address="10.9.9.9")
    assert r.status_code == 429 and hashes == []
    for _ in range(4):  # logins that succeed count against no one
        assert login(app.test_client(), "dee", address="10.9.9.8").status_code == 302


def test_a_login_costs_one_hash_whether_the_name_exists_or_not(app, hashes):
    account(app, "ada")
    account(app, "cy")
    counts = {}
    for case, name, password in (
        ("unknown name", "nobody", "guess-1234"),
        ("wrong password", "cy", "guess-1234"),
        ("right password", "cy", PASSWORD),
    ):
        c = app.test_client()
        token = csrf(c.get("/login").text)
        del hashes[:]
        c.post("/login", data={"csrf": token, "name": name, "password": password})
        counts[case] = len(hashes)
    assert counts == {"unknown name": 1, "wrong password": 1, "right password": 1}


# -- sign-up and names
def test_first_sign_ups_at_once_make_one_admin_and_no_refusal(app, monkeypatch):
    """Six people sign up on an empty database at the same moment: one is the
    Admin, five are Creators, and nobody is shown the command line's
    "give --as ADMIN". The database's write lock is held until all six have
    looked whether an account exists (all see none), then let go."""
    looked = []
    real = accounts.has_users
    monkeypatch.setattr(accounts, "has_users", lambda reg: looked.append(1) or real(reg))
    clients = [app.test_client() for _ in range(6)]
    tokens = [csrf(c.get("/register").text) for c in clients]
    del looked[:]
    answers = [None] * len(clients)

    def sign_up(i):
        data = {"csrf": tokens[i], "name": f"u{i}", "password": PASSWORD, "password2": PASSWORD}
        answers[i] = clients[i].post("/register", data=data)

    pool = app.extensions["registry_pool"]  # open connections for all six (opening one writes)
    for _ in clients:
        pool.give_back(Registry(app.config["REGISTRY_DB"], seed=False, shared=True))
    lock = sqlite3.connect(app.config["REGISTRY_DB"], isolation_level=None)
    lock.execute("BEGIN IMMEDIATE")
    threads = [threading.Thread(target=sign_up, args=(i,)) for i in range(len(clients))]
    for t in threads:
        t.start()
    for _ in range(3000):
        if len(looked) >= len(clients):
            break
        time.sleep(0.01)
    lock.execute("ROLLBACK")
    lock.close()
    for t in threads:
        t.join()
    refused = [html.unescape(r.text) for r in answers if r.status_code != 302]
    assert refused == [], [re.findall(r'class="flash error">([^<]*)', t) for t in refused]
    with Registry(app.config["REGISTRY_DB"]) as reg:
        roles = sorted(u["role"] for u in users.list_users(reg))
    assert roles == ["admin"] + ["creator"] * 5


LOOK_ALIKES = {
    "ada\u200b": "ZERO WIDTH SPACE",
    "\u0430da": "Cyrillic",  # Cyrillic а, Latin d and a
    "a\x00da": "U+0000",
    "\u202eada": "RIGHT-TO-LEFT OVERRIDE",
    "ad\ufe0fa": "VARIATION SELECTOR",
    "ad\u3164a": "FILLER",  # a Hangul filler
}


def test_look_alike_names_are_refused_for_users_and_rule_sets(app):
    account(app, "ada")
    with Registry(app.config["REGISTRY_DB"]) as reg:
        for name, why in LOOK_ALIKES.items():
            with pytest.raises(RegistryError, match=re.escape(why)):
                users.add_user(reg, name)
            record = {"name": name + "-rules", "reserves": {"black": 5, "white": 4}, "turn_checks": []}
            with pytest.raises(RegistryError, match=re.escape(why)):
                rulesets.save_rule_set(reg, "ada", record)
        with pytest.raises(RegistryError, match="NFKC"):
            users.add_user(reg, "\uff41\uff44\uff41")  # full-width: is "ada"
        for name in ("Иван", "Ελένη", "将棋の会", "ada-2"):  # one script each: fine
            users.add_user(reg, name)
    # the web forms normalise (NFKC) before the registry sees the name
    b = Browser(app, "ada")
    r = b.post("/users", name="\uff43\uff59", password=PASSWORD, role="creator")  # full-width "cy"
    with Registry(app.config["REGISTRY_DB"]) as reg:
        assert reg.user_id("cy")
    assert login(app.test_client(), "\uff43\uff59").status_code == 302  # logs in as cy
    r = b.post("/users", name="\u0441y", password=PASSWORD, role="creator")  # Cyrillic с
    assert "mixes letters of Cyrillic and Latin" in html.unescape(b.get("/users").text)
    assert r.status_code == 302


# -- games in a friend's name
def test_a_friend_seated_in_a_game_it_never_opened_plays_no_moves_and_is_not_rated(app):
    """cy starts a 1-second-per-turn game with her friend dee seated and keeps
    reloading: dee's clock does not run until dee opens the game (no random
    moves are played in her name), then runs from that moment; a game that
    ends with a seat whose person never opened it is neither recorded nor
    rated."""
    from test_webapp import befriend, live

    account(app, "ada")
    account(app, "cy")
    account(app, "dee")
    record = {"name": "TTT-1s", "reserves": {"black": 5, "white": 4}, "seconds_per_turn": 1}
    with Registry(app.config["REGISTRY_DB"]) as reg:
        rulesets.save_rule_set(reg, "ada", record)
    cy, dee = befriend(app, "cy", "dee")
    url = cy.post("/play/new", game="TTT-1s", universe="Public", seat0="cy", seat1="dee").headers["Location"]
    cy.post(url + "/move", action="4")
    store = app.extensions["live_games"]
    game = live(app, url)
    with Registry(app.config["REGISTRY_DB"]) as reg:
        far = game.turn_started + 1000
        assert store.enforce_clock(reg, game, clock=lambda: far).moves == [4]
    assert game.seats[1].joined is None and game.deadline() is None
    for _ in range(3):  # the creator's reloads play nothing for dee
        assert "Waiting for dee…" in cy.get(url).text
    assert live(app, url).moves == [4] and cy.get(url + "/status").json["remaining"] is None
    dee.get(url)  # dee opens the game: her clock starts now
    game = live(app, url)
    joined = game.seats[1].joined
    assert joined >= game.turn_started and game.deadline() == pytest.approx(joined + 1)
    with Registry(app.config["REGISTRY_DB"]) as reg:
        assert store.enforce_clock(reg, game, clock=lambda: joined + 0.5) is game
        after = store.enforce_clock(reg, game, clock=lambda: joined + 1.5)
    assert len(after.moves) == 2 and after.timeouts == [(1, 1)]
    # a finished game with a seat nobody opened: not recorded, not rated
    with Registry(app.config["REGISTRY_DB"]) as reg:
        seats = [Seat("cy", "human", "cy", joined=1.0), Seat("dee", "human", "dee")]
        version = reg.one("SELECT fingerprint FROM rule_sets WHERE name = 'Tic-Tac-Toe'")[0]
        done = LiveGame(
            "g1", "ttt(rules=Tic-Tac-Toe)", "Tic-Tac-Toe", "Public", seats, 1, version, [0, 3, 1, 4, 2]
        )
        assert done.state.is_terminal()
        store.create(reg, done)
        assert done.recorded is None and "seat 2 (dee) never opened this game" in done.record_error
        assert results.games_of(reg, "Tic-Tac-Toe") == [] and reg.one("SELECT count(*) FROM ratings")[0] == 0


def test_an_admin_makes_an_existing_user_a_trainer_on_the_users_page(app):
    """The Users page changes an existing account's role (it only created
    accounts: "the name 'pat' is taken"); only an Admin may, and the last Admin
    keeps the role."""
    from test_webapp import make_users

    ada = make_users(app)  # ada Admin, tom Trainer, cy and dee Creators
    cy = Browser(app, "cy")
    assert cy.post("/users/role", name="dee", role="trainer").status_code == 403
    assert cy.post("/rules/Tic-Tac-Toe/standard-player", player="Random").status_code == 403
    r = ada.post("/users/role", name="cy", role="trainer")
    assert r.status_code == 302
    assert "cy was Creator and is Trainer now" in html.unescape(ada.get("/users").text)
    # the role is read on every request: cy's session may now do what a Trainer does
    assert cy.post("/rules/Tic-Tac-Toe/standard-player", player="Random").status_code == 302
    with Registry(app.config["REGISTRY_DB"]) as reg:
        assert reg.user_id("cy")[1] == "trainer"
    ada.post("/users/role", name="ada", role="creator")
    assert "ada is the last Admin" in html.unescape(ada.get("/users").text)
    with Registry(app.config["REGISTRY_DB"]) as reg:
        assert reg.user_id("ada")[1] == "admin"


def test_friends_page_sends_by_name_confirms_and_lists(app):
    from test_webapp import make_users

    make_users(app)
    cy, dee = Browser(app, "cy"), Browser(app, "dee")
    r = cy.post("/friends/request", player="dee", universe="Public", back="/friends")
    assert r.headers["Location"].endswith("/friends")
    page = html.unescape(cy.get("/friends").text)
    assert "friend request sent to dee" in page and "Sent, waiting for an answer: dee" in page
    dee.post("/friends", sender="cy", receiver="dee", accept="1")
    page = html.unescape(dee.get("/friends").text)
    assert "cy and dee are friends now" in page
    assert re.search(r'data-player="dee">.*?href="/player/cy" class="friend-link">cy<', page, re.S)
    assert 'class="friend-link">dee<' in cy.get("/friends").text
    cy.post("/friends/request", player="tom", universe="Public")
    tom = Browser(app, "tom")
    tom.post("/friends", sender="cy", receiver="tom", accept="0")
    page = html.unescape(tom.get("/friends").text)
    assert "cy's request to tom declined" in page and 'class="friend-link"' not in page
