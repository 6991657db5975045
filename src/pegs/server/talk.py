"""What table talk looks like to a connection: who may read which channel, and a chat
entry of the table log (:mod:`.table_log`) as the ``chat`` message clients get."""

from __future__ import annotations

import json
from typing import Any

from ..rules import Rules
from ..rules.board import geometry
from .table_log import Entry


def dumps(data: object) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def team_channel(rules: Rules, seat: int) -> str | None:
    """The stored name of the seat's team channel ("team1"), or None when the seat has no
    partner (a spectator, or a table without teams)."""
    if seat < 0 or not rules.teams:
        return None
    return f"team{geometry(rules).team_of[seat]}"


def readable(rules: Rules, teaching: bool, seat: int) -> list[str]:
    """The channels this seat (-1: a spectator) may read."""
    team = team_channel(rules, seat) if teaching else None
    return ["table"] if team is None else ["table", team]


def message(entry: Entry) -> dict[str, Any]:
    """A chat entry as the ``chat`` message clients get (``n``: its number in the log)."""
    at = entry.at.timestamp() if entry.at is not None else 0.0
    body = entry.body
    out = {"type": "chat", "n": entry.seq, "seat": entry.seat, "name": body["name"],
           "text": body["text"], "channel": "table" if entry.channel == "table" else "team",
           "at": round(at, 3)}
    if body.get("phrase"):
        out["phrase"] = body["phrase"]
    return out
