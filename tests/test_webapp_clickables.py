"""Every clickable element of every page is exercised by the browser tests
(nav links, ``#redraw``, ``#again``, tabs and selects included), so the docs'
claim that every control is tested stays true.

How: each template's links, buttons, selects and checkboxes are collected with
their id (or, for repeated elements, their class); each must be named as a CSS
selector (``#id`` / ``.class``) in tests/test_webapp_browser*.py, where the
tests click it, select from it or check it and assert what follows. A new
control without a browser test fails here. An element with neither id nor
class fails too (name it, so it can be tested). A selector is matched in the
browser tests' source, not per page: an id used on several pages (``#universe``)
counts as exercised once it is driven on any of them. The few that cannot be or need
not be driven are listed in ``NOT_CLICKED`` with the reason.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "webapp" / "templates"
TAG = re.compile(r'<(a|button|select|input)\b((?:[^>"]|"[^"]*")*)>', re.S)
ATTR = re.compile(r'([\w-]+)="([^"]*)"')

#: (template, selector) -> why no browser test clicks it.
NOT_CLICKED = {
    ("home.html", "#choose-noscript"): "shown only with JavaScript off (<noscript>); the "
    "browser tests run with JavaScript, the select autosubmits",
}
MACRO = re.compile(r"{%-?\s*macro\s+(\w+)\((.*?)\)\s*-?%}(.*?){%-?\s*endmacro", re.S)
SET = re.compile(r"{%-?\s*set\s+(\w+)\s*=\s*(.*?)\s*-?%}", re.S)


def _first_arg(text: str, start: int) -> str:
    """The first argument of the call whose "(" is just before ``start``."""
    depth, quote = 0, None
    for i in range(start, len(text)):
        ch = text[i]
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            if depth == 0:
                return text[start:i]
            depth -= 1
        elif ch == "," and depth == 0:
            return text[start:i]
    return text[start:]


def _pattern(expr: str, sets: dict[str, str]) -> str:
    """A Jinja string expression (literals joined by ~) as an id with ``*``
    for each part known only when the page is drawn."""
    expr = re.sub(r"\([^()]*\)", " _ ", expr)
    out = ""
    for part in expr.split("~"):
        part = part.strip()
        if part[:1] in "'\"":
            out += part[1:-1]
        elif part in sets and part != sets[part]:
            out += _pattern(sets[part], {k: v for k, v in sets.items() if k != part})
        else:
            out += "*"
    out = out.replace(".", "-").replace("[", "-").replace("]", "")
    return re.sub(r"\*+", "*", out)


def clickables(template: Path) -> list[str]:
    """The selectors (``#id``, ``.class`` or ``?<tag>``) of the template's
    clickable elements. A select made by a macro (the Factory's ``sel``, its
    id from its field name) is counted at each call, by the id it gets there."""
    text = re.sub(r"{#.*?#}", "", template.read_text(), flags=re.S)
    macros = {m.group(1): (m.start(), m.end(), m.group(3)) for m in MACRO.finditer(text)}
    out = []
    for tag in TAG.finditer(text):
        kind, attrs = tag.groups()
        a = dict(ATTR.findall(attrs))
        if kind == "input" and a.get("type") != "checkbox":
            continue
        named_by = re.match(r"{{\s*(\w+)\|replace", a.get("id", ""))
        if named_by:
            if any(start <= tag.start() < end for start, end, _ in macros.values()):
                continue  # counted at the macro's calls
            sets = {m.group(1): m.group(2) for m in SET.finditer(text, 0, tag.start())}
            out.append("#" + _pattern(sets.get(named_by.group(1), named_by.group(1)), sets))
        elif a.get("id"):
            out.append("#" + re.sub(r"{{.*?}}", "*", a["id"]))
        elif a.get("class"):
            out.append("." + a["class"].split()[0])
        else:
            out.append(f"?<{kind} {attrs.strip()[:60]}>")
    for name, (start, end, body) in macros.items():
        if not re.search(r'<select[^>]*id="{{\s*name\|replace', body):
            continue
        for call in re.finditer(rf"(?<![\w.]){name}\(", text):
            if start <= call.start() < end:
                continue
            sets = {m.group(1): m.group(2) for m in SET.finditer(text, 0, call.start())}
            out.append("#" + _pattern(_first_arg(text, call.end()), sets))
    return out


def browser_sources() -> str:
    return "\n".join(p.read_text() for p in sorted((ROOT / "tests").glob("test_webapp_browser*.py")))


def named(selector: str, source: str) -> bool:
    """Whether ``selector`` (``*`` for a template expression) is in ``source``
    as a selector, not as a longer name's prefix."""
    pattern = re.escape(selector).replace(r"\*", r"[\w.-]+")
    return re.search(pattern + r"(?![\w-])", source) is not None


def test_every_clickable_element_is_exercised_by_a_browser_test():
    source = browser_sources()
    missing = []
    for template in sorted(TEMPLATES.glob("*.html")):
        for selector in clickables(template):
            if (template.name, selector) in NOT_CLICKED:
                continue
            if selector.startswith("?"):
                missing.append(f"{template.name}: {selector} has no id or class to test it by")
            elif not named(selector, source):
                missing.append(f"{template.name}: {selector} is clicked by no browser test")
    assert not missing, "\n".join(missing)


def test_the_check_sees_the_controls_it_is_about():
    """The collector itself: the review's examples are found, so the check above
    is not passing for want of looking."""
    found = {(t.name, s) for t in TEMPLATES.glob("*.html") for s in clickables(t)}
    for item in [
        ("base.html", "#nav-play"),
        ("factory.html", "#redraw"),
        ("game.html", "#again"),
        ("factory.html", "#board-size-x"),
        ("factory.html", "#phases-*-order"),
        ("factory.html", "#shapes-*-move"),
        ("factory.html", "#reserves-*"),
        ("ruleset.html", "#play-this"),
        ("evolution.html", "#metric"),
        ("leaderboard.html", ".pick"),
        ("factory.html", "#agree_draw"),
    ]:
        assert item in found, item
    assert not named("#again", "page.click('#again-later')")
    assert named("#shapes-*-cannot_move_backwards", 'x = "#shapes-circle-cannot_move_backwards"')
