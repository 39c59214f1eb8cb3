"""The Player Factory (new, Copy, Save), a saved rule set's page and the
Admin-only rename.

Server-side rules (the tic-tac-toe variations specification, through the
registry): Save validates and refuses a Creator over quota and a duplicate of a
saved rule set; Copy is offered (and served) only while the user's quota lasts;
rename is for Admins, whatever the page showed. "Add Check"/"Delete Check" work
as form submissions too, so the page needs no JavaScript to be complete.
"""

from __future__ import annotations

import json
import re

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from games.ttt import rules as ttt_rules
from registry import rulesets, users
from registry.errors import RegistryError
from registry.names import normal_name
from webapp import factory_form as ff
from webapp import factory_warnings
from webapp.web import browser_words, login_required, reg, role_required, user

bp = Blueprint("factory", __name__)

NEW_RECORD = {"name": "", "reserves": {"black": 5, "white": 4}, "turn_checks": ["first-3-wins"]}


def controls(state: dict) -> set[str]:
    """The field keys that have a control on the page (problems attach to them)."""
    keys = {
        "name",
        "players",
        "colours",
        "cloaking",
        "pieces_per_turn",
        "boards",
        "phases",
        "board.kind",
        "board.size",
        "board.size.x",
        "board.size.y",
        "board.size.z",
        "board.locked",
        "board.pieces",
        "board.on_boards",
        "turn_checks",
        "stalemate",
        "agree_draw",
        "move_limit",
        "seconds_per_turn",
        "reserves",
        "shapes",
        "overachievers_disqualified",
        "chaos_wins_if_more_than",
        "cloaking_hides_turns",
        "cloaking_hides_walls",
        "line_moves",
        "round_plies",
        "deck",
        "deck.hand",
        "deck.per_turn",
        "deck.pieces",
    }
    keys |= {f"board.{key}" for key, _ in ff.BOARD_MARKERS}
    for i in range(len(state["on_boards"])):
        keys |= {f"board.on_boards[{i}]"} | {f"board.on_boards[{i}].{key}" for key, _ in ff.ON_BOARD_MARKERS}
    for s in state["shapes"]:
        keys |= {
            f"shapes.{s}",
            f"shapes.{s}.move",
            f"shapes.{s}.power",
            f"shapes.{s}.condition",
            f"shapes.{s}.result",
            f"shapes.{s}.cannot_move_backwards",
            f"chaos_wins_if_more_than.{s}",
            f"deck.pieces.{s}",
        }
    for colour in ff.schema.PALETTE:
        keys.add(f"reserves.{colour}")
        keys |= {f"reserves.{colour}.{s}" for s in state["shapes"]}
    for i in range(len(state["turn_checks"])):
        keys.add(f"turn_checks[{i}]")
    for k in range(len(state["phases"])):
        keys |= {f"phases[{k}]"} | {
            f"phases[{k}].{f}" for f in ("order", "pass", "movement", "locked_players", "locked", "fold")
        }
        keys |= {f"phases[{k}].{key}" for key, _ in ff.PHASE_MARKERS}
    return keys


def attach(problems: list[str], keys: set[str]) -> dict[str, list[str]]:
    """Each problem under the nearest control: the field itself, else the field
    without its last [index] or .part, and so on; "" when none is left."""
    out: dict[str, list[str]] = {}
    for field, messages in ff.problems_by_field(problems).items():
        key = field
        while key and key not in keys:
            key = (
                re.sub(r"(\[\d+\]|\.[^.\[\]]+)$", "", key)
                if re.search(r"(\[\d+\]|\.[^.\[\]]+)$", key)
                else ""
            )
        for m in messages:
            # validation's word for no value ("1..86400 or null"); the page's field is left empty
            m = m.replace(" or null", " or empty")
            out.setdefault(key, []).append(m if key == field else f"{field}: {m}")
    return {key: ff.capped(messages) for key, messages in out.items()}


def field_words(key: str) -> str:
    """A field as a person reads it in the problem summary: "turn_checks[1]"
    -> "Turn check 2", "phases[0].order" -> "Phase 1, order"."""
    if not key:
        return "The rule set"
    for name, word in (("turn_checks", "turn check"), ("phases", "phase"), ("on_boards", "board")):
        key = re.sub(rf"{name}\[(\d+)\]", lambda m, w=word: f"{w} {int(m.group(1)) + 1}", key)
    text = ", ".join(part.replace("_", " ") for part in key.split("."))
    return text[0].upper() + text[1:]


def anchor(key: str) -> str:
    """The id of a control's first problem, which the summary links to."""
    return "problem-" + (re.sub(r"[^A-Za-z0-9]+", "-", key).strip("-") or "rule-set")


def warnings_of(state: dict, source: dict | None = None) -> list[dict]:
    """The wins and losses of a Factory page's rule set (``ff.state_of``) that
    cannot happen on its board or with its pieces (webapp/factory_warnings.py),
    worded for the page. ``source``: the record the state was drawn from; its
    pieces are judged once it validates (the page's board and wins are the
    state's, which a redraw may have changed)."""
    record = {
        "board": {"kind": state["board_kind"], "size": list(state["size"])},
        "turn_checks": state["turn_checks"],
        "stalemate": state["stalemate"],
    }
    if isinstance(source, dict):
        merged = dict(source, turn_checks=record["turn_checks"], stalemate=record["stalemate"])
        merged["board"] = dict(source.get("board") or {}, **record["board"])
        if not isinstance(merged.get("name"), str) or not merged["name"].strip():
            merged["name"] = "Unnamed"  # a new rule set's name is judged by Save, not here
        try:
            record = ttt_rules.parse(merged, "factory").record
        except (ttt_rules.RuleSetError, ValueError, TypeError, KeyError):
            pass  # the pieces are judged once the rule set is valid; the board now
    out = []
    for field, rule, why in factory_warnings.impossible_rules(record):
        label = ff.option_label(field, rule)
        out.append({"field": field, "text": f"{field_words(field)} ({label}) cannot happen: {why}"})
    return out


def _render(state, problems=None, copy_of=None, saving=False, record=None):
    """The Factory page. ``saving``: the page answers a Save that was refused,
    so a summary of every problem opens it (each is also beside its control)."""
    keys = controls(state)
    quota = users.quota_left(reg(), user())
    attached = attach(problems or [], keys)
    summary = [
        {"key": key, "field": field_words(key), "anchor": anchor(key), "messages": messages}
        for key, messages in attached.items()
    ]
    return render_template(
        "factory.html",
        s=state,
        c=ff.choices(),
        problems=attached,
        summary=summary if saving else [],
        anchor=anchor,
        warnings=warnings_of(state, record),
        colours=ff.reserve_colours(state["players"], state["colours"], state["extra_colours"]),
        dim_limit=ff.dim_limit,
        quota=quota,
        option_label=ff.option_label,
        reserve_max=ff.reserve_max(state),
        copy_of=copy_of,
        size_json=json.dumps(state["size"]),
        seat_names=ff.seat_names(state["players"]),
        board_markers=ff.BOARD_MARKERS,
        on_board_markers=ff.ON_BOARD_MARKERS,
        phase_markers=ff.PHASE_MARKERS,
    )


def copy_record(record: dict) -> dict:
    """A Copy's record with everything it means spelled out: a saved rule set
    that ``extends`` another holds only its differences (OptionalPD is
    PrisonerDilemma plus a draw offer), and the Factory has no ``extends``
    control, so the copy is the resolved rule set under the copy's name."""
    try:
        full = ttt_rules.parse(dict(record), "copy").to_json()
    except ttt_rules.RuleSetError:
        return record  # a record validation refuses is shown as it is
    full["name"] = record["name"]
    full.pop("notes", None)
    return full


@bp.route("/factory", methods=["GET", "POST"])
@login_required
def new():
    if request.method == "GET":
        copy = request.args.get("copy")
        if copy:
            try:
                record = copy_record(rulesets.copy_rule_set(reg(), user(), copy))
            except RegistryError as e:
                flash(str(e), "error")
                return redirect(url_for("factory.new"))
            return _render(ff.state_of(record), copy_of=copy, record=record)
        return _render(ff.state_of(NEW_RECORD), record=NEW_RECORD)
    record = ff.form_to_record(request.form)
    state = ff.state_of(record)
    # every size within validation's bounds before anything is drawn from it
    bounded = ff.form_problems(request.form) + ff.bound(state)
    op = request.form.get("op", "redraw")
    if op == "add_check":
        if len(state["turn_checks"]) < ff.MAX_CHECKS:
            state["turn_checks"].append(
                state["turn_checks"][-1] if state["turn_checks"] else ff.schema.DEFAULT_CHECKS[0]
            )
        return _render(state, bounded, record=record)
    if op.startswith("del_check-"):
        i = ff._int(op.split("-", 1)[1], -1)
        if 0 <= i < len(state["turn_checks"]):
            del state["turn_checks"][i]
        return _render(state, bounded, record=record)
    if op != "save":
        ff.adjust(state)
        return _render(state, bounded, record=record)
    problems = ff.validate(record)
    if problems or bounded:
        return _render(state, list(dict.fromkeys(bounded + problems)), saving=True, record=record)
    try:
        record["name"] = normal_name(record["name"]) if isinstance(record.get("name"), str) else ""
        name = rulesets.save_rule_set(reg(), user(), record)
    except RegistryError as e:
        field = "name" if "called" in str(e) else ""
        return _render(state, [f"{field}: {e}" if field else f"(save): {e}"], saving=True, record=record)
    flash(f"saved {name}", "ok")
    return redirect(url_for("factory.show", name=name))


@bp.route("/rules/<name>")
@login_required
def show(name):
    try:
        record = rulesets.rule_set_json(reg(), name)
    except RegistryError as e:
        abort(404, browser_words(e))
    creator = reg().one(
        "SELECT u.name FROM rule_sets r LEFT JOIN users u ON u.id = r.creator_id WHERE r.name = ?", (name,)
    )[0]
    state = ff.state_of(record)
    notes = record.get("notes") or ""
    if len(notes) > rulesets.MAX_NOTES:  # saved before notes were bounded
        record["notes"] = (
            f"{notes[: rulesets.MAX_NOTES]} … ({len(notes) - rulesets.MAX_NOTES:,} more characters)"
        )
    return render_template(
        "ruleset.html",
        name=name,
        s=state,
        record=record,
        creator=creator,
        quota=users.quota_left(reg(), user()),
        size_json=json.dumps(state["size"]),
        board_markers=ff.BOARD_MARKERS,
        on_board_markers=ff.ON_BOARD_MARKERS,
        phase_markers=ff.PHASE_MARKERS,
        option_label=ff.option_label,
        warnings=warnings_of(state, record),
    )


@bp.route("/rules/<name>/rename", methods=["POST"])
@role_required("admin")
def rename(name):
    new_name = normal_name(request.form.get("new_name", ""))
    try:
        rulesets.rename_rule_set(reg(), user(), name, new_name)
    except RegistryError as e:
        flash(str(e), "error")
        return redirect(url_for("factory.show", name=name))
    flash(f"renamed {name} to {new_name}", "ok")
    return redirect(url_for("factory.show", name=new_name))
