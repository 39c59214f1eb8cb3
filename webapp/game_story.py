"""What the game page says about a game in words: who the viewer is, whom it
waits for, how the game ended, and the moves so far with a replay of them.

Why apart from the views: these are read from the game and the viewing
seats only, so the same answers serve the page, its replay and the tests;
and everything here that names a move is given only for games with perfect
information (with hidden information the page shows the seat's own view,
``boards.draw``, and names no move of another seat).
"""

from __future__ import annotations

import functools
import re

import pyspiel

from games.openspiel import core_of
from webapp.boards import flipway_point
from webapp.live import LiveGame, load_game

# Y-family boards, Flipway and Caeth Y: the first seat plays black stones
STONE_SIDES = ("Black", "White")
STONE_GAMES = ("y_game", "defector_y", "double_o_y", "caeth_y", "flipway")
MARK_SIDES = {"connect_four": ("x", "o"), "tic_tac_toe": ("x", "o")}
# why a game of the Y family ended, when it ended with a winner
WIN_REASON = {
    "y_game": "Y connected",
    "defector_y": "Y connected",
    "double_o_y": "Y connected",
    "flipway": "edges joined",
}
Y_GAMES = ("y_game", "defector_y", "double_o_y")  # a group touching all three sides wins
# a tic-tac-toe rule set's end (core.ending()) in words
TTT_ENDING = {
    "turn check": "",
    "stalemate": "stalemate",
    "agreed draw": "draw agreed",
    "move limit": "move limit reached",
}
_CELL_NAME = re.compile(r"(?:stack)?\([\d,]+\)|\b[a-z]\d+\b")


def sides(game: LiveGame) -> list[str | None]:
    """The side each seat plays ("Black", "White", "x"), or None where the
    game gives seats no fixed side (a rule set whose players choose colours)."""
    if game.game_string.startswith("ttt(") and not game.version:  # a name may be given to other rules
        return list(_sides.__wrapped__(game.game_string, game.version, len(game.seats)))
    return list(_sides(game.game_string, game.version, len(game.seats)))


@functools.lru_cache(maxsize=256)
def _sides(game_string: str, version: str, n: int) -> tuple[str | None, ...]:
    """``sides`` once per game string and version (a page asks for every seat's)."""
    return tuple(_sides_of(load_game(game_string, version), game_string, n))


def _sides_of(game, game_string: str, n: int) -> list[str | None]:
    base = game_string.split("(")[0]
    if base in STONE_GAMES and n == 2:
        return list(STONE_SIDES)
    if base in MARK_SIDES and n == 2:
        return list(MARK_SIDES[base])
    if base == "ttt":
        state = game.new_initial_state()
        every_colour = list(core_of(state).reserves())
        colours = every_colour
        if len(colours) == n + 1 and _plays_chaos(game):
            colours = colours[:n]  # Chaos's colour comes after the seats' (StagHunt's pink)
        while state.is_chance_node():  # a deal first (Dealt-Cover-Duel): the first seat's decision after it
            state.apply_action(state.chance_outcomes()[0][0])
        p = state.current_player()
        deciding = [p] if 0 <= p < n else list(range(n)) if p == pyspiel.PlayerId.SIMULTANEOUS else []

        def placed(q: int) -> set[str]:
            """The colours seat ``q``'s first decision may place ("black@..."); a
            pass, a draw offer or a move places none."""
            words = (state.action_to_string(q, a) for a in state.legal_actions(q))
            return {w.split("@")[0] for w in words if w.split("@")[0] in every_colour}

        # each seat places its own colour (reserves in seat order), unless a
        # first decision may place another one (colours chosen by the players)
        if len(colours) == n and deciding and all(placed(q) <= {colours[q]} for q in deciding):
            return [c.capitalize() for c in colours]
    return [None] * n


def _plays_chaos(game) -> bool:
    """Whether Chaos plays ``game`` (a tic-tac-toe rule set's "2-vs-chaos"):
    Chaos has a colour but no seat."""
    try:
        return bool(game.rule_set.chaos)
    except (AttributeError, ValueError, KeyError):
        return False


def seat_words(game: LiveGame, seat: int) -> str:
    """A seat as the page names it: "Black (seat 1)" or "seat 1"."""
    side = sides(game)[seat]
    return f"{side} (seat {seat + 1})" if side else f"seat {seat + 1}"


def turn_words(game: LiveGame, seat: int) -> str:
    """A seat in the turn line: "Black, seat 1" or "seat 1"."""
    side = sides(game)[seat]
    return f"{side}, seat {seat + 1}" if side else f"seat {seat + 1}"


def identity(game: LiveGame, seats: list[int]) -> str:
    """ "You are Black (seat 1)"; a person in several seats is told them all."""
    return "You are " + " and ".join(seat_words(game, s) for s in seats)


def names(game: LiveGame, seats: list[int]) -> str:
    """The players of ``seats`` by name: "dana", "dana and Random"."""
    who = [game.seats[s].player for s in seats if 0 <= s < len(game.seats)]
    return ", ".join(who[:-1]) + (" and " if len(who) > 1 else "") + who[-1] if who else ""


def result(game: LiveGame, seats: list[int]) -> str:
    """How the game ended, for a person holding ``seats``: "You won: Y
    connected", "You lost: dana won", "Draw", or with more players who won;
    a game a person ended says so ("You won: dana resigned", "Abandoned")."""
    if game.ended == "abandoned":
        return "Abandoned"
    returns = game.returns()
    resigned = game.resigned_seat()
    reason = f"{names(game, [resigned])} resigned" if resigned is not None else _reason(game, returns)
    best = max(returns)
    if all(r == best for r in returns):
        return "Draw" + (f": {reason}" if reason else "")
    winners = [p for p, r in enumerate(returns) if r == best]
    others = [p for p in winners if p not in seats]
    if any(p in seats for p in winners):
        words = "You won" + (f" with {names(game, others)}" if others else "")
    elif seats:
        words = f"You lost: {names(game, winners)} won"
    else:
        words = f"{names(game, winners)} won"
    return words + (f": {reason}" if reason else "")


def _reason(game: LiveGame, returns) -> str:
    base = game.game_string.split("(")[0]
    if base == "ttt":
        try:
            ending = core_of(game.state).ending()
        except (ValueError, AttributeError):
            return ""
        if ending == "turn check" and len(set(returns)) > 1:
            from games.ttt import rules as ttt_rules

            checks = ttt_rules.resolve(game.rules_key).record.get("turn_checks", [])
            found = [m for m in map(_FIRST_WINS.match, checks) if m]
            return f"{found[0].group(1)} in a row" if found else ""
        return TTT_ENDING.get(ending, "")
    if len(set(returns)) > 1:
        return WIN_REASON.get(base, "")
    return ""


def move_names(game: LiveGame) -> list[str]:
    """Every decision so far in words ("Black: d1", "Chaos: ..."), for a game
    with perfect information only (otherwise [], since another seat's moves
    are not named on the page)."""
    if not game.perfect:
        return []
    sides_of = sides(game)
    state = game.game.new_initial_state()
    out = []
    for action in game.moves:
        p = state.current_player()
        who = "Chaos" if p == pyspiel.PlayerId.CHANCE else sides_of[p] or game.seats[p].player
        out.append(f"{who}: {state.action_to_string(p, action)}")
        state.apply_action(action)
    return out


def position_after(game: LiveGame, ply: int):
    """The state after the first ``ply`` decisions (a replay; perfect
    information only: a replay of hidden moves would show them)."""
    if not game.perfect:
        raise ValueError("a game with hidden information is not replayed move by move")
    state = game.game.new_initial_state()
    for action in game.moves[:ply]:
        state.apply_action(action)
    return state


def cell_of(move: str | None) -> str | None:
    """The board cell a move's name ends on ("Black: black@(2,1,1)" ->
    "(2,1,1)", "White: flip a3" -> "a3"), as the drawing names its cells."""
    if not move:
        return None
    found = _CELL_NAME.findall(move.split(": ", 1)[-1])
    return found[-1] if found else None


_SEAT = re.compile(r"\bplayer (\d+)\b")
_LINE = re.compile(r"^(\d+)\. (.*)$")


def seats_numbered(text: str) -> str:
    """The core's texts number players from 0 ("player 0 sees"); the page
    numbers seats from 1 ("seat 1")."""
    return _SEAT.sub(lambda m: f"seat {int(m.group(1)) + 1}", text)


def seen_moves(game: LiveGame, seat: int) -> list[str]:
    """The moves as ``seat`` saw them, for a game with hidden information:
    the numbered lines of its information state string (its own moves in
    full, the others' as much as it saw: "seat 2: placed white on a space
    hidden from seat 1"), so the list follows from its information state
    only. [] for a game whose information state has no such lines."""
    if game.perfect or not game.game.get_type().provides_information_state_string:
        return []
    lines = game.state.information_state_string(seat).splitlines()
    return [seats_numbered(m.group(2)) for m in map(_LINE.match, lines) if m]


def hidden_hit(game: LiveGame, seat: int) -> str | None:
    """When ``seat``'s last move only revealed a hidden piece (an attempt of a
    cloaked rule set), the page says so; read from the seat's own
    information state, where the attempt is written ("attempted
    white@(3,5,1) circle, which only revealed what is there")."""
    own = [line for line in seen_moves(game, seat) if line.startswith(f"seat {seat + 1}: ")]
    if not own:
        return None
    m = re.match(r"seat \d+: attempted (.+?), which only revealed", own[-1])
    if not m:
        return None
    return f"Your move {m.group(1)} found a hidden piece there: it is now shown, and your turn was over"


_FIRST_WINS = re.compile(r"^first-(\d+)-wins(-no-diagonal)?$")
LINE_KINDS = ("squares", "hash", "vertices", "stacks")  # boards whose lines are straight in (x, y, z)
# and the planes whose lines wrap (the toroid) or run along three directions (hexagons:
# x, y and (1, -1), the engine's axes there; docs/rules/ttt/boards.md)
# and Tetrakis squares, whose lines cross triangles (schema.TETRAKIS_LINES)
PLANE_LINE_KINDS = ("toroid", "hexagons", "tetrakis")


def winning_cells(game: LiveGame) -> list[str]:
    """The cells that won a finished game with one winner, as the drawing
    names them: a Y-family game's group touching all three sides (Y, Defector
    Y, 00'Y), Flipway's chain joining the winner's edges, or a tic-tac-toe rule
    set's line of N ("first-N-wins"): straight on boxes, wrapping on a toroid,
    along hexagons' three axes, across Tetrakis squares' triangles. []
    otherwise (hidden information, a draw, several winners, other games)."""
    if not game.perfect or not game.state.is_terminal():
        return []
    returns = game.state.returns()
    winners = [p for p, r in enumerate(returns) if r == max(returns)]
    if len(winners) != 1 or len(set(returns)) == 1:
        return []
    base = game.game_string.split("(")[0]
    if base in Y_GAMES:
        return _y_group(core_of(game.state), winners[0] + 1)
    if base == "flipway":
        return _flipway_chain(core_of(game.state))
    if base == "ttt":
        return _ttt_line(game, core_of(game.state), winners[0])
    return []  # other games (OpenSpiel's own have no core to read)


def _flipway_chain(core) -> list[str]:
    """Flipway's winning chain: the winner's orthogonally connected stones
    joining its two edges (Black: top and bottom rows; White: the left and
    right columns), named as the drawing names its points ("a3")."""
    colours = core.cell_colours()
    n = round(len(colours) ** 0.5)
    colour = core.winner_colour() + 1
    ends = (
        ({i for i in range(n)}, {i for i in range(n * (n - 1), n * n)})
        if colour == 1
        else ({i * n for i in range(n)}, {i * n + n - 1 for i in range(n)})
    )
    won, seen = [], set()
    for start in range(len(colours)):
        if colours[start] != colour or start in seen:
            continue
        group, todo = {start}, [start]
        while todo:
            i = todo.pop()
            steps = [i - n, i + n] + ([i - 1] if i % n else []) + ([i + 1] if i % n < n - 1 else [])
            for j in steps:
                if 0 <= j < len(colours) and colours[j] == colour and j not in group:
                    group.add(j)
                    todo.append(j)
        seen |= group
        if group & ends[0] and group & ends[1]:
            won += group
    return sorted(flipway_point(i, n) for i in won)


def _y_group(core, colour: int) -> list[str]:
    board, colours = core.board, core.cell_colours()
    seen: set[int] = set()
    for start in range(len(colours)):
        if colours[start] != colour or start in seen:
            continue
        group, todo = {start}, [start]
        while todo:
            for n in board.neighbours(todo.pop()):
                if colours[n] == colour and n not in group:
                    group.add(n)
                    todo.append(n)
        seen |= group
        if {side for c in group for side in board.sides_of(c)} >= {0, 1, 2}:
            return sorted(board.names[c] for c in group)
    return []


@functools.lru_cache(maxsize=256)
def _line_rule(rules_key: str, version: str) -> tuple[int, bool, str] | None:
    """(N, straight lines only, board kind) of a rule set's "first-N-wins" turn
    check on a board kind of ``LINE_KINDS`` or ``PLANE_LINE_KINDS``, else None;
    kept per rule set and version (resolving a rule set took about 1 ms a page)."""
    from games.ttt import rules as ttt_rules

    record = ttt_rules.resolve(rules_key).record
    checks = [m for m in map(_FIRST_WINS.match, record.get("turn_checks", [])) if m]
    kind = record["board"]["kind"]
    if not checks or kind not in LINE_KINDS + PLANE_LINE_KINDS:
        return None
    return int(checks[0].group(1)), bool(checks[0].group(2)), kind


def _ttt_line(game: LiveGame, core, winner: int) -> list[str]:
    rule = (_line_rule if game.version else _line_rule.__wrapped__)(game.rules_key, game.version)
    side = sides(game)[winner]
    if rule is None or side is None:
        return []
    n, straight_only, kind = rule
    colour = list(core.reserves()).index(side.lower()) + 1
    at = {tuple(core.coords(c)): v for c, v in enumerate(core.cells())}
    X, Y = (max(c[i] for c in at) for i in range(2))
    steps = [
        (dx, dy, dz)
        for dx in (-1, 0, 1)
        for dy in (-1, 0, 1)
        for dz in (-1, 0, 1)
        if (dx, dy, dz) > (0, 0, 0) and not (straight_only and abs(dx) + abs(dy) + abs(dz) > 1)
    ]
    if kind == "hexagons":
        steps = [(1, 0, 0), (0, 1, 0), (1, -1, 0)]
    if kind == "tetrakis":
        from games.ttt.schema import TETRAKIS_LINES

        steps = list(TETRAKIS_LINES)

    def step(cell, d):
        if kind == "tetrakis":  # along line d, triangle z goes to (z', the square's step)
            to = TETRAKIS_LINES[d].get(cell[2])
            return None if to is None else (cell[0] + to[1], cell[1] + to[2], to[0])
        nxt = tuple(a + b for a, b in zip(cell, d, strict=True))
        if kind == "toroid":  # lines wrap around both edges
            nxt = ((nxt[0] - 1) % X + 1, (nxt[1] - 1) % Y + 1, nxt[2])
        return nxt

    won: set[tuple] = set()
    for cell, v in at.items():
        if v != colour:
            continue
        for d in steps:
            run = [cell]  # from any cell of a run: a run found from its middle is part of one found whole
            while at.get(nxt := step(run[-1], d)) == colour and nxt not in run:
                run.append(nxt)
            if len(run) >= n:
                won.update(run)
    return sorted("(" + ",".join(str(v) for v in c) + ")" for c in won)
