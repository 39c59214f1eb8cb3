"""A deck and dealt pieces (docs/rules/ttt/deal.md): the ``deck`` field and
the "dealt common" spaces (``board.dealt``), checked, written into the
canonical record, and turned into the engine's tables.

``deck`` is ``{"pieces": {shape: count}, "hand": n, "per_turn": m}``: the
shapes in the deck and how many of each, how many pieces each player is
dealt at the start, and how many at the start of each of its turns while
the deck lasts (``per_turn``, written only when not 0). Each dealt piece is
a chance node (its shape drawn from what is left in the deck, each piece
equally likely); a piece dealt to a player joins that player's reserve in
its own colour, and the others see only that its
reserve grew until it is played. ``board.dealt`` lists the "dealt common"
spaces: after the hands, one piece of the deck is dealt face up onto each,
in a colour no seat owns (a communal piece, the specification's pieces
"owned by no player").

Both fields are written into the record only when set, so every other rule
set's record and fingerprint stay as they were.
"""

from __future__ import annotations

from collections.abc import Mapping

from games.ttt.schema import PALETTE, SHAPES_ALL, allowed_text, is_int, seats_of

DECK_FIELDS = ("pieces", "hand", "per_turn")
MAX_DECK = 512  # pieces in a deck (the most spaces a board has)


def check_deck(raw, rec, p, coord) -> None:
    """Parse ``deck`` and ``board.dealt`` into ``rec`` (only when set) and add
    a problem for each bad value and each combination the engine does not
    deal in. ``coord(field, value)`` checks one [x, y, z] on the board."""
    raw_board = raw.get("board") if isinstance(raw.get("board"), Mapping) else {}
    raw_dealt = raw_board.get("dealt", [])
    deck = raw.get("deck")
    if deck is None:
        if raw_dealt:
            p.add("board.dealt", "dealt common spaces need a deck to deal from (set deck)")
        return
    if not isinstance(deck, Mapping):
        p.add("deck", 'must be an object {"pieces": {shape: count}, "hand": n}')
        return
    for key in deck:
        if key not in DECK_FIELDS:
            p.add(f"deck.{key}", f"unknown field (allowed: {allowed_text(DECK_FIELDS)})")
    shapes = rec.get("shapes") or {}
    pieces = deck.get("pieces")
    counts = {}
    if not isinstance(pieces, Mapping) or not pieces:
        p.add("deck.pieces", "required: an object {shape: count} of the shapes in the deck")
        pieces = {}
    for shape, n in pieces.items():
        if shape not in shapes:
            p.add(
                f"deck.pieces.{shape}",
                f"{shape!r} is not a shape of this rule set (allowed: {allowed_text(sorted(shapes))})",
            )
        elif not is_int(n) or not 0 <= n <= MAX_DECK:
            p.add(f"deck.pieces.{shape}", f"{n!r} is not allowed (allowed: 0..{MAX_DECK})")
        elif n:
            counts[shape] = n
    hand = deck.get("hand", 0)
    if not is_int(hand) or not 0 <= hand <= MAX_DECK:
        p.add("deck.hand", f"{hand!r} is not allowed (allowed: 0..{MAX_DECK})")
        hand = 0
    per_turn = deck.get("per_turn", 0)
    if not is_int(per_turn) or not 0 <= per_turn <= MAX_DECK:
        p.add("deck.per_turn", f"{per_turn!r} is not allowed (allowed: 0..{MAX_DECK})")
        per_turn = 0
    dealt = []
    if not isinstance(raw_dealt, list):
        p.add("board.dealt", "must be a list of [x, y, z] coordinates")
        raw_dealt = []
    taken = {tuple(c) for c in rec["board"].get("locked", [])}
    taken |= {tuple(q["at"]) for q in rec["board"].get("pieces", [])}
    for i, c in enumerate(raw_dealt):
        at = coord(f"board.dealt[{i}]", c)
        if at is None:
            continue
        if list(at) in dealt:
            p.add(f"board.dealt[{i}]", f"{list(at)} is listed twice")
        elif at in taken:
            p.add(f"board.dealt[{i}]", f"{list(at)} is locked or already holds a piece")
        else:
            dealt.append(list(at))
    if rec["board"].get("kind") == "stacks":  # a piece rests on the floor, a piece or a locked space
        support = taken | {tuple(at) for at in dealt}
        for at in dealt:
            if at[2] > 1 and (at[0], at[1], at[2] - 1) not in support:
                p.add(
                    "board.dealt",
                    f"dealt space {at} floats: on stacks a dealt piece rests on the "
                    "floor, a piece, a locked space or another dealt space",
                )
    players = rec.get("players")
    n = seats_of(players)[0] if players else 1
    deals = hand * n + len(dealt)
    total = sum(counts.values())
    if pieces and (total == 0 or (deals == 0 and not per_turn)):
        p.add(
            "deck.hand",
            "the deck deals nothing (allowed: a hand of 1 or more, a per_turn of 1 or more, "
            "or dealt common spaces)",
        )
    elif deals > total:
        p.add(
            "deck.pieces",
            f"the deck holds {total} pieces but deals {deals} ({n} hands of {hand}, "
            f"{len(dealt)} dealt common spaces) (allowed: at least as many pieces as it deals)",
        )
    rec["deck"] = {"pieces": {s: counts[s] for s in SHAPES_ALL if s in counts}, "hand": hand}
    if per_turn:
        rec["deck"]["per_turn"] = per_turn
    if dealt:
        rec["board"]["dealt"] = sorted(dealt)
    _check_combinations(rec, p, dealt)


def _check_combinations(rec, p, dealt) -> None:
    """What the deck is played with (docs/rules/ttt/refused.md, "Dealt pieces")."""
    if rec.get("colours") not in (None, "assigned"):
        p.add(
            "deck",
            "a deck needs assigned colours (a dealt piece joins its player's reserve in that "
            "player's own colour; a shared colour or a colour choice would hand it to "
            "others) (allowed with a deck: colours 'assigned')",
        )
    phases = rec.get("phases") or []
    if any(ph.get("order", "sequential") != "sequential" for ph in phases):
        p.add(
            "deck",
            "a deck is dealt in sequential phases only (a round's plans keep their own "
            "history, which does not hold the deals) (allowed with a deck: order 'sequential')",
        )
    if rec.get("cloaking", "none") != "none" and any(ph.get("cloaked") for ph in phases):
        p.add(
            "deck",
            "a deck with cloaked spaces is not supported yet (each seat's view of a cloaked "
            "space would have to be joined with what it knows of the deal) (allowed with a "
            "deck: no cloaked spaces)",
        )
    if dealt and rec.get("boards", 1) != 1:
        p.add(
            "board.dealt",
            "dealt common spaces on several boards: a space of one board is a space on each, "
            "and which of them a piece is dealt onto is not said (allowed with dealt spaces: 1 board)",
        )
    if dealt and communal_colour(rec) is None:
        p.add(
            "board.dealt",
            "every colour belongs to a seat, so no colour is left for the communal pieces dealt "
            "face up (allowed with dealt spaces: at most 3 seats, Chaos included)",
        )


def communal_colour(rec) -> str | None:
    """The colour of the pieces dealt onto dealt common spaces: the first
    colour of the palette that no seat owns (None when every colour is owned)."""
    n, chaos = seats_of(rec["players"])
    free = PALETTE[n + chaos :]
    return free[0] if free else None


def with_dealt_common(r: dict) -> dict:
    """The record with each dealt common space holding a communal piece (its
    shape, the deck's first, stands in until the deal), so the compiler lays
    the spaces out as pre-placed pieces and the deal sets only their shapes."""
    dealt = r["board"].get("dealt") or []
    if not dealt:
        return r
    colour = communal_colour(r)
    first = next(iter(r["deck"]["pieces"]))
    board = dict(r["board"])
    board["pieces"] = sorted(
        list(r["board"]["pieces"]) + [{"at": list(at), "colour": colour, "shape": first} for at in dealt],
        key=lambda q: (q["at"], q["colour"], q["shape"]),
    )
    return {**r, "board": board}


def deal_tables(r: dict, cell) -> dict:
    """The engine's deck tables: per shape in play (SHAPES_ALL order) its
    count in the deck, the hand, and the cells of the dealt common spaces in
    the order they are dealt (the cells' order: x, then y, then z)."""
    if "deck" not in r:
        return {}
    names = [s for s in SHAPES_ALL if s in r["shapes"]]
    return {
        "deck": {
            "counts": [r["deck"]["pieces"].get(s, 0) for s in names],
            "hand": r["deck"]["hand"],
            "per_turn": r["deck"].get("per_turn", 0),
            "cells": sorted(cell(at) for at in r["board"].get("dealt") or []),
        }
    }


def deals(r: dict) -> int:
    """The most chance nodes the deals take: each player's hand, then the
    dealt common spaces; with a deal each turn, every piece of the deck."""
    if "deck" not in r:
        return 0
    start = r["deck"]["hand"] * seats_of(r["players"])[0] + len(r["board"].get("dealt") or [])
    return sum(r["deck"]["pieces"].values()) if r["deck"].get("per_turn") else start


def dealt_to_hands(r: dict) -> int:
    """The pieces dealt into the players' reserves (what placements may spend beyond ``reserves``)."""
    return deals(r) - len(r["board"].get("dealt") or []) if "deck" in r else 0
