"""Bot moves and hints in worker processes, served fairly across tables.

The event loop never searches: each table queues its jobs (a bot's move, a hint) in a
lane of worker processes (the server has one for bots and one for hints), whose queues are
served round-robin, one job per table in turn, as its workers come free.
A worker rebuilds a game from its settings, seed and action texts, keeping the latest
state of the tables it has seen so the next job only applies the new actions.  A job
whose answer is no longer wanted (the turn passed) is dropped from its queue, or its
result is ignored when it is already running (a search is bounded by its time).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import secrets
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


def bot_move(game: Game, seat: int, kind: str, strength: str | None, seed: int) -> str:
    """The bot's action for ``seat`` (its text)."""
    options: dict[str, Any] = {}
    if kind == "ismcts":
        options["seconds"] = ISMCTS_SECONDS[strength or "normal"]
    state = _state(game)
    bot = make_bot(kind, seed, **options)
    return str(bot.choose(view(state, seat), state.legal_actions()))


def hint(game: Game, seat: int, seconds: float) -> tuple[str, str, str]:
    """The hint for ``seat``: (action text, announcement, reason)."""
    found = choose_hint(_state(game), seat, seconds)
    return str(found.action), found.announcement, found.reason


def _worker_start(niceness: int) -> None:
    os.nice(niceness)


def _ready() -> None:
    """A job that only makes a worker start."""


# --- in the server ---------------------------------------------------------------------
class Job:
    """A queued call: its future answers the result, or :class:`Dropped`."""

    def __init__(self, fn: Any, args: tuple[Any, ...]) -> None:
        self.fn = fn
        self.args = args
        self.future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    def drop(self) -> None:
        """The answer is no longer wanted."""
        if not self.future.done():
            self.future.set_exception(Dropped())
            self.future.exception()  # retrieved: nobody need wait for it


class Thinkers:
    """A lane: a pool of worker processes fed from one queue per table, round-robin."""

    def __init__(self, workers: int, niceness: int) -> None:
        self.workers = workers
        self.niceness = niceness
        self._pool: ProcessPoolExecutor | None = None
        self._busy = 0
        self._queues: OrderedDict[str, deque[Job]] = OrderedDict()

    def submit(self, table: str, fn: Any, *args: Any) -> Job:
        """Queue ``fn(*args)`` for ``table``."""
        job = Job(fn, args)
        self._queues.setdefault(table, deque()).append(job)
        self._pump()
        return job

    def _start(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawned, not forked: the server process has threads
            self._pool = ProcessPoolExecutor(self.workers, multiprocessing.get_context("spawn"),
                                             initializer=_worker_start,
                                             initargs=(self.niceness,))
            for _ in range(self.workers):
                self._pool.submit(_ready)
        return self._pool

    def _pump(self) -> None:
        """Hand queued jobs to free workers, one table after another."""
        while self._busy < self.workers and self._queues:
            table, queue = self._queues.popitem(last=False)
            job = queue.popleft()
            if queue:
                self._queues[table] = queue  # to the back of the line
            if job.future.done():
                continue
            self._busy += 1
            running = self._start().submit(job.fn, *job.args)
            running.add_done_callback(partial(self._done, job))

    def _done(self, job: Job, done: Future[Any]) -> None:
        """A worker answered (on the pool's thread): back to the event loop."""
        job.future.get_loop().call_soon_threadsafe(self._finished, job, done)

    def _finished(self, job: Job, done: Future[Any]) -> None:
        self._busy -= 1
        if done.cancelled():  # the pool was shut down
            job.drop()
            return
        error = done.exception()
        if isinstance(error, BrokenProcessPool):
            log.error("a worker process died; starting new ones")
            if self._pool is not None:
                self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        if not job.future.done():
            if error is not None:
                job.future.set_exception(error)
            else:
                job.future.set_result(done.result())
        self._pump()

    def close(self) -> None:
        for queue in self._queues.values():
            for job in queue:
                job.drop()
        self._queues.clear()
        if self._pool is not None:  # a running search ends within its time
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
