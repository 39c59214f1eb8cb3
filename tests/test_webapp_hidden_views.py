"""What a seat receives from the web app depends on its information state only.

For every rule set with hidden information (the catalogue's and the examples'
cloaked, hidden-turn, simultaneous and single-phase rule sets, and a rule set
with "Cloaking hides turns" made in the Player Factory), pairs of histories
that one seat cannot tell apart (the same ``information_state_string`` for
that seat, found among short random histories: hidden turns of different
counts, other seats' plans sent or not in an open round) are stored as two
games in progress, and every answer that seat can get about them must be
byte for byte the same: the game page (its board, texts and form fields, the
move counter ``at`` and ``data-moves`` among them), the status poll that
decides when the page reloads, and the answers to a refused move (page and
JSON). The only values told apart before comparing are the games' ids (in
their addresses) and the number a finished game is recorded under: each
game has its own, whatever happened in it. The CSRF token is the session's,
the same for both.
"""

from __future__ import annotations

import difflib
import random
import re
from collections import defaultdict
from pathlib import Path

import pyspiel
import pytest

import games  # noqa: F401  (registers ttt with OpenSpiel)
import tiers
from games.ttt import rules as ttt_rules
from registry import Registry, rulesets, users
from test_webapp import PASSWORD, Browser, csrf
from test_webapp_factory_copy import submitted
from webapp import create_app
from webapp.live import LiveGame, Seat

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "games" / "ttt" / "examples"
FACTORY_MADE = "KBeauty9-Factory"
VIEWER = "ada"
OTHERS = ("p2", "p3", "p4")


def _hidden(game_string: str) -> bool:
    game_type = pyspiel.load_game(game_string).get_type()
    return game_type.information != pyspiel.GameType.Information.PERFECT_INFORMATION


CATALOGUE_HIDDEN = [n for n in ttt_rules.CATALOGUE.names() if _hidden(f"ttt(rules={n})")]
EXAMPLES_HIDDEN = sorted(p.stem for p in EXAMPLES.glob("*.json") if _hidden(f"ttt(rules={p})"))
HIDDEN = CATALOGUE_HIDDEN + EXAMPLES_HIDDEN + [FACTORY_MADE]
#: Hidden-information rule sets where the web app has nothing any seat cannot
#: tell apart: the trolley dilemmas' single phases are decided by one seat each, whose
#: plan resolves its round at once and is then seen by all.
NOTHING_HIDDEN = ("3P-TrolleyDilemma", "4P-TrolleyDilemma")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """One app for the module: ada (the Admin) logged in, three more people
    to fill the other seats, the hidden examples saved and a Factory-made
    rule set with hidden turns (KBeauty9's Copy, one reserve changed)."""
    app = create_app(tmp_path_factory.mktemp("hidden") / "r.sqlite3", secret_key=b"k" * 32, testing=True)
    b = Browser(app)
    assert b.post("/register", name=VIEWER, password=PASSWORD, password2=PASSWORD).status_code == 302
    b.token = csrf(b.get("/").text)
    with Registry(app.config["REGISTRY_DB"]) as reg:
        for name in OTHERS:
            users.add_user(reg, name)
        for name in EXAMPLES_HIDDEN:
            rulesets.save_rule_set(reg, VIEWER, (EXAMPLES / f"{name}.json").read_text())
    copy = b.get("/factory?copy=KBeauty9").text
    form = submitted(copy, name=FACTORY_MADE, op="save", csrf=b.token, **{"reserves.black": "8"})
    saved = b.c.post("/factory", data=form)
    assert saved.status_code == 302, saved.text
    b.get(saved.headers["Location"])  # shows (and so clears) the "saved" message
    with Registry(app.config["REGISTRY_DB"]) as reg:
        record = rulesets.rule_set_json(reg, FACTORY_MADE)
    assert record["cloaking_hides_turns"] is True
    return app, b


def _random_history(game, rng: random.Random, plies: int):
    """A random history of at most ``plies`` decisions: (state, moves in the
    record's order, the plans sent so far in the open round, by seat)."""
    state = game.new_initial_state()
    moves: list[int] = []
    for _ in range(plies):
        if state.is_terminal():
            break
        p = state.current_player()
        if p == pyspiel.PlayerId.CHANCE:
            action = rng.choice([a for a, _ in state.chance_outcomes()])
            state.apply_action(action)
            moves.append(action)
        elif p == pyspiel.PlayerId.SIMULTANEOUS:
            order = state.core.simultaneous_player_list()
            joint = [-1] * game.num_players()
            for q in order:
                joint[q] = rng.choice(state.legal_actions(q))
            state.apply_actions(joint)
            moves.extend(joint[q] for q in order)
        else:
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            moves.append(action)
    plans = {}
    if not state.is_terminal() and state.current_player() == pyspiel.PlayerId.SIMULTANEOUS:
        deciding = [q for q in range(game.num_players()) if state.legal_actions(q)]
        rng.shuffle(deciding)
        for q in deciding[:-1]:  # one person must still plan, or the round would resolve
            if rng.random() < 0.5:
                plans[q] = rng.choice(state.legal_actions(q))
    return state, moves, plans


def indistinguishable_pairs(game, viewer: int, rng: random.Random, histories: int, plies: int):
    """Pairs of different histories with one information state for ``viewer``,
    those whose numbers of decisions differ first (hidden turns), then those
    that differ in the open round's plans."""
    groups = defaultdict(dict)
    for _ in range(histories):
        state, moves, plans = _random_history(game, rng, rng.randint(0, plies))
        if state.current_player() == pyspiel.PlayerId.CHANCE:
            continue  # the store plays chance at once: not a position a page shows
        key = (state.information_state_string(viewer), plans.get(viewer))  # its own plan it knows
        groups[key][(tuple(moves), tuple(sorted(plans.items())))] = (moves, plans)
    pairs = []
    for variants in groups.values():
        found = list(variants.values())
        for i in range(len(found) - 1):
            pairs.append((found[i], found[i + 1]))
    pairs.sort(key=lambda pair: (len(pair[0][0]) == len(pair[1][0]), pair[0][1] == pair[1][1]))
    return pairs


def _store(app, rule_set: str, viewer: int, moves, plans) -> str:
    """The history as a game in progress of the viewer (ada) and the others; its id."""
    with Registry(app.config["REGISTRY_DB"]) as reg:
        version = reg.one("SELECT fingerprint FROM rule_sets WHERE name = ?", (rule_set,))[0]
        game = pyspiel.load_game(f"ttt(rules={rule_set})")
        names = list(OTHERS)
        seats = [
            Seat(VIEWER, "human", VIEWER) if s == viewer else Seat(n := names.pop(0), "human", n)
            for s in range(game.num_players())
        ]
        live = LiveGame.start(f"ttt(rules={rule_set})", rule_set, "Public", seats, 7, version)
        live = LiveGame(
            live.id, live.game_string, rule_set, "Public", seats, 7, version, moves=moves, plans=plans
        )
        app.extensions["live_games"].create(reg, live)
    return live.id


def answers(b: Browser, gid: str) -> dict[str, str]:
    """Every answer the viewer can get about game ``gid``, its id and record
    number replaced by placeholders."""
    url = f"/game/{gid}"
    page = b.get(url).text
    at = re.search(r'name="at" value="([^"]*)"', page).group(1)
    out = {
        "page": page,
        "status": b.get(url + "/status").text,
        # a replay is asked for by the position's number of decisions, which a
        # seat does not know with hidden turns: the page now, whatever is asked
        "replay": b.get(url + "?ply=1").text,
        "refused move": b.post(url + "/move", action="-1", at=at).text,
        "refused move (JSON)": b.c.post(
            url + "/move",
            data={"csrf": b.token, "action": "-1", "at": at},
            headers={"Accept": "application/json"},
        ).text,
        "stale form": b.post(url + "/move", action="-1", at=at + "x").text,
    }
    for key, text in out.items():
        # a finished game shows its whole board (nothing is hidden any more):
        # only that block may tell the histories apart
        text = re.sub(r'<div id="revealed">.*?</svg></div></div>', "REVEALED", text, flags=re.S)
        text = re.sub(r"recorded as (\S+ )?game \d+", "recorded as game N", text.replace(gid, "GID"))
        out[key] = re.sub(r'"recorded":\d+', '"recorded":N', text)
    return out


def _diff(a: str, b: str) -> str:
    return "\n".join(list(difflib.unified_diff(a.splitlines(), b.splitlines(), lineterm=""))[:40])


def viewers(players: int) -> list[int]:
    """The seats whose view is compared, the second first (the seat that
    watches KBeauty9's first stack grow): every seat in the full tier, the
    first seat with histories it cannot tell apart by default."""
    return [min(1, players - 1)] + [s for s in range(players) if s != min(1, players - 1)]


@pytest.mark.parametrize("name", [n for n in HIDDEN if n not in NOTHING_HIDDEN])
def test_a_seat_receives_the_same_answers_for_histories_it_cannot_tell_apart(site, name):
    app, b = site
    game = pyspiel.load_game(f"ttt(rules={name})")
    rng = random.Random(name)
    checked = 0
    for viewer in viewers(game.num_players()):
        pairs = indistinguishable_pairs(
            game, viewer, rng, histories=tiers.sweep(full=600, quick=150), plies=14
        )
        for first, second in pairs[: tiers.sweep(full=4, quick=1)]:
            one = answers(b, _store(app, name, viewer, *first))
            two = answers(b, _store(app, name, viewer, *second))
            for route in one:
                assert one[route] == two[route], (
                    f"{name}, seat {viewer + 1}: {route} differs between the histories "
                    f"{first} and {second}:\n{_diff(one[route], two[route])}"
                )
            checked += 1
        if checked and not tiers.FULL:
            break
    assert checked, f"{name}: no two histories one seat cannot tell apart were found"


@pytest.mark.parametrize("name", NOTHING_HIDDEN)
def test_rule_sets_without_histories_a_seat_cannot_tell_apart(name):
    """Nothing to compare for these: every seat tells every two histories
    apart (if the engine ever hides something here, they join the test above)."""
    game = pyspiel.load_game(f"ttt(rules={name})")
    rng = random.Random(name)
    for viewer in range(game.num_players()):
        assert (
            indistinguishable_pairs(game, viewer, rng, histories=tiers.sweep(full=600, quick=150), plies=14)
            == []
        )


def test_a_waiting_seat_sees_nothing_of_hidden_turns_as_they_are_taken(site):
    """KBeauty9 with 300 seconds per turn, two people: p2 (black, seat 1)
    stacks four hidden circles one by one while ada (seat 2) waits. ada's
    status poll (which reloads her page when it changes) and her page stay
    byte for byte what they were, and she is shown no clock for black's turn
    (it restarts at each hidden turn); black's pass is the first change she
    sees, and her own turn then has its clock."""
    app, b = site
    record = ttt_rules.resolve("KBeauty9").to_json()
    record.update(name="KBeauty9-300s", seconds_per_turn=300)
    with Registry(app.config["REGISTRY_DB"]) as reg:
        rulesets.save_rule_set(reg, VIEWER, record)
    gid = _store(app, "KBeauty9-300s", 1, [], {})
    url = f"/game/{gid}"
    store = app.extensions["live_games"]
    before = answers(b, gid)
    assert '"remaining":null' in before["status"] and 'id="clock"' not in before["page"]
    with Registry(app.config["REGISTRY_DB"]) as reg:
        for _ in range(4):
            game = store.move(reg, gid, "p2", 0)  # black@stack(1,1), hidden from ada
            assert store.get(reg, gid).seconds_per_turn == 300 and game.deadline() is not None
            assert answers(b, gid) == before
        store.move(reg, gid, "p2", 4)  # pass: the phase ends, ada's turn
    status = b.get(url + "/status").json
    assert status["your_turn"] is True and status["moves"] != before["status"]
    assert 0 < status["remaining"] <= 300 and 'id="clock"' in b.get(url).text
