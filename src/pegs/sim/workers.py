"""Worker processes for simulations, each fed one game at a time through its own pipe.

Why not :class:`multiprocessing.pool.Pool`: its workers share one task queue guarded by a
lock, which an idle worker holds while it waits for a task.  When a signal to the whole
process group (``timeout``, a terminal's Ctrl-C, ``kill -- -PGID``) kills that worker, the
lock is never released, and ``Pool.terminate`` waits for it forever (with 16 workers and
few games left to deal, a stopped ``pegs simulate`` never exited).  Here nothing is shared:
each worker has a private pipe, the parent waits on the pipes and the processes, and
stopping kills the workers outright and reaps them.  A worker that dies closes its
pipe, which wakes the parent; a parent that dies takes its workers with it.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Sequence
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

#: Seconds to wait for a killed worker to be reaped.
REAP_SECONDS = 5.0
#: How often a worker checks that its parent is still there.
PARENT_CHECK_SECONDS = 1.0
#: prctl(2) option: the signal the kernel sends when the parent dies.
PR_SET_PDEATHSIG = 1


class WorkersStopped(Exception):
    """Worker processes were killed by a signal from outside (the run was stopped)."""


class WorkerCrashed(RuntimeError):
    """A worker process ended without a signal before sending its game's result."""


def _watch_parent(parent: int) -> None:
    """End this worker as soon as ``parent`` (the process that started it) is gone, even
    in the middle of a game: a parent killed outright (SIGKILL, as ``timeout -s KILL``
    does) cannot stop its workers itself.  On Linux the kernel kills the worker with its
    parent (``PR_SET_PDEATHSIG``); everywhere a thread checks the parent every second."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # no C library to ask: the thread does it
            pass

    def check() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(1)

    if os.getppid() != parent:  # the parent died before the kernel was asked
        os._exit(1)
    threading.Thread(target=check, name="parent-check", daemon=True).start()


def _serve(conn: Connection, play: Callable[[Any], dict[str, Any]], parent: int) -> None:
    """A worker: play each task received until told to stop (None) or the pipe closes."""
    _watch_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops the workers
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        try:
            conn.send(("ok", play(task)))
        except Exception as e:  # sent to the parent, which raises it
            conn.send(("error", e))


def in_workers(tasks: Sequence[Any], jobs: int, play: Callable[[Any], dict[str, Any]],
               ) -> Generator[dict[str, Any], None, None]:
    """``play(task)`` of every task in ``jobs`` spawned processes, in the order they finish.

    An exception raised by ``play`` is raised here; a worker killed by a signal raises
    :class:`WorkersStopped`.  Closing the generator (or an exception in the parent, like
    Ctrl-C) kills the workers and reaps them."""
    ctx = multiprocessing.get_context("spawn")
    queue = deque(tasks)
    workers: list[tuple[BaseProcess, Connection]] = []
    main = threading.current_thread() is threading.main_thread()
    # Ignored from birth (an ignored SIGINT stays ignored across exec): a Ctrl-C reaching
    # the whole process group must not kill a worker while it starts.
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        for _ in range(min(jobs, len(queue))):
            here, there = ctx.Pipe()
            worker: BaseProcess = ctx.Process(target=_serve, args=(there, play, os.getpid()),
                                              daemon=True)
            worker.start()
            there.close()
            workers.append((worker, here))
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)
    try:
        busy: dict[Connection, tuple[BaseProcess, Any]] = {}
        for process, conn in workers:
            task = queue.popleft()
            conn.send(task)
            busy[conn] = process, task
        while busy:
            for ready in wait(list(busy)):
                assert isinstance(ready, Connection)
                conn = ready
                process, task = busy[conn]
                try:
                    kind, value = conn.recv()
                except (EOFError, OSError):  # the worker is gone
                    process.join(REAP_SECONDS)
                    code = process.exitcode
                    if code is not None and code < 0:
                        raise WorkersStopped(f"a worker was stopped by signal {-code}") from None
                    game = getattr(task, "game", task)
                    raise WorkerCrashed(f"the worker process playing game {game} ended (exit "
                                        f"code {code}) before finishing it") from None
                if kind == "error":
                    raise value
                yield value
                if queue:
                    task = queue.popleft()
                    conn.send(task)
                    busy[conn] = process, task
                else:
                    conn.send(None)
                    del busy[conn]
    finally:
        for process, conn in workers:
            if process.is_alive():
                process.kill()
            conn.close()
        for process, _ in workers:
            process.join(REAP_SECONDS)
