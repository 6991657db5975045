"""A live table's state in memory, shared by its parts (:mod:`.rooms`: the authority that
checks, applies, stores and publishes; :mod:`.table_views`: the fan-out to connections;
:mod:`.table_duties`: the bots, clocks and stand-ins that follow the table's log)."""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from collections.abc import Coroutine
from typing import Any

from ..rules import (
    Action,
    GameState,
    Rules,
)
from . import records
from .connection import Connection
from .services import Services
from .store import SeatRow, TableRow
from .table_log import Entry
from .thinking import Game, Job

log = logging.getLogger("pegs.server")

#: The status of a started table that was ended because nobody came back to it.
ABANDONED = "abandoned"


class TableBase(ABC):
    """One table: seats, game state, connections, and what it is handed to do its work."""

    def __init__(self, services: Services, row: TableRow,
                 built: records.Rebuilt | None = None) -> None:
        self.env = services  # what it is handed to do its work
        self.code = row.code
        self.rules = Rules.from_settings(row.settings)
        #: the whole settings and power table, also for a row stored before tables kept it
        #: (its rematch and archived game are then self-contained)
        self.settings = self.rules.settings()
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
        #: the number of the last entry of the table's log taken in (:meth:`take`), and
        #: the connections (with the message ids) whose own messages some entries are
        self.seq = row.log_seq
        self._senders: dict[int, tuple[Connection, object]] = {}
        if self.status != "waiting":  # the game replayed (here, or by a worker: built)
            built = built or records.rebuild(self.rules, self.seed, row.actions)
            self.actions, self.state, self.last = built.actions, built.state, built.last
            self.texts = list(row.actions)
            self.log = built.log
        #: the seats' presence as the connections were last told
        self._shown = self._presence_flags()

    @property
    def version(self) -> int:
        return len(self.actions)

    @property
    def owned(self) -> bool:
        """Whether this process runs the table's bots, stand-ins and clocks (on SQLite it
        runs every table)."""
        return self.epoch is not None or not self.env.store.shared

    def _fence(self) -> int | None:
        """The lease epoch an owner's write must still hold (None on SQLite)."""
        return self.epoch if self.env.store.shared else None

    def bot_controlled(self, seat: int) -> bool:
        s = self.seats[seat]
        return s.kind == "bot" or s.standin

    def game(self) -> Game:
        """The game as a worker rebuilds it."""
        return Game(self.code, self.settings, self.seed, tuple(self.texts))

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

    # --- what the other parts do (see :class:`.rooms.Room`) --------------------------------
    @abstractmethod
    def _presence_flags(self) -> list[bool]: ...

    @abstractmethod
    def changed(self) -> None: ...

    @abstractmethod
    def connected(self, seat: int) -> bool: ...

    @abstractmethod
    def present(self, seat: int) -> bool: ...

    @abstractmethod
    def _to_act(self, seat: int) -> bool: ...

    @abstractmethod
    def _turn_clock(self) -> None: ...

    @abstractmethod
    def _away_clock(self, seat: int) -> None: ...

    @abstractmethod
    def _stand_down(self, seat: int) -> None: ...

    @abstractmethod
    def kick_bots(self) -> None: ...

    @abstractmethod
    async def act(self, seat: int, text: object, version: object,
                  actor: str = "human") -> dict[str, Any] | None: ...

    @abstractmethod
    async def save_seat(self, seat: SeatRow, fenced: bool = False) -> None: ...

    @abstractmethod
    def let_go(self) -> None: ...

    @abstractmethod
    async def take(self, entry: Entry, sender: Connection | None = None,
                   msg_id: object = None) -> None: ...
