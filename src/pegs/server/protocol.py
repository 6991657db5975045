"""JSON for the wire (``docs/PROTOCOL.md``): a seat's view, its legal actions, events.

Everything a client learns about a game is built here from :func:`pegs.rules.view`, the
one place hidden information is removed, and from announcements of public actions.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from ..notation import SEAT_COLOURS, option_words, step_pegs
from ..rules import Action, GameState, Rules, View, geometry
from ..rules.view import seen_action

#: Message codes of ``error`` replies.
ERROR_CODES = frozenset({
    "malformed", "bad_token", "not_your_turn", "stale_version", "duplicate", "illegal",
    "too_large", "rate_limited", "no_hints", "not_started", "game_over", "no_table",
    "internal", "full", "removed", "too_many_connections", "abandoned", "unavailable",
    # table talk (chat.py)
    "muted", "too_long", "bad_phrase", "not_teaching", "no_team", "not_host", "bad_seat",
    "not_partners_turn",
})

#: The most actions one ``explain`` request may name.
MAX_EXPLAIN = 64


@lru_cache(maxsize=512)
def rules_json(rules: Rules) -> dict[str, Any]:
    """Every setting of the rules (``Rules.settings()``)."""
    return rules.settings()


@lru_cache(maxsize=512)
def board_json(rules: Rules) -> dict[str, Any]:
    """The board's shape: ring size, sides, out-holes, doors, seat colours and letters."""
    geo = geometry(rules)
    n = rules.players
    return {
        "ring_size": geo.ring_size,
        "side_of": list(geo.side_of),
        "out_hole": [geo.name(geo.out_hole[s]) for s in range(n)],
        "door": [geo.name(geo.door[s]) for s in range(n)],
        "colours": [SEAT_COLOURS[s][0].lower() for s in range(n)],
        "letters": [SEAT_COLOURS[s][1] for s in range(n)],
    }


@lru_cache(maxsize=512)
def rules_text(rules: Rules) -> str:
    return json.dumps(rules_json(rules), separators=(",", ":"))


@lru_cache(maxsize=512)
def board_text(rules: Rules) -> str:
    return json.dumps(board_json(rules), separators=(",", ":"))


def hidden_text(action: Action, declarer: int, seat: int) -> str:
    """The action as ``seat`` may read it: another seat's face-down card shows as ``?``."""
    return str(seen_action(action, declarer, seat))


def view_json(v: View) -> dict[str, Any]:
    """The view as JSON, positions by name (``S``, ``s.h``, ``Hk``)."""
    geo = geometry(v.rules)
    pending = None
    if v.pending is not None:
        p = v.pending
        pending = {"declarer": p.declarer, "action": str(p.action), "declared": p.action.declared,
                   "asked": p.asked, "chooser": p.chooser, "victim": p.victim}
    outcome = None
    if v.outcome is not None:
        outcome = {"team": v.outcome.team, "seats": list(v.outcome.seats)}
    return {
        "pegs": [[geo.name(p) for p in seat] for seat in v.pegs],
        "hand": list(v.hand),
        "hand_sizes": list(v.hand_sizes),
        "draw_pile_size": v.draw_pile_size,
        "discards": list(v.discards),
        "hidden_discards": v.hidden_discards,
        "current_player": v.current_player,
        "turn": v.turn,
        "ply": v.ply,
        "outcome": outcome,
        "pending": pending,
    }


def action_json(state: GameState, action: Action) -> dict[str, Any]:
    """One legal action with its steps resolved to peg owners and how it reads to the seat
    to act."""
    owners = [peg[0] for peg in step_pegs(state, action)]
    return {
        "text": str(action),
        "card": action.card or None,
        "declared": action.declared or None,
        "decision": action.decision or None,
        "discard": action.discard,
        "steps": [
            {"seat": owner, "from": s.src.partition("@")[0], "to": s.dst.partition("@")[0],
             "op": s.op, "hit": s.hit}
            for s, owner in zip(action.steps, owners, strict=True)
        ],
        "announcement": option_words(state, action),
    }


def legal_json(state: GameState, legal: Sequence[Action]) -> list[dict[str, Any]]:
    return [action_json(state, a) for a in legal]


def legal_compact(state: GameState, legal: Sequence[Action]) -> dict[str, Any]:
    """The legal actions grouped for the wire (docs/PROTOCOL.md, "legal"): decisions in
    full with their announcements; card plays by head (``7``, ``5 as A``), each head with
    the list of its parts (steps, or ``discard``) and bitmaps over that list: ``one`` (the
    parts that are a whole action alone) and ``two`` (for part i, the parts j such that
    "head: i, j" is an action); ``more`` lists longer actions as part indices.  Second
    parts are numbered first, in order, so each bitmap's bits stay close together."""
    decisions: list[dict[str, str]] = []
    heads: dict[str, list[list[str]]] = {}
    for a in legal:
        if a.decision:
            decisions.append({"text": a.decision, "announcement": option_words(state, a)})
        else:
            head, _, body = str(a).partition(": ")
            heads.setdefault(head, []).append(body.split(", "))
    plays = {}
    for head, actions in heads.items():
        index = {parts[1]: 0 for parts in actions if len(parts) == 2}
        for parts in actions:
            index.update((part, 0) for part in parts if part not in index)
        number = {part: i for i, part in enumerate(index)}
        one: set[int] = set()
        two: dict[int, set[int]] = {}
        more = []
        for parts in actions:
            if len(parts) == 1:
                one.add(number[parts[0]])
            elif len(parts) == 2:
                two.setdefault(number[parts[0]], set()).add(number[parts[1]])
            else:
                more.append([number[part] for part in parts])
        group: dict[str, Any] = {"parts": list(index), "one": _bits(one)}
        if two:
            group["two"] = {str(i): _bits(js) for i, js in two.items()}
        if more:
            group["more"] = more
        plays[head] = group
    return {"mover": state.turn, "decisions": decisions, "plays": plays}


def _bits(indices: set[int]) -> str:
    """A set of indices as hex digits, digit k holding indices 4k to 4k+3 (value 1 for 4k,
    2 for 4k+1, ...); leading zero digits are written as their count and a dot (``3.1``
    is ``0001``), trailing ones left out."""
    digits = format(sum(1 << i for i in indices), "x")[::-1] if indices else ""
    zeros = len(digits) - len(digits.lstrip("0"))
    return f"{zeros}.{digits[zeros:]}" if zeros else digits


def _unbits(text: str) -> list[int]:
    zeros, _, digits = text.rpartition(".")
    skip = int(zeros or 0)
    return [4 * (skip + k) + b for k, digit in enumerate(digits) for b in range(4)
            if int(digit, 16) >> b & 1]


def legal_texts(compact: dict[str, Any] | None) -> list[str]:
    """Every action text of a :func:`legal_compact` listing (for scripted clients); none
    for ``null`` (not this seat's turn)."""
    if compact is None:
        return []
    out = [d["text"] for d in compact["decisions"]]
    for head, group in compact["plays"].items():
        parts = group["parts"]
        out += [f"{head}: {parts[i]}" for i in _unbits(group["one"])]
        for i, row in group.get("two", {}).items():
            out += [f"{head}: {parts[int(i)]}, {parts[j]}" for j in _unbits(row)]
        out += [f"{head}: " + ", ".join(parts[i] for i in seq) for seq in group.get("more", [])]
    return out


def explain(state: GameState, offered: dict[str, Action], texts: Sequence[object],
            said: dict[str, str]) -> dict[str, str]:
    """Announcements of those ``texts`` that are ``offered`` (the legal actions by text);
    ``said`` keeps them for the version."""
    out: dict[str, str] = {}
    for text in texts:
        if not isinstance(text, str) or text not in offered:
            continue
        if text not in said:
            said[text] = option_words(state, offered[text])
        out[text] = said[text]
    return out


def error(code: str, message: str, msg_id: object = None) -> dict[str, Any]:
    """An ``error`` message (``id`` echoes the refused message's id when it had one)."""
    assert code in ERROR_CODES, code
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if msg_id is not None:
        out["id"] = msg_id
    return out
