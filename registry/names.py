"""Names people read: users, players and saved rule sets.

Why normalise and refuse: two names that look the same must be one name, or
one person can pass for another ("ada" and "аda" with a Cyrillic а) and a rule
set for another. Every name is put in Unicode's NFKC form first (full-width
"ａｄａ", ligatures and the like become their plain letters, so they are the
name they look like), then refused if it holds a character nobody sees or
that changes how the rest is shown: control characters (NUL, newlines),
format characters (zero-width spaces and joiners, the right-to-left
override, the byte-order mark), private-use and unassigned code points,
variation selectors and the blank letters (Hangul fillers, the blank Braille
pattern).

Mixed scripts: the letters of one name come from one script (Latin, Cyrillic,
Greek, ...; Chinese, Japanese and Korean ideographs and syllables count as one),
so "pаypal" with a Cyrillic а is refused while "Иван", "Ελένη", "ada-2" and
"将棋の会" are not. Not caught: a name written wholly in another script that
looks like a Latin one ("аса" in Cyrillic against "aca"); a skeleton table of
confusable letters would be needed for that.
"""

from __future__ import annotations

import unicodedata

#: Letters and marks that show nothing (categories C* are refused as a whole).
_INVISIBLE = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u2800\u3164\uffa0"
) | frozenset(chr(c) for c in range(0xFE00, 0xFE10))
_ONE_SCRIPT = dict.fromkeys(
    ("HIRAGANA", "KATAKANA", "KATAKANA-HIRAGANA", "HANGUL", "CJK", "IDEOGRAPHIC"), "CJK"
)


def normal_name(name: str) -> str:
    """``name`` in NFKC form (what it is stored and looked up as)."""
    return unicodedata.normalize("NFKC", name)


def _script(ch: str) -> str | None:
    if not unicodedata.category(ch).startswith("L"):
        return None
    word = unicodedata.name(ch, "UNKNOWN").split(" ")[0]
    return _ONE_SCRIPT.get(word, word)


def name_problem(name: str) -> str | None:
    """Why ``name`` (already normalised) cannot be a name; None if it can."""
    for ch in name:
        category = unicodedata.category(ch)
        if (
            category[0] == "C"
            or category in ("Zl", "Zp")
            or ch in _INVISIBLE
            or 0xE0100 <= ord(ch) <= 0xE01EF
        ):
            return (
                f"it holds the invisible or control character U+{ord(ch):04X} "
                f"({unicodedata.name(ch, 'unnamed')}); names show every character they hold"
            )
    scripts = sorted({s for s in map(_script, name) if s})
    if len(scripts) > 1:
        return (
            f"it mixes letters of {' and '.join(s.title() for s in scripts)}; the letters of a "
            "name come from one script, so that no name can pass for another"
        )
    return None
