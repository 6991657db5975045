"""A live table in memory: the game state, the connections, broadcasting and bot turns.

Every change to a table happens under its lock, is stored first (one transaction, off the
event loop) and only then is broadcast.  Bots and hints think in worker processes
(:mod:`.thinking`) so the server keeps answering while they search.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any

from ..notation import SEAT_COLOURS, announce
from ..rules import (
    Action,
    GameState,
    IllegalActionError,
    NotationError,
)
from . import protocol, refusals, table_log, talk
from .connection import Connection
from .retry import Backoff
from .store import SeatRow
from .store_errors import LeaseLost, StoreError, VersionConflict
from .table_base import ABANDONED
from .table_duties import TableDuties
from .table_log import Entry
from .table_views import TableViews

log = logging.getLogger("pegs.server")

BOT_KINDS = ("random", "heuristic", "ismcts")


class TableError(Exception):
    """A refused HTTP request: status, code and a message for the user."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


#: How the page names each bot's level (a person's level, not the algorithm).
BOT_LEVELS = {"random": "beginner", "heuristic": "club player", "ismcts": "expert"}
_PACE = {"easy": ", quick", "strong": ", thorough"}


def bot_label(seat: int, kind: str, strength: str | None) -> str:
    """A bot's display name: its seat colour and level ("Blue bot, expert"), distinct per
    seat."""
    level = BOT_LEVELS.get(kind, kind)
    if kind == "ismcts" and strength:
        level += _PACE.get(strength, "")
    return f"{SEAT_COLOURS[seat][0]} bot, {level}"


def _dumps(data: object) -> str:
    return json.dumps(data, separators=(",", ":"))


class Room(TableViews, TableDuties):
    """One table: the authority over its game (it checks, applies, stores and publishes
    every move, and takes in its log's entries in order), with its fan-out and duties."""

    async def act(self, seat: int, text: object, version: object,
                  actor: str = "human") -> dict[str, Any] | None:
        """Apply an action of ``seat`` made at ``version``; an error message if refused.
        ``actor``: ``human``, ``bot`` (of a bot seat or a stand-in) or ``timer`` (the
        stand-in's move for a human whose time ran out)."""
        async with self.lock:
            state = self.state
            if state is None or self.status == "waiting":
                return protocol.error("not_started", "the game has not started yet")
            if state.is_over():
                return protocol.error("game_over", "the game is over")
            if seat < 0:
                return protocol.error("not_your_turn", "spectators watch; they cannot act")
            if actor != "human" and not self.owned:
                return protocol.error("not_your_turn", "another process runs this table")
            if version != self.version:
                return protocol.error("stale_version", f"the game is at version {self.version}, "
                                      f"not {version}: act on the latest state")
            if state.current_player != seat:
                return protocol.error("not_your_turn",
                                      f"it is seat {state.current_player}'s turn, not yours")
            if self.bot_controlled(seat) != (actor == "bot"):
                return protocol.error("not_your_turn",
                                      "a bot is playing this seat: reclaim it first")
            try:
                action = text if isinstance(text, Action) else Action.parse(str(text))
                action = refusals.listed(state, action)
            except (NotationError, IllegalActionError) as e:
                return protocol.error("illegal", str(e))
            # the table's words: an option's words may show a face-down card's real rank, and
            # a doubt's announcement tells everyone what the card was
            said = None if action.decision or action.declared else self._said.get(str(action))
            said = said or announce(state, action)
            after = state.apply(action)
            status = "finished" if after.is_over() else "playing"
            ends = self._new_deadline(after)
            epoch = None if actor == "human" else self._fence()
            try:
                await self.env.run_db(self.env.store.append, self.code, self.version + 1, seat,
                                      str(action), status, ends, actor == "timer", epoch)
            except VersionConflict:  # another process stored an action first
                with contextlib.suppress(StoreError):  # else the next act catches up
                    await self.catch_up()
                return protocol.error("stale_version", f"the game is at version "
                                      f"{self.version}: act on the latest state")
            except LeaseLost:
                self.let_go()
                return protocol.error("not_your_turn", "another process runs this table")
            except StoreError as e:
                log.warning("table %s: storing action %d failed: %s", self.code,
                            self.version + 1, e)
                await self._resync()
                return protocol.error("unavailable", "the database did not answer; the "
                                      "action was not taken: try again in a moment")
            self._deadline = (self.version + 1, ends)
            await self._applied(seat, action, said, after, actor == "timer")
        self.kick_bots()
        return None

    def _new_deadline(self, after: GameState) -> float | None:
        """When the clock of the turn after an action ends (None: a bot's turn, the end,
        or no clock at this table)."""
        seconds = self._seconds(self.turn_seconds)
        seat = after.current_player
        if seconds is None or after.is_over() or self.bot_controlled(seat):
            return None
        return round(time.time() + seconds, 3)

    async def _applied(self, seat: int, action: Action, said: str, after: GameState,
                       timed_out: bool = False) -> None:
        """Take a stored action into the table and tell every connection (under the lock)."""
        self.state = after
        self.status = "finished" if after.is_over() else "playing"
        self.actions.append(action)
        self.texts.append(str(action))
        self._turn_passed()
        self.last = (seat, action, said)
        self._logged(seat, action, said, timed_out)
        self._forget()
        self._turn_clock()
        if self.status == "finished":
            self._stop_clocks()
        for listed in range(len(self.seats)):  # the seat to act and any partner it teaches
            await self._prepare(listed)
        events: dict[str, str] = {}
        for c in self.conns:
            shown = protocol.hidden_text(action, seat, c.seat)
            event = events.get(shown)
            if event is None:
                said_by: dict[str, Any] = {"timed_out": True} if timed_out else {}
                event = events[shown] = _dumps({
                    "type": "event", "version": self.version, "seat": seat,
                    "action": shown, "announcement": said, **said_by})
            c.send(event)
            c.send(self.state_text(c.seat))

    def poke(self) -> None:
        """Another process changed the table: catch up soon (changes arriving meanwhile
        are taken in the same catching up)."""
        self._stale = True
        if self._syncing is None or self._syncing.done():
            self._syncing = asyncio.create_task(self._sync())

    async def _sync(self) -> None:
        backoff = Backoff()
        while self._stale:
            self._stale = False
            try:
                async with self.lock:
                    await self.catch_up()
            except StoreError:  # the database is away: try again
                log.warning("table %s: cannot catch up with the database", self.code)
                self._stale = True
                await backoff.wait()
                continue
            except Exception:
                log.exception("table %s: cannot catch up with the database", self.code)
                return
            backoff.succeeded()
        self.kick_bots()

    def take_over(self, epoch: int) -> None:
        """This process now holds the table's lease at ``epoch``: catch up, start the
        clocks afresh and let the bots play."""
        log.info("table %s: this process runs it now", self.code)
        self.epoch = epoch
        self._spawn(self._take_over(epoch))

    async def _take_over(self, epoch: int) -> None:
        try:
            async with self.lock:
                await self.catch_up()
                if self.epoch == epoch:
                    self.start_clocks()
        except StoreError:  # the next renewal of the leases takes it over again
            log.warning("table %s: cannot take it over now", self.code)
            if self.epoch == epoch:
                self.let_go()
            return
        self.kick_bots()

    def let_go(self) -> None:
        """This process no longer holds the table's lease (another process took it, or it
        ran out): no more bots, stand-ins or clocks here."""
        if self.epoch is not None:
            log.info("table %s: this process no longer runs it", self.code)
        self.epoch = None
        self._stop_clocks()
        self.turn_ends = self._clock_shown()
        if self.bot_task is not None:
            self.bot_task.cancel()
        for job in (self._bot_job, self._turn_job):
            if job is not None:
                job.drop()

    async def catch_up(self) -> None:
        """Take what other processes stored (moves in version order, the log's entries in
        number order, each entry after the move it followed) into the table and tell every
        connection (under the lock)."""
        rows = await self.env.run_db(self.env.store.load, None, self.code, self.version,
                                     self.seq)
        if not rows:
            return
        row = rows[0]
        # the clock as stored (the owner keeps the one it set at this version)
        if row.version > self._deadline[0] or not self.owned:
            self._deadline = (row.version, row.turn_ends)
        entries = [e for e in row.entries if e.seq > self.seq]
        for text in row.actions:
            while entries and entries[0].version <= self.version:
                self._entered(entries.pop(0))
            state = self.state
            assert state is not None
            action = Action.parse(text)
            seat = state.current_player
            await self._applied(seat, action, announce(state, action), state.apply(action),
                                self.version + 1 in row.timed_out)
        for entry in entries:
            self._entered(entry)
        self.seq = max(self.seq, row.log_seq)  # later ones were pruned (old chat)
        if row.status == ABANDONED and self.status == "playing":  # its owner ended it
            self.status = ABANDONED
            self._stop_clocks()
            self.changed()
        elif not row.actions and self._clock_shown() != self.turn_ends:
            self.changed()  # only the clock changed

    async def _resync(self) -> None:
        """After a failed write, take the game as stored (a commit whose answer was lost
        counts), so memory and database agree again."""
        try:
            rows = await self.env.run_db(self.env.store.load, None, self.code)
        except StoreError as e:
            log.warning("table %s: cannot read it back: %s", self.code, e)
            return
        if rows and len(rows[0].actions) != self.version:
            fresh = Room(self.env, rows[0])
            self.state, self.status, self.last = fresh.state, fresh.status, fresh.last
            self.actions, self.texts, self.log = fresh.actions, fresh.texts, fresh.log
            self._turn_passed()
            self.changed()

    def close(self) -> None:
        """The server stops: no more clocks or background work."""
        self._stop_clocks()
        for task in (*self._chores, self.bot_task, self._syncing):
            if task is not None:
                task.cancel()

    async def save_seat(self, seat: SeatRow, fenced: bool = False) -> None:
        """Store a seat, then take it into the table and tell everyone (under the lock);
        ``fenced``: the owner's write (a stand-in), only while it holds the table's lease."""
        await self.take(await self.env.run_db(self.env.store.save_seat, self.code, seat,
                                              self._fence() if fenced else None))

    async def take_seat(self, seat: SeatRow, kinds: tuple[str, ...] = ("empty",)) -> bool:
        """Store a seat if it is still of one of ``kinds`` in the database and the table
        still waits (then as :meth:`save_seat`); else take the table as stored: False."""
        entry = await self.env.run_db(self.env.store.take_seat, self.code, seat, kinds)
        if entry is not None:
            await self.take(entry)
            return True
        await self.catch_up()
        return False

    def _seated(self, seat: SeatRow) -> None:
        self.seats[seat.seat] = seat
        self.bot_seeds.pop(seat.seat, None)
        if self._bot_job is not None:
            self._bot_job.drop()  # the seat's bot may be another now
        self.changed()
        self._away_clock(seat.seat)

    async def start(self) -> None:
        """Deal and start, if the table as stored still waits with every seat filled."""
        entry = await self.env.run_db(self.env.store.start, self.code)
        if entry is None:
            await self.catch_up()
            if self.status != "waiting":
                raise TableError(409, "started", "the game has already started")
            empty = [s.seat for s in self.seats if s.kind == "empty"]
            raise TableError(409, "seats_empty", "seats " + ", ".join(map(str, empty))
                             + " are empty: fill them with bots or wait for players")
        await self.take(entry)

    async def take(self, entry: Entry, sender: Connection | None = None,
                   msg_id: object = None) -> None:
        """Take in an entry this process stored, under the lock: at once when it is the
        next one, else with those before it (:meth:`catch_up`). ``sender``: the connection
        whose message it is (its copy carries ``msg_id``)."""
        if sender is not None:
            self._senders[entry.seq] = (sender, msg_id)
        if entry.seq == self.seq + 1 and entry.version == self.version:
            self._entered(entry)
        elif entry.seq > self.seq:
            await self.catch_up()
        self._senders.pop(entry.seq, None)

    def _entered(self, entry: Entry) -> None:
        """Act on the table's next log entry (stored, by any process) and tell the
        connections."""
        self.seq = entry.seq
        body = entry.body
        if entry.kind == table_log.CHAT:
            self._deliver(entry)
        elif entry.kind == table_log.SUGGEST:
            shown = talk.dumps({"type": "suggest",
                                **{k: v for k, v in body.items() if k != "team"}})
            for c in self.conns:
                if c.seat >= 0 and talk.team_channel(self.rules, c.seat) == body["team"]:
                    c.send(shown)
        elif entry.kind == table_log.SEAT:
            seat = SeatRow(**body)
            if seat != self.seats[seat.seat]:
                self._seated(seat)
            self._stand_down(seat.seat)
        elif entry.kind == table_log.START and self.state is None:
            self.status = "playing"
            self.state = GameState.new(self.rules, self.seed)
            self.begin()
        elif entry.kind == table_log.MUTED:
            self.muted = set(body["muted"])
            self.changed()
        elif entry.kind == table_log.REMATCH:
            self.rematch, self.rematch_bots = set(body["agreed"]), set(body["bots"])
            self.next = body["next"]
            self.changed()

    def begin(self) -> None:
        """The game is on (stored as playing): everyone gets the deal; clocks and bots
        start."""
        self.start_clocks()
        self.changed()
        self.kick_bots()
