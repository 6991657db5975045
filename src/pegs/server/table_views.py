"""The fan-out of a table to its connections: each seat's view and legal actions encoded
once per version, the state and presence messages, the public move log, and who is
connected here and (as other processes say) elsewhere."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gzip
import json
import logging
import time
from collections.abc import Iterable
from typing import Any

from ..rules import (
    PRESETS,
    Action,
    NotationError,
    view,
)
from ..rules.board import geometry
from . import protocol, records, talk
from .connection import Connection
from .limits import token_matches
from .store import SeatRow
from .table_base import TableBase
from .table_log import Entry

log = logging.getLogger("pegs.server")

#: Legal actions from which a seat's listing is encoded on a thread of its own, so the
#: event loop keeps answering meanwhile (a crowded North Carolina table: tens of ms).
LONG_LISTING = 1000
#: The most of a partner's legal actions a teammate is shown at a teaching table (to
#: suggest one); a longer listing is cut there and marked ``partial``.
PARTNER_LISTING = 2000


def _dumps(data: object) -> str:
    return json.dumps(data, separators=(",", ":"))


class TableViews(TableBase):
    """What each connection of a table is sent."""

    def _logged(self, seat: int, action: Action, said: str, timed_out: bool = False) -> None:
        """Add an action to the public move log (as a spectator's event shows it; a human
        seat's move made by its stand-in bot, or at the end of its time, marked as such)."""
        s = self.seats[seat] if 0 <= seat < len(self.seats) else None
        standin = bool(s is not None and s.kind == "human" and s.standin)
        self.log.append(records.log_entry(len(self.log) + 1, seat, action, said,
                                          standin=standin, timed_out=timed_out))

    def log_text(self) -> str:
        """``{"log": [...]}``: the public move log so far."""
        return '{"log":[' + ",".join(self.log) + "]}"

    async def log_gzipped(self) -> bytes:
        """:meth:`log_text` gzipped, once a version (compressed off the event loop)."""
        version = self.version
        if self._log_gzipped is None or self._log_gzipped[0] != version:
            text = self.log_text().encode()
            packed = await asyncio.to_thread(functools.partial(gzip.compress, text, mtime=0))
            self._log_gzipped = (version, packed)
        return self._log_gzipped[1]

    def connected(self, seat: int) -> bool:
        """Whether the seat has a connection to this process."""
        return any(c.seat == seat and not c.closed for c in self.conns)

    def here(self) -> list[int]:
        """What this process tells the others is connected to it: the seats, and -1 when
        someone watches (so no process ends a watched table as abandoned)."""
        return sorted({c.seat for c in self.conns if not c.closed})

    def heard(self, origin: str, seats: Iterable[int]) -> None:
        """Process ``origin`` has connections of these seats (and of no other)."""
        self._remote[origin] = (frozenset(seats), time.monotonic())
        self._presence_update()

    def expire_presence(self, seconds: float) -> None:
        """Forget what processes said that said nothing for ``seconds`` (one that died
        says nothing more)."""
        now = time.monotonic()
        quiet = [o for o, (_, at) in self._remote.items() if now - at >= seconds]
        for origin in quiet:
            del self._remote[origin]
        if quiet:
            self._presence_update()

    def present(self, seat: int) -> bool:
        """Whether the seat has a connection to this process or, lately, to another."""
        return self.connected(seat) or any(seat in seats for seats, _ in self._remote.values())

    def _presence_flags(self) -> list[bool]:
        return [s.kind == "bot" or self.present(s.seat) for s in self.seats]

    def seat_json(self, s: SeatRow) -> dict[str, Any]:
        return {"seat": s.seat, "name": s.name, "kind": s.kind,
                "connected": s.kind == "bot" or self.present(s.seat),
                "bot": s.bot if s.kind == "bot" or s.standin else None,
                "standin": s.standin, "away_ends": self._away_ends.get(s.seat)}

    def table_json(self) -> dict[str, Any]:
        return {
            "code": self.code, "status": self.status, "host": self.host, "hints": self.hints,
            "version": self.version, "preset": self.rules.name,
            "title": PRESETS[self.rules.name].title, "players": self.rules.players,
            "teams": self.rules.teams, "settings": protocol.rules_json(self.rules),
            "seats": [self.seat_json(s) for s in self.seats], "public": self.public,
            "turn_seconds": self.turn_seconds, "away_seconds": self.away_seconds,
            "bot_delay": self.bot_delay, "teaching": self.teaching,
            "muted": sorted(s for s in self.muted if s >= 0),
            "spectators_chat": -1 not in self.muted,
            "next": self.next, "rematch": sorted(self.rematch),
            "rematch_bots": sorted(self.rematch_bots), "house": self.house,
        }

    def seat_of(self, token: str) -> int | None:
        """The seat whose token this is (every seat compared, in constant time)."""
        found = None
        for s in self.seats:
            if token_matches(token, s.token_hash):
                found = s.seat
        return found

    def state_text(self, seat: int) -> str:
        """The ``state`` message for ``seat`` (-1: spectators), put together from parts
        encoded once per version (the seat's own part) or per presence change (the table),
        so a connect or reconnect rebuilds nothing."""
        part = self._parts.get(seat)
        if part is None:
            part = self._parts[seat] = self._part_text(seat)
        return (f'{{"type":"state","version":{self.version},"seat":{seat},'
                f'"turn_ends":{_dumps(self.turn_ends)},{self.shared_text()},{part}')

    def shared_text(self) -> str:
        """The members of a ``state`` message that every seat shares (table, rules,
        board)."""
        if self._table is None:
            self._table = _dumps(self.table_json())
        return (f'"table":{self._table},"rules":{protocol.rules_text(self.rules)},'
                f'"board":{protocol.board_text(self.rules)}')

    def _part_text(self, seat: int) -> str:
        """The seat's own part of its state, as JSON object members."""
        return _dumps(self._seat_part(seat))[1:]

    async def _prepare(self, seat: int) -> None:
        """Encode the part of the seat to act, or of a partner shown its listing, on another
        thread when the listing is long (the GIL is handed back to the event loop every
        few milliseconds)."""
        state = self.state
        if (seat in self._parts or state is None
                or not (self._to_act(seat) or self._teaches(seat))
                or len(state.legal_actions()) < LONG_LISTING):
            return
        era = self._era
        part = await asyncio.to_thread(self._part_text, seat)
        if self._era == era:  # nothing changed meanwhile
            self._parts.setdefault(seat, part)

    def _seat_part(self, seat: int) -> dict[str, Any]:
        """What differs between seats: the view, the legal actions, the last action."""
        state = self.state
        part: dict[str, Any] = {"view": None, "legal": None, "last": None}
        if state is None:
            return part
        part["view"] = protocol.view_json(view(state, seat))
        if self._to_act(seat):
            part["legal"] = protocol.legal_compact(state, state.legal_actions())
        elif self._teaches(seat):
            legal = state.legal_actions()
            part["partner_legal"] = protocol.legal_compact(state, legal[:PARTNER_LISTING])
            if len(legal) > PARTNER_LISTING:
                part["partner_legal"]["partial"] = True
        if self.last is not None:
            actor, action, said = self.last
            part["last"] = {"seat": actor, "action": protocol.hidden_text(action, actor, seat),
                            "announcement": said}
        return part

    def _to_act(self, seat: int) -> bool:
        """Whether ``seat`` is a human seat to act now (so it is offered legal actions)."""
        state = self.state
        return (seat >= 0 and state is not None and self.status == "playing"
                and not state.is_over() and state.current_player == seat
                and not self.bot_controlled(seat))

    def _teaches(self, seat: int) -> bool:
        """Whether, at a teaching table, ``seat``'s partner is the human seat to act: then
        ``seat`` is shown the partner's legal actions, to suggest one (:mod:`.chat`)."""
        state = self.state
        if not (self.teaching and self.rules.teams and seat >= 0 and state is not None):
            return False
        mover, team_of = state.current_player, geometry(self.rules).team_of
        return mover != seat and team_of[mover] == team_of[seat] and self._to_act(mover)

    def explain(self, seat: int, texts: list[object]) -> dict[str, Any]:
        """The ``explain`` answer: announcements of these legal actions of ``seat``."""
        state = self.state
        if state is None or not self._to_act(seat):
            return protocol.error("not_your_turn", "only the seat to act is offered actions")
        legal = state.legal_actions()
        offered = {}
        for text in texts:  # looked up one by one: a crowded table lists thousands
            if isinstance(text, str) and text not in offered:
                with contextlib.suppress(NotationError):
                    action = Action.parse(text)
                    if action in legal:
                        offered[text] = action
        return {"type": "explain", "version": self.version,
                "announcements": protocol.explain(state, offered, texts, self._said)}

    def _forget(self) -> None:
        """Drop the cached messages after a change."""
        self._era += 1
        self._parts.clear()
        self._table = None
        self._said = {}

    def changed(self) -> None:
        """The table changed: everyone gets the new state."""
        self._forget()
        self._turn_clock()
        self._presence_update(tell=False)  # the state tells it
        for c in self.conns:
            c.send(self.state_text(c.seat))

    def attach(self, conn: Connection) -> None:
        """A new connection gets the state (from the cached parts); the others learn of a
        seat that came back with a small ``presence`` message, the other processes of its
        seat's first connection here."""
        back = conn.seat >= 0 and not self.connected(conn.seat)
        first = not self.connected(conn.seat)  # of the seat's, or of the spectators
        self.conns.append(conn)
        if first:
            self.env.presence_changed(self.code)
        if back:
            self._presence_update(skip=conn)
            self._stand_down(conn.seat)
        conn.send(self.state_text(conn.seat))

    def detach(self, conn: Connection) -> None:
        if conn in self.conns:
            self.conns.remove(conn)
            conn.close()
            if not self.connected(conn.seat):  # the seat's last, or the last spectator
                self.env.presence_changed(self.code)
                if conn.seat >= 0:
                    self._presence_update()

    def drop_seat_connections(self, seat: int) -> None:
        """Tell the connections of ``seat`` they were removed from it, and close them."""
        text = _dumps(protocol.error("removed", f"the host removed you from seat {seat}; "
                                     "join again if a seat is free"))
        for c in self.conns:
            if c.seat == seat:
                c.finish(text)

    def _presence_update(self, skip: Connection | None = None, tell: bool = True) -> None:
        """When a seat's presence (here or through another process) changed: tell every
        connection (but ``skip``) which seats are connected now, and start or stop the
        changed seats' away clocks."""
        flags = self._presence_flags()
        if flags == self._shown:
            return
        before, self._shown = self._shown, flags
        self._table = None
        changed = [s for s, (was, now) in enumerate(zip(before, flags, strict=True))
                   if was != now]
        for seat in changed:  # first: the message below says when each stand-in comes
            self._away_clock(seat)
        if tell:
            text = _dumps({"type": "presence", "version": self.version, "connected": flags,
                           "away_ends": [self._away_ends.get(s.seat) for s in self.seats]})
            for c in self.conns:
                if c is not skip:
                    c.send(text)
        for seat in changed:
            if flags[seat]:
                self._stand_down(seat)

    def _deliver(self, entry: Entry) -> None:
        """A chat entry to every connection that may read its channel (the sender's copy
        carries its message's ``id``)."""
        shown = talk.message(entry)
        text = talk.dumps(shown)
        sender, msg_id = self._senders.get(entry.seq, (None, None))
        for c in self.conns:
            if entry.channel in talk.readable(self.rules, self.teaching, c.seat):
                c.send(talk.dumps({**shown, "id": msg_id}) if c is sender else text)
