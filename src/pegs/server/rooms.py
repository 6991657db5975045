"""A live table in memory: the game state, the connections, broadcasting and bot turns.

Every change to a table happens under its lock, is stored first (one transaction, off the
event loop) and only then is broadcast.  Bots and hints think in worker processes
(:mod:`.thinking`) so the server keeps answering while they search.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gzip
import json
import logging
import time
from collections.abc import Coroutine, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..hint import HintError
from ..notation import SEAT_COLOURS, announce
from ..rules import (
    Action,
    GameState,
    IllegalActionError,
    NotationError,
    Rules,
    view,
)
from ..rules.board import geometry
from . import protocol, records, refusals, thinking
from .limits import Limits, RateBucket, token_matches
from .retry import Backoff
from .store import LeaseLost, SeatRow, StoreError, TableRow, VersionConflict
from .thinking import Dropped, Game, Job

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("pegs.server")

BOT_KINDS = ("random", "heuristic", "ismcts")
#: Legal actions from which a seat's listing is encoded on a thread of its own, so the
#: event loop keeps answering meanwhile (a crowded North Carolina table: tens of ms).
LONG_LISTING = 1000
#: The most of a partner's legal actions a teammate is shown at a teaching table (to
#: suggest one); a longer listing is cut there and marked ``partial``.
PARTNER_LISTING = 2000


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


#: Message ids a connection remembers to refuse a message sent twice.
SEEN_KEPT = 1024


class Connection:
    """One client's WebSocket: its seat and address, an outbox drained by a sender task,
    the ids it used lately and its hints being searched."""

    def __init__(self, seat: int, limits: Limits, address: str = "") -> None:
        self.seat = seat
        self.address = address
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue(limits.outbox_size)
        self.illegal = RateBucket(limits.illegal_per_second, limits.illegal_burst)
        self.chat = RateBucket(limits.chat_per_second, limits.chat_burst)
        self.seen: dict[object, None] = {}  # the latest SEEN_KEPT ids, oldest first
        self.tasks: set[asyncio.Task[None]] = set()
        self.closed = False

    def saw(self, msg_id: object) -> bool:
        """Whether ``msg_id`` was used lately; it is now (the oldest is forgotten)."""
        if msg_id in self.seen:
            return True
        self.seen[msg_id] = None
        if len(self.seen) > SEEN_KEPT:
            del self.seen[next(iter(self.seen))]
        return False

    def send(self, text: str) -> None:
        """Queue a message; a client too slow to keep up is cut off."""
        if self.closed:
            return
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.close()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            while not self.outbox.empty():
                self.outbox.get_nowait()
            self.outbox.put_nowait(None)

    def finish(self, text: str) -> None:
        """Send a last message, then close."""
        if not self.closed:
            try:
                self.outbox.put_nowait(text)
                self.outbox.put_nowait(None)
                self.closed = True
            except asyncio.QueueFull:
                self.close()


class Room:
    """One table: seats, game state, connections."""

    def __init__(self, hub: Hub, row: TableRow, built: records.Rebuilt | None = None,
                 ) -> None:
        self.hub = hub
        self.code = row.code
        self.settings = row.settings
        self.rules = Rules.from_settings(row.settings)
        self.seed = row.seed
        self.hints = row.hints
        self.status = row.status
        self.host = row.host
        self.seats = row.seats
        self.public, self.creator, self.created = row.public, row.creator, row.created
        #: a human's time for a turn, and before a stand-in covers a seat with no
        #: connection (None: no limit); the bots' pause before a move (None: the server's)
        self.turn_seconds, self.away_seconds = row.turn_seconds, row.away_seconds
        self.bot_delay = row.bot_delay
        #: table talk (:mod:`.chat`): a teaching table, and the seats the host muted (-1:
        #: spectators)
        self.teaching, self.muted = row.teaching, set(row.muted)
        #: house rules' title, description and code, shown with the table (or None)
        self.house = row.house
        self.state: GameState | None = None
        self.actions: list[Action] = []
        #: the actions' texts, as the workers replay them
        self.texts: list[str] = []
        #: the public move log: one event per action, as spectators saw it (JSON texts)
        self.log: list[str] = []
        self._log_gzipped: tuple[int, bytes] | None = None  # (version, the log gzipped)
        self.last: tuple[int, Action, str] | None = None
        self.conns: list[Connection] = []
        self.lock = asyncio.Lock()
        #: each bot seat's seed (a move's seed follows from it and the version)
        self.bot_seeds: dict[int, int] = {}
        self.bot_task: asyncio.Task[None] | None = None
        self._bot_job: Job | None = None
        #: per seat, the version of its last hint and the hint's job
        self._hints: dict[int, tuple[int, Job]] = {}
        #: the clock of the human seat to act: when it ends (Unix time), its timer, and the
        #: stand-in's move when it ran out
        self.turn_ends: float | None = None
        #: the clock's end as stored for a version (by the append that made it, or by the
        #: owner that started the clock): every process shows the same
        self._deadline: tuple[int, float | None] = (row.version, row.turn_ends)
        self._deadline_writer: asyncio.Task[None] | None = None
        self._turn_timer: asyncio.TimerHandle | None = None
        self._clock_for: tuple[int, int] | None = None
        self._turn_job: Job | None = None
        #: seats with no connection, waiting for a stand-in: the timers, and when each
        #: stand-in takes over (Unix time; sent as the seat's ``away_ends``)
        self._away: dict[int, asyncio.TimerHandle] = {}
        self._away_ends: dict[int, float] = {}
        self._chores: set[asyncio.Task[None]] = set()
        #: another process changed the table: catch up (the task doing it, and whether
        #: another change came meanwhile)
        self._syncing: asyncio.Task[None] | None = None
        self._stale = False
        #: on PostgreSQL, the epoch of the table's lease while this process holds it (it
        #: then runs the table's bots, stand-ins and clocks, see :mod:`.leases`)
        self.epoch: int | None = None
        #: per other process: the seats it last said it has connections of, and when
        self._remote: dict[str, tuple[frozenset[int], float]] = {}
        #: per seat, what only it sees at this version (view, legal, last), encoded once
        self._parts: dict[int, str] = {}
        #: counts the changes that make the parts stale
        self._era = 0
        #: the table's JSON, encoded once until a seat or its presence changes
        self._table: str | None = None
        #: the announcements of legal actions at this version, by text
        self._said: dict[str, str] = {}
        #: after the end: the seats that agreed to play again, and the rematch's code
        self.rematch: set[int] = set(row.rematch)
        #: of those, the seats handed to a stand-in bot for the rematch by another player
        self.rematch_bots: set[int] = set(row.rematch_bots)
        self.next: str | None = row.next
        if self.status != "waiting":  # the game replayed (here, or by a worker: built)
            built = built or records.rebuild(self.rules, self.seed, row.actions)
            self.actions, self.state, self.last = built.actions, built.state, built.last
            self.texts = list(row.actions)
            self.log = built.log
        #: the seats' presence as the connections were last told
        self._shown = self._presence_flags()

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

    # --- reading -----------------------------------------------------------------------
    @property
    def version(self) -> int:
        return len(self.actions)

    @property
    def owned(self) -> bool:
        """Whether this process runs the table's bots, stand-ins and clocks (on SQLite it
        runs every table)."""
        return self.epoch is not None or not self.hub.store.shared

    def _fence(self) -> int | None:
        """The lease epoch an owner's write must still hold (None on SQLite)."""
        return self.epoch if self.hub.store.shared else None

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
            "version": self.version, "preset": self.rules.name, "players": self.rules.players,
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

    def bot_controlled(self, seat: int) -> bool:
        s = self.seats[seat]
        return s.kind == "bot" or s.standin

    def game(self) -> Game:
        """The game as a worker rebuilds it."""
        return Game(self.code, self.settings, self.seed, tuple(self.texts))

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

    # --- broadcasting -------------------------------------------------------------------
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
            self.hub.presence.changed(self)
        if back:
            self._presence_update(skip=conn)
            if self.seats[conn.seat].standin:
                self._spawn(self._reclaim(conn.seat))
        conn.send(self.state_text(conn.seat))

    def detach(self, conn: Connection) -> None:
        if conn in self.conns:
            self.conns.remove(conn)
            conn.close()
            if not self.connected(conn.seat):  # the seat's last, or the last spectator
                self.hub.presence.changed(self)
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
        for seat, (was, now) in enumerate(zip(before, flags, strict=True)):
            if was != now:
                self._away_clock(seat)
        if tell:
            text = _dumps({"type": "presence", "version": self.version, "connected": flags,
                           "away_ends": [self._away_ends.get(s.seat) for s in self.seats]})
            for c in self.conns:
                if c is not skip:
                    c.send(text)

    # --- playing ------------------------------------------------------------------------
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
                await self.hub.run_db(self.hub.store.append, self.code, self.version + 1, seat,
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
        """Take what other processes stored (seats, the start, actions in version order)
        into the table and tell every connection (under the lock)."""
        rows = await self.hub.run_db(self.hub.store.load, None, self.code, self.version)
        if not rows:
            return
        row = rows[0]
        # the clock as stored (the owner keeps the one it set at this version)
        if row.version > self._deadline[0] or not self.owned:
            self._deadline = (row.version, row.turn_ends)
        if row.seats != self.seats:
            self.seats = row.seats
            self.bot_seeds.clear()
            self.changed()
            for s in self.seats:
                self._away_clock(s.seat)
        if (row.next, set(row.rematch), set(row.rematch_bots)) != (
                self.next, self.rematch, self.rematch_bots):
            self.next, self.rematch = row.next, set(row.rematch)
            self.rematch_bots = set(row.rematch_bots)
            self.changed()
        if set(row.muted) != self.muted:  # the host muted a seat through another process
            self.muted = set(row.muted)
            self.changed()
        if row.status != "waiting" and self.state is None:
            self.status = "playing"
            self.state = GameState.new(self.rules, self.seed)
            self.changed()
            self.start_clocks()
        for text in row.actions:
            state = self.state
            assert state is not None
            action = Action.parse(text)
            seat = state.current_player
            await self._applied(seat, action, announce(state, action), state.apply(action),
                                self.version + 1 in row.timed_out)
        if not row.actions and self._clock_shown() != self.turn_ends:
            self.changed()  # only the clock changed

    async def _resync(self) -> None:
        """After a failed write, take the game as stored (a commit whose answer was lost
        counts), so memory and database agree again."""
        try:
            rows = await self.hub.run_db(self.hub.store.load, None, self.code)
        except StoreError as e:
            log.warning("table %s: cannot read it back: %s", self.code, e)
            return
        if rows and len(rows[0].actions) != self.version:
            fresh = Room(self.hub, rows[0])
            self.state, self.status, self.last = fresh.state, fresh.status, fresh.last
            self.actions, self.texts, self.log = fresh.actions, fresh.texts, fresh.log
            self._turn_passed()
            self.changed()

    def _bot_to_act(self) -> int | None:
        state = self.state
        if self.status != "playing" or state is None or state.is_over():
            return None
        seat = state.current_player
        return seat if self.bot_controlled(seat) else None

    def kick_bots(self) -> None:
        """Start the bot loop if this process runs the table, a bot is to act and the loop
        is not running."""
        if (self.owned and (self.bot_task is None or self.bot_task.done())
                and self._bot_to_act() is not None):
            self.bot_task = asyncio.create_task(self._bot_loop())

    async def _bot_loop(self) -> None:
        """While this process runs the table and a bot is to act: play its move; after a
        database failure try again with growing pauses."""
        backoff = Backoff()
        while self.owned and (seat := self._bot_to_act()) is not None:
            try:
                failed = await self._bot_turn(seat)
            except Exception:
                log.exception("table %s: the bot of seat %d failed", self.code, seat)
                failed = True
            if failed:
                await backoff.wait()
            else:
                backoff.succeeded()

    async def _bot_turn(self, seat: int) -> bool:
        """Play the move of ``seat``'s bot; whether the database failed to store it."""
        version = self.version
        delay = self.hub.bot_delay if self.bot_delay is None else self.bot_delay
        delay = max(delay, self.hub.limits.min_bot_delay)
        if delay:
            await asyncio.sleep(delay)
            if self._bot_to_act() != seat or self.version != version:
                return False
        self._bot_job = job = self._bot_move(seat, version)
        action = await self._answer(job, seat)
        if action is None or self.version != version:
            return False
        refusal = await self._bot_act(seat, action, version, "bot")
        return refusal is not None and refusal["code"] == "unavailable"

    async def _bot_act(self, seat: int, action: Action, version: int,
                       actor: str) -> dict[str, Any] | None:
        """Play a bot's action; one the table refuses as illegal (a bug: the same seed would
        choose it again) is replaced by the first legal action. The refusal, if any."""
        refusal = await self.act(seat, action, version, actor)
        if refusal is not None and refusal["code"] == "illegal" and self.state is not None:
            log.error("table %s: the bot of seat %d chose %s: %s", self.code, seat, action,
                      refusal["message"])
            refusal = await self.act(seat, self.state.legal_actions()[0], version, actor)
        return refusal

    @property
    def owner(self) -> str:
        """Whose share of the worker lanes the table's searches take: its creator's
        address."""
        return self.creator or self.code

    def _bot_move(self, seat: int, version: int) -> Job:
        """Ask the bot lane for the move of ``seat``'s bot (or stand-in) at ``version``."""
        s = self.seats[seat]
        kind = s.bot or "heuristic"
        seconds = thinking.search_seconds(kind, s.strength, self.hub.limits.max_bot_seconds)
        seed = self.bot_seeds.setdefault(seat, thinking.new_bot_seed())
        return self.hub.bot_lane.submit(self.owner, self.code, thinking.bot_move,
                                        self.game(), seat, kind, seconds,
                                        thinking.move_seed(seed, version), seconds=seconds)

    async def _answer(self, job: Job, seat: int) -> Action | None:
        """The bot's action; None if no longer wanted; the first legal one if it failed."""
        state = self.state
        try:
            return Action.parse(await job.future)
        except Dropped:
            return None
        except Exception:
            log.exception("table %s: the bot of seat %d failed; it plays the first legal "
                          "action", self.code, seat)
            return state.legal_actions()[0] if state is not None else None

    async def hint(self, seat: int) -> dict[str, Any]:
        """A hint for the seat to act, searched by a worker: one per seat and turn; a hint
        still searching when the turn passes is dropped."""
        state = self.state
        if not self.hints:
            return protocol.error("no_hints", "hints are off at this table")
        if state is None or self.status == "waiting":
            return protocol.error("not_started", "the game has not started yet")
        if state.is_over():
            return protocol.error("game_over", "the game is over")
        if seat < 0 or state.current_player != seat:
            return protocol.error("not_your_turn", "hints are for the seat to act")
        asked = self._hints.get(seat)
        if asked is not None and asked[0] == self.version:
            return protocol.error("rate_limited", "one hint a turn: this turn's hint was "
                                  "already asked for")
        seconds = self.hub.hint_seconds
        job = self.hub.hint_lane.submit(self.owner, self.code, thinking.hint, self.game(),
                                        seat, seconds, seconds=seconds)
        self._hints[seat] = (self.version, job)
        try:
            action, said, reason = await job.future
        except asyncio.CancelledError:  # the asker left
            job.drop()
            raise
        except Dropped:
            return protocol.error("not_your_turn", "the turn passed before the hint was ready")
        except HintError as e:
            return protocol.error("not_your_turn", str(e))
        return {"type": "hint", "action": action, "announcement": said, "reason": reason}

    def _turn_passed(self) -> None:
        """Hints still searching, and a stand-in's move for a timed-out turn, are no longer
        wanted."""
        for _, job in self._hints.values():
            job.drop()
        if self._turn_job is not None:
            self._turn_job.drop()

    # --- clocks -------------------------------------------------------------------------
    def _seconds(self, value: float | None) -> float | None:
        return None if value is None else max(value, self.hub.limits.min_timer_seconds)

    def start_clocks(self) -> None:
        """Start the turn clock and the away clocks (on start, and again on resume after a
        restart or when this process takes the table over: the clocks begin afresh)."""
        if self.owned:
            self._deadline = (self.version, None)
        self._turn_clock()
        for s in self.seats:
            self._away_clock(s.seat)

    def _stop_clocks(self) -> None:
        if self._turn_timer is not None:
            self._turn_timer.cancel()
        self._turn_timer = self.turn_ends = self._clock_for = None
        for timer in self._away.values():
            timer.cancel()
        self._away.clear()
        if self._away_ends:
            self._away_ends.clear()
            self._table = None

    def close(self) -> None:
        """The server stops: no more clocks or background work."""
        self._stop_clocks()
        for task in (*self._chores, self.bot_task, self._syncing):
            if task is not None:
                task.cancel()

    def _clocked(self) -> bool:
        """Whether the human seat to act at this version has a turn clock."""
        state = self.state
        return (state is not None and self._seconds(self.turn_seconds) is not None
                and self._to_act(state.current_player)
                and self._deadline[0] <= self.version)  # else a later turn is stored

    def _clock_shown(self) -> float | None:
        """The end of this turn's clock as stored, if the turn has a clock."""
        version, ends = self._deadline
        return ends if version == self.version and self._clocked() else None

    def _turn_clock(self) -> None:
        """Show the clock of the human seat to act as stored with the table; in the owner,
        also run it: when none is stored for this turn (the start, a take-over, a seat
        given back mid-turn), start one and store it; when the turn has no clock any more,
        store that (a clock already running for this seat and version runs on)."""
        seconds = self._seconds(self.turn_seconds)
        state = self.state
        turn = ((state.current_player, self.version)
                if self._clocked() and state is not None else None)
        if self.owned:
            version, ends = self._deadline
            if turn is None and version == self.version and ends is not None:
                self._store_deadline(None)
            elif turn is not None and seconds is not None and (
                    version != self.version or ends is None):
                self._store_deadline(round(time.time() + seconds, 3))
        self.turn_ends = self._clock_shown()
        if turn is not None and turn == self._clock_for and self._turn_timer is not None:
            return
        if self._turn_timer is not None:
            self._turn_timer.cancel()
        self._turn_timer = self._clock_for = None
        if turn is None or not self.owned or self.turn_ends is None:
            return
        self._clock_for = turn
        self._turn_timer = asyncio.get_running_loop().call_later(
            max(0.0, self.turn_ends - time.time()), self._time_out, *turn)

    def _store_deadline(self, ends: float | None) -> None:
        """The owner sets this turn's clock: kept with the table, so the other processes
        show it too (one write at a time, the latest last)."""
        self._deadline = (self.version, ends)
        if self._deadline_writer is None or self._deadline_writer.done():
            self._deadline_writer = self._spawn(self._write_deadlines())

    async def _write_deadlines(self) -> None:
        written = None
        while self._deadline != written and self.owned:
            written = self._deadline
            try:
                await self.hub.run_db(self.hub.store.set_turn_ends, self.code, *written,
                                      self._fence())
            except StoreError as e:  # the timer still runs here; the others show no clock
                log.warning("table %s: cannot store the turn clock: %s", self.code, e)
                return

    def _time_out(self, seat: int, version: int) -> None:
        self._turn_timer = self._clock_for = None
        if self.version == version and self._to_act(seat):
            self._spawn(self._play_for(seat, version))

    async def _play_for(self, seat: int, version: int) -> None:
        """The human's time ran out: the stand-in plays this turn; the seat stays theirs
        (after a database failure it tries again, with growing pauses)."""
        backoff = Backoff()
        while self.owned and self.version == version and self._to_act(seat):
            self._turn_job = job = self._bot_move(seat, version)
            action = await self._answer(job, seat)
            if action is None or self.version != version:
                return
            refusal = await self._bot_act(seat, action, version, "timer")
            if refusal is None or refusal["code"] != "unavailable":
                return
            await backoff.wait()

    def _away_clock(self, seat: int) -> None:
        """Start the away clock of a human seat that has no connection (stop it when it has
        one)."""
        timer = self._away.pop(seat, None)
        if timer is not None:
            timer.cancel()
        seconds = self._seconds(self.away_seconds)
        s = self.seats[seat]
        away = (seconds is not None and self.status == "playing" and s.kind == "human"
                and not s.standin and not self.present(seat))
        ends = round(time.time() + seconds, 3) if away and seconds is not None else None
        if self._away_ends.get(seat) != ends:  # every process shows when the stand-in comes
            self._table = None
            if ends is None:
                del self._away_ends[seat]
            else:
                self._away_ends[seat] = ends
        if away and self.owned and seconds is not None:
            self._away[seat] = asyncio.get_running_loop().call_later(
                seconds, lambda: self._spawn(self._cover(seat)))

    async def _cover(self, seat: int) -> None:
        """Nobody connected for the seat in time: a stand-in bot plays it until they come
        back."""
        self._away.pop(seat, None)
        s = self.seats[seat]
        if not self.owned or self.status != "playing" or s.kind != "human" or s.standin:
            return
        if self.present(seat):  # connected to another process: look again later
            self._away_clock(seat)
            return
        try:
            await self.save_seat(replace(s, standin=True, bot=s.bot or "heuristic"),
                                 fenced=True)
        except LeaseLost:
            self.let_go()
            return
        except StoreError:  # the database is away: look again later
            log.warning("table %s: cannot store seat %d's stand-in", self.code, seat)
            self._away_clock(seat)
            return
        self.kick_bots()

    async def _reclaim(self, seat: int) -> None:
        """A connection of a seat played by a stand-in came: the seat is the human's again."""
        s = self.seats[seat]
        if s.kind == "human" and s.standin and self.connected(seat):
            await self.save_seat(replace(s, standin=False, bot=None, strength=None))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run ``work`` in the background (failures logged)."""
        task = asyncio.create_task(work)
        self._chores.add(task)
        task.add_done_callback(self._chore_done)
        return task

    def _chore_done(self, task: asyncio.Task[None]) -> None:
        self._chores.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s: background work failed", self.code,
                      exc_info=task.exception())

    # --- seats (HTTP) ---------------------------------------------------------------------
    async def save_seat(self, seat: SeatRow, fenced: bool = False) -> None:
        """Store a seat, then take it into the table and tell everyone; ``fenced``: the
        owner's write (a stand-in), only while it holds the table's lease."""
        await self.hub.run_db(self.hub.store.save_seat, self.code, seat,
                              self._fence() if fenced else None)
        self._seated(seat)

    async def take_seat(self, seat: SeatRow, kinds: tuple[str, ...] = ("empty",)) -> bool:
        """Store a seat if it is still of one of ``kinds`` in the database and the table
        still waits (then as :meth:`save_seat`); else take the table as stored: False."""
        if await self.hub.run_db(self.hub.store.take_seat, self.code, seat, kinds):
            self._seated(seat)
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
        if not await self.hub.run_db(self.hub.store.start, self.code):
            await self.catch_up()
            if self.status != "waiting":
                raise TableError(409, "started", "the game has already started")
            empty = [s.seat for s in self.seats if s.kind == "empty"]
            raise TableError(409, "seats_empty", "seats " + ", ".join(map(str, empty))
                             + " are empty: fill them with bots or wait for players")
        self.status = "playing"
        self.state = GameState.new(self.rules, self.seed)
        self.begin()

    def begin(self) -> None:
        """The game is on (stored as playing): everyone gets the deal; clocks and bots
        start."""
        self.start_clocks()
        self.changed()
        self.kick_bots()
