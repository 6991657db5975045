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
from ..rules.view import HIDDEN

#: Message codes of ``error`` replies.
ERROR_CODES = frozenset({
    "malformed", "bad_token", "not_your_turn", "stale_version", "duplicate", "illegal",
    "too_large", "rate_limited", "no_hints", "not_started", "game_over", "no_table",
    "internal", "full",
})


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
    if action.declared and seat != declarer:
        return str(action._replace(card=HIDDEN))
    return str(action)


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


def error(code: str, message: str, msg_id: object = None) -> dict[str, Any]:
    """An ``error`` message (``id`` echoes the refused message's id when it had one)."""
    assert code in ERROR_CODES, code
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if msg_id is not None:
        out["id"] = msg_id
    return out
