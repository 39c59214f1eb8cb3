"""The process-wide cache of parsed rule sets, keyed by the text they were
parsed from.

Why the key is the content and not the path or name: a long-running process
(a notebook, a tournament) must play the rules a file holds *now*. With the
text's digest as the key, an edited file is a new key and is parsed again,
an unchanged one costs one read and one hash, and the same text reached by
two paths (or later from the registry's database) is parsed once.
Validation failures are not cached: they raise. Nor are rule sets that
``extends`` another: their meaning changes when the parent's file does.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict

from games.ttt.ruleset import RuleSet
from games.ttt.validation import parse_text

MAX_ENTRIES = 256

_parsed: OrderedDict[str, RuleSet] = OrderedDict()


def parsed(text: str, source: str) -> RuleSet:
    """The rule set ``text`` holds (``source`` names it in error messages)."""
    if '"extends"' in text:
        # extends (games/ttt/extends.py): the rules depend on the parent's
        # text too, which this key does not cover; parsed afresh every time
        return parse_text(text, source)
    key = hashlib.sha256(text.encode()).hexdigest()
    rs = _parsed.get(key)
    if rs is None:
        rs = parse_text(text, source)
        _parsed[key] = rs
        if len(_parsed) > MAX_ENTRIES:
            _parsed.popitem(last=False)
    else:
        _parsed.move_to_end(key)
    return rs


def clear() -> None:
    _parsed.clear()
