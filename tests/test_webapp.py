"""The web app through Flask's test client: logins, CSRF, what each role may
see and change (the requests a page would not offer are sent directly), games
played to the end and recorded, the Player Factory's validation and Save."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from games.ttt import schema
from registry import Registry, open_games, results, rulesets

PASSWORD = "correct-horse"


def csrf(page: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


class Browser:
    """A test client that logs in and sends forms with the page's CSRF token."""

    def __init__(self, app, name=None, password=PASSWORD):
        self.c = app.test_client()
        self.token = csrf(self.c.get("/login").text)
        if name:
            r = self.post("/login", name=name, password=password)
            assert r.status_code == 302, r.text
            old, self.token = self.token, csrf(self.c.get("/").text)
            assert self.token != old  # a login gets a fresh token

    def get(self, url):
        return self.c.get(url)

    def post(self, url, **data):
        data.setdefault("csrf", self.token)
        return self.c.post(url, data=data)


def make_users(app):
    """ada (Admin, the first account), tom (Trainer), cy and dee (Creators)."""
    b = Browser(app)
    assert b.post("/register", name="ada", password=PASSWORD, password2=PASSWORD).status_code == 302
    b.token = csrf(b.get("/").text)  # signing up starts a fresh session
    for name, role in (("tom", "trainer"), ("cy", "creator"), ("dee", "creator")):
        r = b.post("/users", name=name, password=PASSWORD, role=role)
        assert r.status_code == 302
    return b


def db(app):
    return Registry(app.config["REGISTRY_DB"])


def live(app, url):
    """The game at ``url`` as the registry holds it now (webapp/live_store.py)."""
    with db(app) as reg:
        return app.extensions["live_games"].get(reg, url.rsplit("/", 1)[1])


def play_to_end(b: Browser, url: str) -> str:
    for _ in range(200):
        page = b.get(url).text
        actions = re.findall(r'data-action="(\d+)"', page) or re.findall(r'name="action" value="(\d+)"', page)
        if "Game over" in page:
            return page
        assert actions, page
        b.post(url + "/move", action=actions[0])
    raise AssertionError("game did not end")


def test_login_logout_and_hashed_passwords(app):
    make_users(app)
    assert Browser(app).get("/").status_code == 302  # anonymous: to login
    bad = Browser(app)
    r = bad.post("/login", name="cy", password="wrong-password")
    assert r.status_code == 200 and "wrong name or password" in r.text
    assert bad.get("/").status_code == 302
    cy = Browser(app, "cy")
    assert cy.get("/").status_code == 200
    cy.post("/logout")
    assert cy.get("/").status_code == 302
    with db(app) as reg:
        hashes = [h for (h,) in reg.query("SELECT password_hash FROM webapp_accounts")]
    assert len(hashes) == 4 and all(h.startswith("scrypt:") and PASSWORD not in h for h in hashes)


def test_every_post_needs_the_csrf_token(app):
    make_users(app)
    cy = Browser(app, "cy")
    r = cy.post("/factory", csrf="forged", op="save", name="Forged", **{"reserves.black": "5"})
    assert r.status_code == 400
    r = cy.c.post("/play/new", data={"game": "Tic-Tac-Toe", "seat0": "cy", "seat1": "Random"})
    assert r.status_code == 400
    assert Browser(app).c.post("/login", data={"name": "cy", "password": PASSWORD}).status_code == 400


def test_roles_are_enforced_on_the_server(app):
    make_users(app)
    cy, tom, ada = Browser(app, "cy"), Browser(app, "tom"), Browser(app, "ada")
    # Users page and account creation: Admins only
    assert cy.get("/users").status_code == 403
    assert cy.post("/users", name="eve", password=PASSWORD, role="admin").status_code == 403
    assert tom.get("/users").status_code == 403
    # rename: Admins only, and the name stays when refused
    with db(app) as reg:
        rulesets.save_rule_set(
            reg,
            "cy",
            {"name": "Mine", "reserves": {"black": 5, "white": 4}, "turn_checks": ["first-3-loses"]},
        )
    assert cy.post("/rules/Mine/rename", new_name="Other").status_code == 403
    assert tom.post("/rules/Mine/rename", new_name="Other").status_code == 403
    assert 'id="rename"' not in cy.get("/rules/Mine").text
    assert 'id="rename"' in ada.get("/rules/Mine").text
    assert 'href="/player/cy?tab=creations" id="show-creations"' in cy.get("/rules/Mine/leaderboard").text
    assert ada.post("/rules/Mine/rename", new_name="Renamed").status_code == 302
    with db(app) as reg:
        assert [r["name"] for r in rulesets.creations(reg, "cy")] == ["Renamed"]
    # Benchmark Selected Bots: Trainers and Admins; a Creator sees no button and is refused
    assert 'id="benchmark"' not in cy.get("/rules/Tic-Tac-Toe/leaderboard").text
    assert 'id="benchmark"' in tom.get("/rules/Tic-Tac-Toe/leaderboard").text
    r = cy.post("/rules/Tic-Tac-Toe/benchmark", players=["Random", "Random"])
    assert r.status_code == 403
    with db(app) as reg:
        assert reg.one("SELECT count(*) FROM benchmarks")[0] == 0


def test_a_game_against_a_bot_is_validated_recorded_and_rated(app):
    make_users(app)
    cy, dee = Browser(app, "cy"), Browser(app, "dee")
    r = cy.post("/play/new", game="Tic-Tac-Toe", universe="Public", seat0="cy", seat1="Random")
    url = r.headers["Location"]
    # another user can neither see nor move in it
    assert dee.get(url).status_code == 403
    assert dee.post(url + "/move", action="0").status_code == 403
    # an illegal action changes nothing
    before = cy.get(url + "/status").json
    cy.post(url + "/move", action="99")
    assert cy.get(url + "/status").json == before
    page = play_to_end(cy, url)
    gid = int(re.search(r"recorded as game (\d+)", page).group(1))
    with db(app) as reg:
        games = results.games_of(reg, "Tic-Tac-Toe")
        assert [g["id"] for g in games] == [gid] and games[0]["players"] == ["cy", "Random"]
        # the stored moves replay to the stored returns (the registry checked them too)
        rs = results.rule_set_of(reg, "Tic-Tac-Toe")
        assert results.replay(rs, games[0]["moves"]) == games[0]["returns"]
        assert reg.one("SELECT count(*) FROM ratings")[0] == 2
    # a move after the end is refused
    r = cy.c.post(
        url + "/move", data={"csrf": cy.token, "action": "0"}, headers={"Accept": "application/json"}
    )
    assert r.status_code == 409 and r.json["error"] == "the game is over"


@pytest.mark.parametrize(
    "game",
    ["y_game(board_size=5)", "flipway(board_size=5)", "caeth_y(board_size=4)", "double_o_y(board_size=5)"],
)
def test_other_games_are_recorded_and_rated_by_game_string(app, game):
    make_users(app)
    cy = Browser(app, "cy")
    # the home page's group says what happens to its games: recorded and rated
    group = re.search(
        r'<optgroup label="([^"]*)" id="group-connection">(.*?)</optgroup>', cy.get("/").text, re.S
    )
    assert group.group(1) == "Connection games with flipping (recorded and rated per game string)"
    assert f'value="{game}"' in group.group(2)
    url = cy.post("/play/new", game=game, universe="Public", seat0="cy", seat1="Random").headers["Location"]
    page = play_to_end(cy, url)
    gid = int(re.search(r"recorded as \S+ game (\d+) and rated", html.unescape(page)).group(1))
    with db(app) as reg:
        [stored] = open_games.open_games_of(reg, game)
        assert stored["id"] == gid and stored["players"] == ["cy", "Random"]
        assert open_games.replay(game, stored["moves"]) == stored["returns"]
    ratings = cy.get("/ratings?game=" + game).text
    assert 'href="/player/cy"' in ratings and 'href="/player/Random"' in ratings
    assert game in html.unescape(cy.get("/player/cy").text)
    assert game in html.unescape(cy.get("/rules").text)
    assert cy.get("/ratings?game=tic_tac_toe").status_code == 404  # none recorded
    # one record path: the game string's leaderboard is the rule sets' (Top-Burst,
    # held levels; Benchmark Selected Bots for Trainers and Admins only)
    board = html.unescape(cy.get(url_of_leaderboard(game)).text)
    assert "skill + Top-Burst" in board and "/player/cy" in board and 'id="benchmark"' not in board
    assert 'id="benchmark"' in Browser(app, "tom").get(url_of_leaderboard(game)).text
    stats = html.unescape(cy.get("/player/cy").text)  # counted once, not twice
    row = re.search(re.escape(game) + r"</a></td><td>(\d+)</td>", stats)
    assert row and row.group(1) == "1"


def url_of_leaderboard(name: str) -> str:
    from urllib.parse import quote

    return "/rules/" + quote(name, safe="") + "/leaderboard"


def test_seats_are_the_user_a_friend_or_a_bot(app):
    make_users(app)
    cy = Browser(app, "cy")
    r = cy.post("/play/new", game="Tic-Tac-Toe", universe="Public", seat0="Random", seat1="dee")
    assert r.status_code == 302 and r.headers["Location"].endswith("/?game=Tic-Tac-Toe")
    assert "one seat must be yours" in cy.get("/").text
    cy.post("/play/new", game="Tic-Tac-Toe", universe="Public", seat0="cy", seat1="dee")
    assert "cannot take a seat" in cy.get("/").text


def test_leaderboard_buttons_follow_the_specification_and_friends_can_play(app):
    make_users(app)
    cy, dee = Browser(app, "cy"), Browser(app, "dee")
    for b, me in ((cy, "cy"), (dee, "dee")):
        url = b.post("/play/new", game="Tic-Tac-Toe", universe="Public", seat0=me, seat1="Random").headers[
            "Location"
        ]
        play_to_end(b, url)
    page = cy.get("/rules/Tic-Tac-Toe/leaderboard").text
    row = lambda name: re.search(rf'<tr data-player="{name}">.*?</tr>', page, re.S).group(0)
    assert "play-new" in row("Random") and "add-friend" not in row("Random")
    assert "add-friend" in row("dee") and "play-new" not in row("dee")
    assert 'class="pick"' in row("Random") and 'class="pick"' not in row("dee")
    r = cy.post("/friends/request", player="dee", universe="Public", back="https://example.org/")
    assert r.headers["Location"] == "/"  # no redirect off the site
    assert "cy" in dee.get("/friends").text
    dee.post("/friends", sender="cy", receiver="dee", accept="1")
    page = cy.get("/rules/Tic-Tac-Toe/leaderboard").text
    assert "play-new" in row("dee") and "add-friend" not in row("dee")
    # now a person-against-person game: each moves only on its own turn
    url = cy.post("/play/new", game="Tic-Tac-Toe", universe="Public", seat0="cy", seat1="dee").headers[
        "Location"
    ]
    assert dee.get(url + "/status").json["your_turn"] is False
    cy.post(url + "/move", action="4")
    dee.post(url + "/move", action="4")  # occupied: refused
    assert dee.get(url + "/status").json["moves"] == 1
    dee.post(url + "/move", action=["", "0"])  # as a move button posts: the empty hidden field first
    assert cy.get(url + "/status").json == {
        "moves": 2,
        "over": False,
        "your_turn": True,
        "recorded": None,
        "remaining": None,
    }
    # Add Player: only players who played here
    assert "dee" in cy.get("/rules/Tic-Tac-Toe/leaderboard?add=dee").text
    assert "cannot add" in cy.get("/rules/Tic-Tac-Toe/leaderboard?add=tom").text


def test_benchmark_runs_with_progress_and_evolution_plots(app):
    make_users(app)
    tom = Browser(app, "tom")
    with db(app) as reg:
        from registry import players

        players.add_bot(reg, "mcts50", "mcts:simulations=50")
    r = tom.post("/rules/Tic-Tac-Toe/benchmark", players=["Random", "mcts50"], universe="Public")
    url = r.headers["Location"]
    import time

    for _ in range(300):
        status = tom.get(url + "/status").json
        if status["finished"]:
            break
        time.sleep(0.1)
    assert status["error"] is None and status["done"] == status["total"] == 2
    # the finished run's page shows its results: each player's games, won, drawn, lost
    page = tom.get(url).text
    rows = dict(re.findall(r'<tr data-player="([^"]+)">((?:<td>[^<]*</td>)+)</tr>', page))
    assert set(rows) == {"Random", "mcts50"}
    counts = {p: [int(c) for c in re.findall(r"<td>(\d+)</td>", cells)] for p, cells in rows.items()}
    assert all(c[0] == 2 and c[1] + c[2] + c[3] == 2 for c in counts.values())
    assert counts["Random"][1] == counts["mcts50"][3] and counts["Random"][2] == counts["mcts50"][2]
    with db(app) as reg:
        assert len(results.games_of(reg, "Tic-Tac-Toe")) == 2
    png = tom.get("/rules/Tic-Tac-Toe/evolution.png?players=Random&players=mcts50")
    assert png.status_code == 200 and png.data[:8] == b"\x89PNG\r\n\x1a\n"


def problems(page: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for key, msg in re.findall(r'<span class="problem" data-for="([^"]*)">([^<]*)</span>', page):
        out.setdefault(html.unescape(key), []).append(html.unescape(msg))
    return out


def factory_form(**over):
    form = {
        "name": "Fresh",
        "players": "2",
        "shape_count": "1",
        "colours": "assigned",
        "cloaking": "none",
        "pieces_per_turn": "1",
        "boards": "1",
        "phases": "1",
        "board.kind": "squares",
        "board.size.x": "4",
        "board.size.y": "4",
        "board.size.z": "1",
        "board.locked": "",
        "board.pieces": "",
        "turn_checks[0]": "first-3-wins",
        "stalemate": "draws",
        "move_limit": "",
        "seconds_per_turn": "",
        "shapes.circle.move": "stationary",
        "shapes.circle.power": "none",
        "reserves.black": "8",
        "reserves.white": "8",
        "phases[0].order": "sequential",
        "phases[0].movement": "allowed",
        "phases[0].pass": "0",
        "phases[0].locked": "",
        "op": "save",
    }
    form.update(over)
    return form


def test_factory_shows_each_problem_next_to_its_control(app):
    make_users(app)
    cy = Browser(app, "cy")
    cases = {
        "name": {"name": "has space"},
        "board.size.z": {"board.kind": "stacks", "board.size.z": "1"},
        "board.size": {"board.kind": "hash"},
        "move_limit": {"shapes.circle.move": "adjacent"},
        "reserves": {"reserves.black": "0", "reserves.white": "0"},
        "board.locked": {"board.locked": "9,9,1"},
        "turn_checks[1]": {"turn_checks[1]": "first-3-wins"},
    }
    for control, change in cases.items():
        page = cy.post("/factory", **factory_form(**change)).text
        assert control in problems(page), (control, problems(page))
    with db(app) as reg:
        assert rulesets.creations(reg, "cy") == []
    # a valid one saves; the same rules again under another name are a duplicate
    assert cy.post("/factory", **factory_form()).headers["Location"].endswith("/rules/Fresh")
    page = html.unescape(cy.post("/factory", **factory_form(name="Again")).text)
    assert "identical to the saved 'Fresh'" in page
    page = cy.post("/factory", **factory_form(**{"reserves.black": "7"})).text
    assert "already saved" in " ".join(problems(page).get("name", []))


def test_factory_space_markers_and_outcomes_reach_the_record(app):
    """Sticky, exclusive, entry/exit-locked (whole game and per phase) and
    cloaked markers become the schema's fields (games/ttt validation accepts
    them and the engine plays them); the saved page shows them; bad markers
    get their problem next to their control."""
    make_users(app)
    cy = Browser(app, "cy")
    form = factory_form(
        **{
            "name": "Marked",
            "players": "2-vs-chaos",
            "cloaking": "hides",
            "phases": "2",
            "reserves.black": "6",
            "reserves.white": "6",
            "reserves.pink": "4",
            "board.sticky": "1,1,1;2,1,1",
            "board.exclusive": "4,4,1@1,2;3,4,1@chaos",
            "board.entry_locked": "1,4,1@1",
            "board.exit_locked": "2,4,1@2",
            "phases[0].cloaked": "2,2,1",
            "phases[0].entry_locked": "3,3,1@chaos",
            "phases[0].fold": "none",
            "phases[1].order": "sequential",
            "phases[1].movement": "allowed",
            "phases[1].pass": "1",
            "phases[1].cloaked": "3,2,1",
            "phases[1].exit_locked": "1,1,1@2",
            "chaos_wins_if_more_than.circle": "12",
        }
    )
    r = cy.post("/factory", **form)
    assert r.status_code == 302, problems(r.text)
    with db(app) as reg:
        rec = rulesets.rule_set_json(reg, "Marked")
    assert rec["board"]["sticky"] == [[1, 1, 1], [2, 1, 1]]
    assert rec["board"]["exclusive"] == [
        {"at": [[4, 4, 1]], "players": [1, 2]},
        {"at": [[3, 4, 1]], "players": ["chaos"]},
    ]
    assert rec["board"]["entry_locked"] == [{"at": [[1, 4, 1]], "players": [1]}]
    assert rec["board"]["exit_locked"] == [{"at": [[2, 4, 1]], "players": [2]}]
    assert rec["phases"][0]["cloaked"] == [[2, 2, 1]]
    assert rec["phases"][0]["entry_locked"] == [{"at": [[3, 3, 1]], "players": ["chaos"]}]
    assert rec["phases"][1]["cloaked"] == [[3, 2, 1]] and rec["phases"][1]["pass"] is True
    assert rec["chaos_wins_if_more_than"] == {"circle": 12}
    import pyspiel

    assert pyspiel.load_game("ttt(rules=Marked)").new_initial_state().legal_actions()
    page = html.unescape(cy.get("/rules/Marked").text)
    assert "1,1,1;2,1,1" in page and "4,4,1@1,2" in page and "cloaked 2,2,1" in page
    assert "Chaos wins if total circles >" in page
    # the copy brings every marker back into the form's inputs
    copy = html.unescape(cy.get("/factory?copy=Marked").text)
    assert 'name="board.sticky" id="board-sticky" value="1,1,1;2,1,1"' in copy
    assert 'name="phases[1].exit_locked" class="phase-exit-locked" value="1,1,1@2"' in copy
    # problems next to the marker controls
    cases = [
        ("board.sticky", {"board.sticky": "9,9,1"}, "off the board"),
        ("board.exclusive", {"board.exclusive": "1,1,1@1,2"}, "exclusive to every seat"),
        ("phases[0].cloaked", {"phases[0].cloaked": "1,1,1"}, "need a cloaking type"),
        ("board.entry_locked", {"board.entry_locked": "1,1,1@7"}, "7 is not a seat"),
        ("overachievers_disqualified", {"overachievers_disqualified": "1"}, "4-player"),
        ("chaos_wins_if_more_than.circle", {"chaos_wins_if_more_than.circle": "-1"}, "not allowed"),
    ]
    for control, change, message in cases:
        found = problems(cy.post("/factory", **factory_form(**change)).text)
        assert list(found) == [control] and message in " ".join(found[control]), (control, found)


def test_factory_offers_the_arrival_captures_and_saves_them(app):
    """The conditions the specification's list "can extend to" that are
    played (Adjacent, its orthogonal reading, Approach) are dropdown values
    of the Factory, and a shape that approaches reaches the saved record."""
    make_users(app)
    cy = Browser(app, "cy")
    page = html.unescape(cy.get("/factory").text)
    for value, word in (
        ("adjacent", "Adjacent"),
        ("adjacent-orthogonal", "Adjacent (orthogonal)"),
        ("approach", "Approach"),
        ("approach-one", "Approach (adjacent piece only)"),
    ):
        assert re.search(rf'<option value="{value}"\s*>{re.escape(word)}</option>', page), value
    form = factory_form(
        name="Approaches",
        move_limit="20",
        **{
            "shapes.circle.move": "adjacent",
            "shapes.circle.power": "can-capture",
            "shapes.circle.condition": "approach",
            "shapes.circle.result": "removes",
        },
    )
    r = cy.post("/factory", **form)
    assert r.status_code == 302, problems(r.text)
    with db(app) as reg:
        rec = rulesets.rule_set_json(reg, "Approaches")
    assert rec["shapes"]["circle"]["condition"] == "approach"
    form["shapes.circle.condition"] = "approach-one"
    form["name"] = "Approaches-One"
    r = cy.post("/factory", **form)
    assert r.status_code == 302, problems(r.text)
    with db(app) as reg:
        rec = rulesets.rule_set_json(reg, "Approaches-One")
    assert rec["shapes"]["circle"]["condition"] == "approach-one"


def test_factory_power_condition_and_result_reach_the_record(app):
    """The tic-tac-toe variations specification's power, power_condition and
    power_result dropdowns: a power
    with its condition and result saves a rule set the engine plays (a cover
    on a stack); no power drops them; a missing or disallowed one is shown
    next to its control."""
    make_users(app)
    cy = Browser(app, "cy")
    stack = {
        "board.kind": "stacks",
        "board.size.x": "3",
        "board.size.y": "1",
        "board.size.z": "3",
        "reserves.black": "3",
        "reserves.white": "3",
    }
    form = factory_form(
        name="Covers",
        **stack,
        **{
            "shapes.circle.power": "can-capture",
            "shapes.circle.condition": "cover",
            "shapes.circle.result": "converts",
        },
    )
    r = cy.post("/factory", **form)
    assert r.status_code == 302, problems(r.text)
    with db(app) as reg:
        rec = rulesets.rule_set_json(reg, "Covers")
    assert rec["shapes"]["circle"] == {
        "move": "stationary",
        "power": "can-capture",
        "condition": "cover",
        "result": "converts",
    }
    import pyspiel

    state = pyspiel.load_game("ttt(rules=Covers)").new_initial_state()
    state.apply_action(state.legal_actions()[0])  # black on the first stack
    assert state.legal_actions()[0] == 0  # white may cover it
    copy = html.unescape(cy.get("/factory?copy=Covers").text)
    assert re.search(r'<option value="converts" selected>Converts captive\(s\)</option>', copy)
    # no power: condition and result are not kept
    plain = factory_form(
        name="NoPower", **{"shapes.circle.condition": "cover", "shapes.circle.result": "removes"}
    )
    assert cy.post("/factory", **plain).status_code == 302
    with db(app) as reg:
        assert rulesets.rule_set_json(reg, "NoPower")["shapes"]["circle"] == {
            "move": "stationary",
            "power": "none",
        }
    # a power without a condition; converting covers on a flat board
    found = problems(
        cy.post(
            "/factory",
            **factory_form(**{"shapes.circle.power": "must-capture", "shapes.circle.result": "removes"}),
        ).text
    )
    assert "required" in " ".join(found["shapes.circle.condition"]), found
    found = problems(
        cy.post(
            "/factory",
            **factory_form(
                **{
                    "shapes.circle.power": "can-capture",
                    "shapes.circle.condition": "cover",
                    "shapes.circle.result": "converts",
                }
            ),
        ).text
    )
    assert "stacks only" in " ".join(found["shapes.circle.result"])


def test_factory_add_delete_check_copy_and_quota(app):
    make_users(app)
    cy = Browser(app, "cy")
    page = cy.post("/factory", **factory_form(op="add_check")).text
    assert 'name="turn_checks[1]"' in page
    page = cy.post("/factory", **factory_form(op="del_check-0")).text
    assert 'name="turn_checks[0]"' not in page
    # Copy opens a prefilled unsaved factory page
    page = cy.get("/factory?copy=Connect4").text
    assert 'value="Connect4-copy"' in page and re.search(
        r'name="board.kind".*?value="stacks" selected', page, re.S
    )
    # a Creator at quota is refused Save and Copy (and sees no Copy button)
    with db(app) as reg:
        for k in range(15):
            rulesets.save_rule_set(
                reg,
                "cy",
                {
                    "name": f"Q{k}",
                    "board": {"kind": "squares", "size": [k + 4, 1, 1]},
                    "reserves": {"black": 3, "white": 3},
                },
            )
    page = cy.post("/factory", **factory_form(name="Sixteenth")).text
    assert "Creator quota" in page
    assert 'id="copy"' not in cy.get("/rules/Connect4").text
    assert cy.get("/factory?copy=Connect4").status_code == 302
    assert "has used the Creator quota" in html.unescape(cy.get("/factory").text)
    with db(app) as reg:
        assert len(rulesets.creations(reg, "cy")) == 15


def test_factory_choices_follow_the_schema(app, monkeypatch):
    make_users(app)
    cy = Browser(app, "cy")
    page = cy.get("/factory").text
    for move in schema.MOVES_NOW:
        assert f'<option value="{move}"' in page
    assert "Moves orth by stack" in page and "Moves orth by full stack" in page  # stacks moves
    assert '"queen-move"' not in page
    monkeypatch.setattr(schema, "MOVES_NOW", schema.MOVES_NOW + ("queen-move",))
    assert '<option value="queen-move"' in cy.get("/factory").text


def test_boards_are_drawn_with_clickable_legal_cells(app):
    make_users(app)
    cy = Browser(app, "cy")
    for game, cells, shape in (
        ("y_game(board_size=5)", 15, "<polygon"),
        ("Connect4", 7, 'fill="#0f2350" class="hole"'),
        ("Qubic-4", 64, "z=4"),
    ):
        url = cy.post("/play/new", game=game, universe="Public", seat0="cy", seat1="Random").headers[
            "Location"
        ]
        page = cy.get(url).text
        assert len(re.findall(r'class="cell legal"', page)) == cells and shape in page
        if game == "Connect4":  # the whole 7x6 frame, not two rows above the tallest stack
            assert page.count('class="hole"') == 42 and "max height" not in page


def test_hidden_information_shows_only_the_viewers_observation():
    """OpenSpiel's Kuhn poker (not ours): seat 0 holds the Jack, seat 1 the King;
    seat 0's page must be seat 0's observation, never the whole state."""
    import pyspiel

    from webapp import boards

    state = pyspiel.load_game("kuhn_poker").new_initial_state()
    state.apply_action(0)
    state.apply_action(2)
    for seat in (0, 1):
        drawing = boards.draw("kuhn_poker", state, seat == 0, seat)
        assert drawing.svg == "" and drawing.text == state.observation_string(seat)
    assert boards.draw("kuhn_poker", state, True, 0).text != boards.draw("kuhn_poker", state, False, 1).text


def test_simultaneous_games_other_than_rule_sets_are_refused_before_play():
    from webapp.live import LiveGame

    with pytest.raises(ValueError, match="simultaneous"):
        LiveGame.start("matrix_rps", None, "Public", [], seed=0)


EXAMPLES = Path(__file__).resolve().parents[1] / "games" / "ttt" / "examples"


def save_example(app, name: str) -> None:
    with db(app) as reg:
        rulesets.save_rule_set(reg, "ada", json.loads((EXAMPLES / f"{name}.json").read_text()))


def befriend(app, a: str, b: str) -> tuple[Browser, Browser]:
    one, two = Browser(app, a), Browser(app, b)
    one.post("/friends/request", player=b, universe="Public")
    two.post("/friends", sender=a, receiver=b, accept="1")
    return one, two


def test_simultaneous_rounds_collect_hidden_plans_then_resolve(app):
    """Sim-Place-Then-Move (games/ttt/examples): cy and dee plan each round in
    their own logins; a plan is hidden from the other until both planned, the
    round then resolves, and the finished game replays in the registry."""
    make_users(app)
    save_example(app, "Sim-Place-Then-Move")
    cy, dee = befriend(app, "cy", "dee")
    url = cy.post(
        "/play/new", game="Sim-Place-Then-Move", universe="Public", seat0="cy", seat1="dee"
    ).headers["Location"]
    rounds = 0
    while not (game := live(app, url)).state.is_terminal():
        assert game.in_round()
        pages = {b: b.get(url).text for b in (cy, dee)}
        assert all("Your plan for this simultaneous round" in p for p in pages.values())
        first = re.findall(r'data-action="(\d+)"', pages[cy]) or re.findall(
            r'name="action" value="(\d+)"', pages[cy]
        )
        before = dee.get(url).text
        cy.post(url + "/move", action=first[0])
        assert "Your plan is in (seat 1)" in cy.get(url).text
        second = cy.post(url + "/move", action=first[0])  # a second plan:
        assert second.status_code == 200 and "not your turn" in second.text  # refused
        after = dee.get(url).text  # dee's board does not change with cy's plan
        assert re.sub(r'name="csrf" value="[^"]+"', "", after) == re.sub(
            r'name="csrf" value="[^"]+"', "", before
        )
        mine = re.findall(r'data-action="(\d+)"', after) or re.findall(r'name="action" value="(\d+)"', after)
        dee.post(url + "/move", action=mine[-1])
        rounds += 1
        assert rounds < 60
    page = cy.get(url).text
    gid = int(re.search(r"recorded as game (\d+)", page).group(1))
    with db(app) as reg:
        [stored] = results.games_of(reg, "Sim-Place-Then-Move")
        assert stored["id"] == gid and stored["players"] == ["cy", "dee"]
        rs = results.rule_set_of(reg, "Sim-Place-Then-Move")
        assert results.replay(rs, stored["moves"]) == stored["returns"] == game.state.returns()


def test_simultaneous_rounds_against_random_and_bots_refused(app):
    make_users(app)
    save_example(app, "Sim-Place-Then-Move")
    with db(app) as reg:
        from registry import players

        players.add_bot(reg, "Mcts", "mcts:simulations=10")
    cy = Browser(app, "cy")
    r = cy.post("/play/new", game="Sim-Place-Then-Move", universe="Public", seat0="cy", seat1="Mcts")
    assert "played by people, Random, ISMCTS bots" in html.unescape(cy.get(r.headers["Location"]).text)
    url = cy.post(
        "/play/new", game="Sim-Place-Then-Move", universe="Public", seat0="cy", seat1="Random"
    ).headers["Location"]
    page = play_to_end(cy, url)
    assert re.search(r"recorded as game \d+ and rated", page)


def test_an_ismcts_bot_plans_simultaneous_rounds_from_its_own_information(app):
    """An ISMCTS bot (mcts/ismcts.py) plays a rule set with simultaneous rounds
    against a person to the end, recorded and replayed by the registry; and its
    plan in a round is the same whatever plan the person sent before it (the
    person's plan is hidden until the round resolves: the bot searches the
    round's start from its own information state)."""
    from registry import players
    from webapp.live import LiveGame, Seat

    make_users(app)
    save_example(app, "Sim-Place-Then-Move")
    with db(app) as reg:
        players.add_bot(reg, "Ismcts", "ismcts:simulations=30")
        spec = players.bot_spec(reg, "Ismcts")
    cy = Browser(app, "cy")
    url = cy.post(
        "/play/new", game="Sim-Place-Then-Move", universe="Public", seat0="cy", seat1="Ismcts"
    ).headers["Location"]
    page = play_to_end(cy, url)
    gid = int(re.search(r"recorded as game (\d+) and rated", page).group(1))
    with db(app) as reg:
        [stored] = [g for g in results.games_of(reg, "Sim-Place-Then-Move") if g["id"] == gid]
        assert stored["players"] == ["cy", "Ismcts"]
        rs = results.rule_set_of(reg, "Sim-Place-Then-Move")
        assert results.replay(rs, stored["moves"]) == stored["returns"]
    seats = [Seat("cy", "human", "cy"), Seat("Ismcts", "bot", None, spec)]
    bot_plans = set()
    first = LiveGame("g", "ttt(rules=Sim-Place-Then-Move)", "Sim-Place-Then-Move", "Public", seats, 11)
    assert first.in_round() and first.seat_to_move("cy") == 0
    mine = first.state.legal_actions(0)
    for plan in mine[:4]:  # four different hidden plans of the person
        game = first.successor()
        game.human_move("cy", plan)
        order = game.state.get_game().new_initial_state().core.simultaneous_player_list()
        joint = dict(zip(order, game.moves[:2], strict=True))
        assert joint[0] == plan
        bot_plans.add(joint[1])
    assert len(mine) >= 4 and len(bot_plans) == 1


def test_an_sm_mcts_bot_plans_rounds_from_its_own_statistics(app):
    """An SM-MCTS bot (mcts/smmcts.py, decoupled UCT) plays the simultaneous
    rounds of Sim-Place-Then-Move (no cloaking) against a person to the end,
    recorded; its plan is the same whatever plan the person sent first (the
    plans stay apart until the round resolves, and each seat chooses from its
    own statistics); a cloaked rule set is refused with it (ISMCTS plays there)."""
    from registry import players
    from webapp.live import LiveGame, Seat

    make_users(app)
    save_example(app, "Sim-Place-Then-Move")
    save_example(app, "Sim-Cloaked-Place-Then-Move")
    with db(app) as reg:
        players.add_bot(reg, "SmMcts", "sm_mcts:simulations=40")
        spec = players.bot_spec(reg, "SmMcts")
    cy = Browser(app, "cy")
    r = cy.post(
        "/play/new", game="Sim-Cloaked-Place-Then-Move", universe="Public", seat0="cy", seat1="SmMcts"
    )
    assert "use an ismcts bot" in html.unescape(cy.get(r.headers["Location"]).text)
    url = cy.post(
        "/play/new", game="Sim-Place-Then-Move", universe="Public", seat0="cy", seat1="SmMcts"
    ).headers["Location"]
    page = play_to_end(cy, url)
    gid = int(re.search(r"recorded as game (\d+) and rated", page).group(1))
    with db(app) as reg:
        [stored] = [g for g in results.games_of(reg, "Sim-Place-Then-Move") if g["id"] == gid]
        assert stored["players"] == ["cy", "SmMcts"]
    seats = [Seat("cy", "human", "cy"), Seat("SmMcts", "bot", None, spec)]
    first = LiveGame("g", "ttt(rules=Sim-Place-Then-Move)", "Sim-Place-Then-Move", "Public", seats, 11)
    assert first.in_round() and first.seat_to_move("cy") == 0
    order = first.state.core.simultaneous_player_list()
    mine = first.state.legal_actions(0)
    bot_plans = set()
    for plan in mine[:4]:  # four different hidden plans of the person
        game = first.successor()
        game.human_move("cy", plan)
        joint = dict(zip(order, game.moves[:2], strict=True))
        assert joint[0] == plan
        bot_plans.add(joint[1])
    assert len(mine) >= 4 and len(bot_plans) == 1


def test_cloaked_spaces_are_drawn_as_the_viewers_observation(app):
    """Phantom-TTT-Corners hides the corners: Random's pieces there are not in
    cy's drawing, which is exactly cy's own view (player_view), while the full
    position has them."""
    from webapp.game_story import seats_numbered

    make_users(app)
    save_example(app, "Phantom-TTT-Corners")
    cy = Browser(app, "cy")
    hidden_seen = False
    for _ in range(12):
        url = cy.post(
            "/play/new", game="Phantom-TTT-Corners", universe="Public", seat0="cy", seat1="Random"
        ).headers["Location"]
        while not (game := live(app, url)).state.is_terminal():
            page = cy.get(url).text
            view = game.state.core.player_view(0)
            drawn = len(re.findall(r'class="piece ', page))
            assert drawn == sum(ch not in ".#" for ch in view)
            # the observation, its players numbered as the page numbers seats ("seat 1 sees")
            assert html.escape(seats_numbered(game.state.observation_string(0))) in page
            if drawn < sum(v > 0 for v in game.state.core.cells()):
                hidden_seen = True
            actions = re.findall(r'data-action="(\d+)"', page) or re.findall(
                r'name="action" value="(\d+)"', page
            )
            cy.post(url + "/move", action=actions[0])
        if hidden_seen:
            break
    assert hidden_seen


def test_commands_refuse_bad_input_clearly(capsys):
    from experiments import bench_webapp
    from webapp import cli

    for argv in (["--port", "0"], ["--port", "70000"], ["--benchmark-games", "0"]):
        assert cli.main(argv) == 2
        assert "error: --" in capsys.readouterr().err
    for argv in (["--users", "0"], ["--games", "1000"], ["--think", "-1"]):
        with pytest.raises(SystemExit) as stop:
            bench_webapp.main(argv)
        assert stop.value.code == 2
        assert "--users must be 1..200" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        cli.main(["--help"])
    assert stop.value.code == 0 and "--db" in capsys.readouterr().out
