"""The Player Factory in a real browser: every kind of validation message of
games.ttt that the page's controls can reach stands next to its control (the
browser fixtures are tests/test_webapp_browser.py's)."""

from __future__ import annotations

from test_webapp_browser import (  # noqa: F401  (accounts, browser, server: the fixtures)
    BROWSER_TESTS,
    SPACE,
    accounts,
    browser,
    follow,
    login,
    server,
    shot,
)

pytestmark = BROWSER_TESTS

# Each case: the control the problem must stand next to, words of games.ttt's
# message, and the page actions that provoke it from a fresh Factory page (a
# 3x3 hash board, two players). Kinds the controls cannot reach are listed in
# docs/webapp.md: type errors and unknown fields of hand-written JSON, values a
# dropdown never offers (later shapes, powers, turn checks, stalemates; colours
# out of play; counts over the offered maximum), sizes and kinds the redraw
# rules correct before saving, and the duplicate spaces a toggle cannot make.
FACTORY_CASES = [
    ("name", "characters", [("fill", "#name", "n" * 65)]),
    ("colours", "needs players 'partners'", [("redraw", "#colours", "partners-share")]),
    (
        "shapes.circle.move",
        "flat board",
        [
            ("redraw", "#board-kind", "squares"),
            ("redraw", "#board-size-z", "2"),
            ("select", "#shapes-circle-move", "adjacent-alquerque"),
            ("fill", "#move_limit", "20"),
        ],
    ),
    (
        "board.pieces",
        "is locked or already holds a piece",
        [
            ("click", "#marker-locked"),
            ("click", SPACE.format("1,1,1")),
            ("click", "#marker-piece-black-circle"),
            ("click", SPACE.format("1,1,1")),
        ],
    ),
    (
        "board.pieces",
        "floats",
        [
            ("redraw", "#board-kind", "stacks"),
            ("click", "#marker-piece-black-circle"),
            ("click", SPACE.format("1,1,2")),
        ],
    ),
    (
        "board.pieces",
        "already satisfies turn check",
        [("click", "#marker-piece-black-circle")] + [("click", SPACE.format(f"{x},1,1")) for x in (1, 2, 3)],
    ),
    (
        "reserves",
        "every count is 0",
        [("select", "#reserves-black", "0"), ("select", "#reserves-white", "0")],
    ),
    ("agree_draw", "needs another player", [("redraw", "#players", "1-vs-chaos"), ("check", "#agree_draw")]),
    ("turn_checks[1]", "listed twice", [("submit", "#add-check")]),
    (
        "boards",
        "spaces together",
        [
            ("redraw", "#board-kind", "squares"),
            ("redraw", "#board-size-x", "19"),
            ("redraw", "#board-size-y", "19"),
            ("select", "#boards", "2"),
        ],
    ),
    ("move_limit", "required when pieces can move", [("select", "#shapes-circle-move", "adjacent")]),
    ("move_limit", "is not allowed", [("fill", "#move_limit", "0")]),
    ("seconds_per_turn", "is not allowed", [("fill", "#seconds_per_turn", "0")]),
    (
        "phases[0].locked",
        "locked for the whole game already",
        [
            ("click", "#marker-locked"),
            ("click", SPACE.format("2,2,1")),
            ("click", "#marker-phase-locked"),
            ("click", SPACE.format("2,2,1")),
        ],
    ),
    (
        "phases[0].cloaked",
        "need a cloaking type",
        [("click", "#marker-phase-cloaked"), ("click", SPACE.format("2,2,1"))],
    ),
    (
        "phases[0].locked_players",
        "every seat is locked",
        [
            ("check", ".phase[data-phase='0'] .phase-lock input >> nth=0"),
            ("check", ".phase[data-phase='0'] .phase-lock input >> nth=1"),
        ],
    ),
    (
        "round_plies",
        "is not built with cloaked spaces",
        [
            ("redraw", "#cloaking", "hides"),
            ("select", "#pieces_per_turn", "2"),
            ("select", "#phases-0-order", "simultaneous"),
            ("click", "#marker-phase-cloaked"),
            ("click", SPACE.format("2,2,1")),
        ],
    ),
    (
        "stalemate",
        "compares each player with Chaos",
        [("select", "#stalemate", "more-pieces-than-chaos-wins")],
    ),
    ("chaos_wins_if_more_than.circle", "is not allowed", [("fill", "#chaos_wins-circle", "-1")]),
    ("overachievers_disqualified", "4-player games", [("check", "#overachievers_disqualified")]),
    # (several boards with the dilemmas' outcomes or with simultaneous phases,
    # and overachievers or cloaked spaces with such phases, are rule sets the
    # engine plays, so nothing here refuses them)
    (
        "board.sticky",
        "locked for the whole game already",
        [
            ("click", "#marker-locked"),
            ("click", SPACE.format("3,3,1")),
            ("click", "#marker-sticky"),
            ("click", SPACE.format("3,3,1")),
        ],
    ),
    (
        "board.exclusive",
        "exclusive to every seat",
        [
            ("click", "#marker-exclusive"),
            ("select", "#marker-seat", "1"),
            ("click", SPACE.format("1,2,1")),
            ("select", "#marker-seat", "2"),
            ("click", SPACE.format("1,2,1")),
        ],
    ),
    (
        "board.entry_locked",
        "is not a seat of players='2'",
        [
            ("redraw", "#players", "3"),
            ("select", "#marker-seat", "3"),
            ("click", "#marker-entry-locked"),
            ("click", SPACE.format("2,1,1")),
            ("redraw", "#players", "2"),
        ],
    ),
    (
        "board.exit_locked",
        "locked for the whole game already",
        [
            ("click", "#marker-locked"),
            ("click", SPACE.format("1,3,1")),
            ("click", "#marker-exit-locked"),
            ("click", SPACE.format("1,3,1")),
        ],
    ),
    (
        "phases[0].entry_locked",
        "locked for the whole game already",
        [
            ("click", "#marker-locked"),
            ("click", SPACE.format("3,1,1")),
            ("click", "#marker-phase-entry-locked"),
            ("click", SPACE.format("3,1,1")),
        ],
    ),
]


def test_every_reachable_validation_message_next_to_its_control(browser, server, accounts):  # noqa: F811
    page = login(browser, server, "cy")
    for control, words, steps in FACTORY_CASES:
        page.goto(server + "/factory")
        page.fill("#name", "Case")  # some checks run only when every field is valid
        for kind, target, *value in steps:
            if kind == "redraw":
                with page.expect_navigation():
                    page.select_option(target, value[0])
            elif kind == "submit":
                follow(page, target)
            elif kind == "select":
                page.select_option(target, value[0])
            elif kind == "fill":
                page.fill(target, value[0])
            elif kind == "check":
                page.check(target)
            else:
                page.click(target)
        follow(page, "#save")
        shown = page.eval_on_selector_all(
            f".problem[data-for='{control}']", "ps => ps.map(p => p.textContent)"
        )
        assert any(words in text for text in shown), (
            control,
            words,
            shown,
            page.eval_on_selector_all(".problem", "ps => ps.map(p => p.dataset.for + ': ' + p.textContent)"),
        )
    shot(page, "factory-marker-problems")
    page.close()
