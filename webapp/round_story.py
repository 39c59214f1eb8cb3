"""What the game page says about simultaneous rounds (a tic-tac-toe rule set's
``simultaneous`` and ``single`` phases): what each player played in a round
and what happened (collisions, captures, conversions), what the shapes stand
for and what each choice means where the rule set's notes say so.

Why apart from game_story: a round is told from one seat's information state
only, which takes its own reading. Without cloaking a round's plans are public
once it resolves (the information state's ``history:`` line names them, and
``?`` for a plan still hidden), so the plans are read from that line and what
happened from the seat's own views before and after the round. With cloaking
the round is the seat's own numbered lines of its information state (its
plan in full, the others' as much as it saw, and how the round changed what
it sees), and nothing else: two histories the seat cannot tell apart give the
same words.

Meanings are data of the rule set, in its notes (which its fingerprint leaves
out, so adding them changes no rules): a sentence "Shape meanings: circle is
paper, pentagon is rock, x is scissors." and, last in the notes, "Choice
meanings: stack(1,1), stack(2,1): the hare ...; stack(3,1), stack(4,1): the
stag ...".
"""

from __future__ import annotations

import collections
import functools
import re

import pyspiel

from games.openspiel import core_of
from webapp import boards, game_story
from webapp.live import LiveGame

_SHAPE_MEANINGS = re.compile(r"Shape meanings: (.*?)\.(?:\s|$)")
_CHOICE_MEANINGS = re.compile(r"Choice meanings: (.*?)\.?\s*$", re.S)
_TARGET = r"(?:stack)?\([\d,]+\)"
_PLACE = re.compile(rf"^(\w+)@({_TARGET})(?: (\w+))?$")
_MOVE = re.compile(rf"^({_TARGET})(?:@\d+)?->({_TARGET})")
_TOKEN = re.compile(r"(\d+):(.*?)(?= \d+:|$)")
_CHANGED = "; the round changed what it sees: "
_PHASE = re.compile(r" \[phase (\d+)\]$")


@functools.lru_cache(maxsize=256)
def _rules(rules_key: str, version: str):
    from games.ttt import rules as ttt_rules

    return ttt_rules.resolve(rules_key)


def _rule_set(game: LiveGame):
    """The game's resolved rule set, or None for a game that is not one."""
    if not game.game_string.startswith("ttt(") or not game.rules_key:
        return None
    return (_rules if game.version else _rules.__wrapped__)(game.rules_key, game.version)


def parse_shape_meanings(notes: str) -> dict[str, str]:
    """{shape: meaning} from a "Shape meanings: circle is paper, x is
    scissors." sentence of a rule set's notes ({} without one)."""
    found = _SHAPE_MEANINGS.search(" ".join(notes.split()))
    if not found:
        return {}
    out = {}
    for item in found.group(1).split(", "):
        shape, sep, meaning = item.partition(" is ")
        if sep and shape.strip() and meaning.strip():
            out[shape.strip().lower()] = meaning.strip()
    return out


def parse_choice_meanings(notes: str) -> dict[str, str]:
    """{target: meaning} from the "Choice meanings: TARGET, TARGET: words;
    ..." block that ends a rule set's notes ({} without one)."""
    found = _CHOICE_MEANINGS.search(" ".join(notes.split()))
    if not found:
        return {}
    out = {}
    for item in found.group(1).split("; "):
        targets, sep, meaning = item.partition(": ")
        if not sep:
            continue
        for target in re.findall(_TARGET, targets):
            out[target] = meaning.strip()
    return out


def shape_meanings(game: LiveGame) -> dict[str, str]:
    rule_set = _rule_set(game)
    return parse_shape_meanings(rule_set.notes) if rule_set is not None else {}


def choices(game: LiveGame, seat: int) -> list[tuple[str, str]]:
    """What each of ``seat``'s legal moves now means, as the rule set's notes
    say: [(the move's name, its meaning)] for those whose target the notes
    explain; [] otherwise (the moves are named only when the notes explain
    some: a 19x19 board has 361 of them)."""
    rule_set = _rule_set(game)
    meanings = parse_choice_meanings(rule_set.notes) if rule_set is not None else {}
    if not meanings:
        return []
    out = []
    for action in game.state.legal_actions(seat):
        name = game.state.action_to_string(seat, action)
        m = _PLACE.match(name) or _MOVE.match(name)
        if m and m.group(2) in meanings:
            out.append((name, meanings[m.group(2)]))
    return out


def with_meaning(name: str, meanings: dict[str, str]) -> str:
    """A move's name with its shape's meaning: "white@stack(1,1) x (scissors)"."""
    shape = name.rsplit(" ", 1)[-1].lower() if " " in name else None
    return f"{name} ({meanings[shape]})" if shape in meanings else name


# -- the rounds of a rule set without cloaking ------------------------------------------
def rounds(game: LiveGame, seat: int) -> list[dict]:
    """Every resolved round as ``seat`` knows it, oldest first: {
    "plays": ["Black (seat 1) played black@stack(1,1) circle (paper)", ...],
    "events": ["collision on stack(1,1): the black circle was converted to
    white"]}. [] for a game without rounds, with cloaking (``seen_round``),
    or whose information state names no plans."""
    if not game.simultaneous or _rule_set(game) is None:
        return []
    found = re.search(r"^history: ?(.*)$", game.state.information_state_string(seat), re.M)
    if not found:
        return []
    tokens = [(int(p), name) for p, name in _TOKEN.findall(found.group(1))]
    if len(tokens) != len(game.moves):
        return []
    meanings = shape_meanings(game)
    stacked = boards.board_kind(game.rules_key, game.version) == "stacks"
    state = game.game.new_initial_state()
    out: list[dict] = []
    plans: list[tuple[int, str]] = []  # a round's plans, or a pair's (two pieces a turn planned together)
    i = 0
    while i < len(game.moves):
        if state.current_player() != pyspiel.PlayerId.SIMULTANEOUS:
            state.apply_action(game.moves[i])
            i += 1
            continue
        order = core_of(state).simultaneous_player_list()
        if not plans:
            before = _pieces(state, seat, stacked)
        plans += tokens[i : i + len(order)]
        joint = [-1] * len(game.seats)
        for p, action in zip(order, game.moves[i : i + len(order)], strict=True):
            joint[p] = action
        state.apply_actions(joint)
        i += len(order)
        if "?" in _plans_seen(state, seat)[i - len(plans) : i]:
            continue  # plans this seat sees only when the pair resolves
        if any(name == "?" for _, name in plans):
            break  # not seen yet now
        out.append(
            {
                "plays": [
                    f"{game_story.seat_words(game, p)} played {with_meaning(name, meanings)}"
                    for p, name in plans
                ],
                "events": _events(plans, before, _pieces(state, seat, stacked), meanings),
            }
        )
        plans = []
    return out


def _plans_seen(state, seat: int) -> list[str]:
    """The names of the decisions so far as ``seat``'s information state
    gives them ("?" for a plan it has not seen)."""
    found = re.search(r"^history: ?(.*)$", state.information_state_string(seat), re.M)
    return [name for _, name in _TOKEN.findall(found.group(1))] if found else []


def _pieces(state, seat: int, stacked: bool) -> dict[str, collections.Counter]:
    """What ``seat`` sees, by place as moves name them ("(2,1,1)", or
    "stack(2,1)" for a whole stack): a count of (colour, shape) per place."""
    core = core_of(state)
    colours = list(core.reserves())
    shapes = core.player_shape_view(seat) if boards.plays_shapes(core) else None
    out: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for c, content in enumerate(boards.view_content(core.player_view(seat), colours, shapes)):
        if isinstance(content, tuple):
            x, y, z = core.coords(c)
            out[f"stack({x},{y})" if stacked else f"({x},{y},{z})"][content] += 1
    return out


def _piece_words(colour: str, shape: str, meanings: dict[str, str]) -> str:
    if colour == "obscured":
        return f"a {shape} piece"
    word = f" ({meanings[shape]})" if shape in meanings else ""
    return f"the {colour} {shape}{word}"


def _events(plans, before, after, meanings) -> list[str]:
    """What a round did, place by place: collisions (two plans onto one
    place), conversions (a piece whose colour changed), captures and pieces
    destroyed, read from the seat's views before and after the round."""
    arrivals: dict[str, list] = collections.defaultdict(list)
    leaving: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for _, name in plans:
        placed, moved = _PLACE.match(name), _MOVE.match(name)
        if placed:
            arrivals[placed.group(2)].append((placed.group(1), placed.group(3) or "circle"))
        elif moved and moved.group(1).startswith("(") and len(before[moved.group(1)]) == 1:
            piece = next(iter(before[moved.group(1)]))
            leaving[moved.group(1)][piece] += 1
            arrivals[moved.group(2)].append(piece)
    places = list(dict.fromkeys(list(arrivals) + sorted(set(before) | set(after))))
    out = []
    for place in places:
        expected = before[place] - leaving[place] + collections.Counter(arrivals[place])
        missing, extra = expected - after[place], after[place] - expected
        words = []
        for colour, shape in sorted(missing.elements()):
            turned = next((p for p in extra if p[1] == shape and extra[p] > 0), None)
            if turned is not None:
                extra[turned] -= 1
                words.append(f"{_piece_words(colour, shape, meanings)} was converted to {turned[0]}")
            elif (colour, shape) in arrivals[place] and len(arrivals[place]) > 1:
                words.append(f"{_piece_words(colour, shape, meanings)} was destroyed")
            else:
                words.append(f"{_piece_words(colour, shape, meanings)} was captured")
        for colour, shape in sorted((+extra).elements()):
            words.append(f"{_piece_words(colour, shape, meanings)} appeared")
        if len(arrivals[place]) > 1:
            out.append(f"collision on {place}" + (": " + ", ".join(words) if words else ""))
        elif words:
            out.append(f"on {place}: " + ", ".join(words))
    return out


# -- a cloaked round, as the seat's information state tells it --------------------------
def seen_round(game: LiveGame, seat: int) -> dict | None:
    """The last resolved round of a cloaked rule set as ``seat`` saw it: its
    lines of the seat's information state (``game_story.seen_moves``), each
    seat's play and what the round changed of what the seat sees. None
    without such lines or when the last lines are not of a round phase."""
    rule_set = _rule_set(game)
    if rule_set is None or not game.simultaneous:
        return None
    phases = rule_set.record.get("phases", [])
    lines = game_story.seen_moves(game, seat)
    group: list[tuple[int, str]] = []
    for line in lines:
        m = re.match(r"seat (\d+): (.*)$", line)
        if not m:
            continue
        text = m.group(2)
        phase = _PHASE.search(text)
        k = int(phase.group(1)) if phase else 1
        if not 0 < k <= len(phases) or phases[k - 1].get("order") not in ("simultaneous", "single"):
            group = []
            continue
        p = int(m.group(1))
        if group and p <= group[-1][0]:
            group = []
        group.append((p, _PHASE.sub("", text)))
    if not group or _CHANGED not in group[-1][1] and len(group) < len(game.seats):
        return None
    plays, changes = [], ""
    for p, text in group:
        play, _, rest = text.partition(_CHANGED)
        plays.append(f"seat {p}{' (you)' if p == seat + 1 else ''}: {play}")
        if rest:
            changes = re.sub(r"\) - -> ", "): empty -> ", rest.split("; reserves after it: ")[0])
    return {"plays": plays, "changes": changes}


def round_words(game: LiveGame, viewer: int, mine: bool) -> dict:
    """The game page's words about rounds and meanings for ``viewer``: the
    resolved rounds (without cloaking) or the last one as the seat saw it
    (with cloaking), the shapes' meanings, and, while the seat must decide,
    what its choices mean."""
    return {
        "rounds": rounds(game, viewer),
        "seen_round": seen_round(game, viewer),
        "meanings": shape_meanings(game),
        "choices": choices(game, viewer) if mine and not game.over() else [],
    }
