"""Bot moves and hints in worker processes, served fairly across creators and tables.

The event loop never searches: each table queues its jobs (a bot's move, a hint) in a
lane of worker processes (the server has one for bots, one for hints and one for the
records of finished games).  As workers come free, a lane serves the owner (the address
that created the table) that has used the least worker time so far, and within an owner
its tables in turn, so one address with many tables gets no more than its share and
everyone slows down evenly when the lane is busy.  Long searches may not hold every
worker: a spare one is kept for quick jobs (a heuristic bot's move takes milliseconds).
A worker rebuilds a game from its settings, seed and action texts, keeping the latest
state of the tables it has seen so the next job only applies the new actions.  A job
whose answer is no longer wanted (the turn passed) is dropped from its queue, or its
result is ignored when it is already running (a search is bounded by its time).
"""

from __future__ import annotations

import asyncio
import ctypes
import logging
import multiprocessing
import os
import secrets
import signal
import sys
import threading
import time
from collections import OrderedDict, deque
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import Any, NamedTuple

from ..bots import make_bot
from ..hint import choose as choose_hint
from ..rules import Action, GameState, Rules, view

log = logging.getLogger("pegs.server")

#: Search time per move of the ismcts bot by strength (the other bots have one strength).
ISMCTS_SECONDS = {"easy": 0.1, "normal": 0.4, "strong": 1.5}
#: Games a worker keeps ready (the least recently used is dropped first).
KEPT_GAMES = 256
#: How much lower than the server's the scheduling priority of bot and of hint workers is
#: (a search is bounded by its time: under load it searches less, play goes on).
BOT_NICENESS = 10
HINT_NICENESS = 19


class Game(NamedTuple):
    """What a worker needs to rebuild a table's game."""

    code: str
    settings: dict[str, Any]
    seed: int
    actions: tuple[str, ...]


class Dropped(Exception):
    """The job's answer is no longer wanted."""


def new_bot_seed() -> int:
    """A seat's bot seed (random: a seed made from the game's seed could tell its hands)."""
    return secrets.randbits(31)


def move_seed(bot_seed: int, version: int) -> int:
    """The seed of the bot's move at ``version``: the same seat, seed and game give the
    same move."""
    return (bot_seed * 1_000_003 + version) % (1 << 31)


# --- in the worker ---------------------------------------------------------------------
_games: OrderedDict[str, tuple[Game, GameState]] = OrderedDict()


def _state(game: Game) -> GameState:
    """The game after its actions, from the kept state when it is a prefix of them."""
    kept = _games.pop(game.code, None)
    if (kept is not None and kept[0].seed == game.seed and kept[0].settings == game.settings
            and game.actions[:len(kept[0].actions)] == kept[0].actions):
        state, done = kept[1], len(kept[0].actions)
    else:
        state, done = GameState.new(Rules.from_settings(game.settings), game.seed), 0
    for text in game.actions[done:]:
        state = state.apply(Action.parse(text))
    _games[game.code] = (game, state)
    while len(_games) > KEPT_GAMES:
        _games.popitem(last=False)
    return state


def search_seconds(kind: str, strength: str | None, most: float | None) -> float:
    """How long a bot of this kind and strength searches a move (at most ``most``); 0 for
    the bots that do not search."""
    if kind != "ismcts":
        return 0.0
    seconds = ISMCTS_SECONDS[strength or "normal"]
    return seconds if most is None else min(seconds, most)


def bot_move(game: Game, seat: int, kind: str, seconds: float, seed: int) -> str:
    """The bot's action for ``seat`` (its text); an ismcts bot searches ``seconds``."""
    options: dict[str, Any] = {"seconds": seconds} if kind == "ismcts" else {}
    state = _state(game)
    bot = make_bot(kind, seed, **options)
    return str(bot.choose(view(state, seat), state.legal_actions()))


def hint(game: Game, seat: int, seconds: float) -> tuple[str, str, str]:
    """The hint for ``seat``: (action text, announcement, reason)."""
    found = choose_hint(_state(game), seat, seconds)
    return str(found.action), found.announcement, found.reason


#: prctl's request that the kernel send a signal when the parent dies (linux/prctl.h).
PR_SET_PDEATHSIG = 1
#: How often a worker without that request looks whether its server is still there.
PARENT_CHECK_SECONDS = 1.0


def _worker_start(niceness: int, server: int) -> None:
    """A worker's start: lower its priority, and make it end with its server (pid
    ``server``) however the server ends, even killed with SIGKILL."""
    os.nice(niceness)
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    else:
        threading.Thread(target=_watch_server, args=(server,), daemon=True).start()
    if os.getppid() != server:  # it died before the request was made
        os._exit(1)


def _watch_server(server: int) -> None:
    while os.getppid() == server:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(1)


def _ready() -> None:
    """A job that only makes a worker start."""


# --- in the server ---------------------------------------------------------------------
#: A job expected to take at least this long (a search) is a long one.
LONG_SECONDS = 0.05
#: What a quick job is charged until it has run (then its real time is).
QUICK_SECONDS = 0.005


class Job:
    """A queued call: its future answers the result, or :class:`Dropped`.  ``seconds``:
    how long it is expected to take (a search's time; 0 for a quick job)."""

    def __init__(self, fn: Any, args: tuple[Any, ...], seconds: float) -> None:
        self.fn = fn
        self.args = args
        self.seconds = max(seconds, QUICK_SECONDS)
        #: a long job (a search) never goes to a spare worker
        self.long = seconds >= LONG_SECONDS
        self.future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    def drop(self) -> None:
        """The answer is no longer wanted."""
        if not self.future.done():
            self.future.set_exception(Dropped())
            self.future.exception()  # retrieved: nobody need wait for it


class _Owner:
    """One owner's queued jobs by table (served in turn) and the worker time it used."""

    __slots__ = ("running", "tables", "used")

    def __init__(self, used: float) -> None:
        self.tables: OrderedDict[str, deque[Job]] = OrderedDict()
        self.used = used
        self.running = 0

    def next_job(self, long_ok: bool) -> Job | None:
        """Take the next job to run, table after table (a long one only if ``long_ok``);
        jobs no longer wanted are thrown away."""
        for table in list(self.tables):
            queue = self.tables[table]
            while queue and queue[0].future.done():
                queue.popleft()
            if not queue:
                del self.tables[table]
            elif long_ok or not queue[0].long:
                job = queue.popleft()
                del self.tables[table]
                if queue:
                    self.tables[table] = queue  # to the back of the line
                return job
        return None


class _Pool:
    """Worker processes started when first needed (again after one died)."""

    def __init__(self, size: int, niceness: int) -> None:
        self.size = size
        self.niceness = niceness
        self.busy = 0
        self._executor: ProcessPoolExecutor | None = None

    def submit(self, fn: Any, *args: Any) -> Future[Any]:
        if self._executor is None:
            # spawned, not forked: the server process has threads
            self._executor = ProcessPoolExecutor(
                self.size, multiprocessing.get_context("spawn"), initializer=_worker_start,
                initargs=(self.niceness, os.getpid()))
            for _ in range(self.size):
                self._executor.submit(_ready)
        return self._executor.submit(fn, *args)

    def restart(self) -> None:
        """A worker died: the next job starts new ones."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
        self._executor = None

    def close(self) -> None:
        if self._executor is not None:  # a running search ends within its time
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None


class Thinkers:
    """A lane: worker processes fed fairly from per-owner, per-table queues.

    ``workers`` processes take any job; ``spare`` more (started when first needed) take
    only quick jobs, so long searches never hold every worker."""

    def __init__(self, workers: int, niceness: int, spare: int = 0) -> None:
        self._main = _Pool(workers, niceness)
        self._spare = _Pool(spare, niceness)
        self._owners: dict[str, _Owner] = {}
        #: the worker time used by the owner served last (an owner that comes back starts
        #: there: time it did not ask for is not owed to it)
        self._clock = 0.0

    def submit(self, owner: str, table: str, fn: Any, *args: Any,
               seconds: float = 0.0) -> Job:
        """Queue ``fn(*args)`` for ``table`` of ``owner``, expected to take ``seconds``."""
        job = Job(fn, args, seconds)
        mine = self._owners.get(owner)
        if mine is None:
            mine = self._owners[owner] = _Owner(self._clock)
        elif not mine.tables and not mine.running:
            mine.used = max(mine.used, self._clock)
        mine.tables.setdefault(table, deque()).append(job)
        self._pump()
        return job

    def _pump(self) -> None:
        """Hand queued jobs to free workers: the owner that used the least time first."""
        while True:
            if self._main.busy < self._main.size:
                pool = self._main
            elif self._spare.busy < self._spare.size:
                pool = self._spare
            else:
                return
            for name, owner in sorted(self._owners.items(), key=lambda o: o[1].used):
                job = owner.next_job(long_ok=pool is self._main)
                if job is not None:
                    break
                if not owner.tables and not owner.running:
                    del self._owners[name]
            else:
                return
            self._clock = owner.used
            owner.used += job.seconds  # corrected to the real time when it is done
            owner.running += 1
            pool.busy += 1
            running = pool.submit(job.fn, *job.args)
            running.add_done_callback(partial(self._done, job, owner, pool, time.monotonic()))

    def _done(self, job: Job, owner: _Owner, pool: _Pool, began: float,
              done: Future[Any]) -> None:
        """A worker answered (on the pool's thread): back to the event loop."""
        job.future.get_loop().call_soon_threadsafe(self._finished, job, owner, pool,
                                                   time.monotonic() - began, done)

    def _finished(self, job: Job, owner: _Owner, pool: _Pool, took: float,
                  done: Future[Any]) -> None:
        pool.busy -= 1
        owner.running -= 1
        owner.used += took - job.seconds
        if done.cancelled():  # the pool was shut down
            job.drop()
            return
        error = done.exception()
        if isinstance(error, BrokenProcessPool):
            log.error("a worker process died; starting new ones")
            pool.restart()
        if not job.future.done():
            if error is not None:
                job.future.set_exception(error)
            else:
                job.future.set_result(done.result())
        self._pump()

    def close(self) -> None:
        for owner in self._owners.values():
            for queue in owner.tables.values():
                for job in queue:
                    job.drop()
        self._owners.clear()
        self._main.close()
        self._spare.close()
