"""Simulation games as Ray tasks, on a local Ray or an existing cluster.

Each game is one task running the same :func:`~pegs.sim.run.play_game` on the same task
value as the local workers, so a run writes the same lines whichever backend plays it.
At most ``jobs`` tasks are in flight (default: the cluster's CPUs), so an interruption
cancels little work and finished games reach the results file as they end.  Stopping
(Ctrl-C, SIGTERM) cancels the tasks in flight and, if this run started Ray, shuts it down.
A task whose worker dies (a lost node) is retried up to 3 times: a game's result depends
only on its task, so a retry writes the same line.  Cancelling does not kill the workers
(``force``): a killed worker could be one already given the next run's task.

Every machine of a cluster needs the same ``pegs`` installed (``pip install pegs``): the
tasks import it there.  Ray itself is imported only when a run uses it.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import socket
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import Any

#: Seconds between checks for Ctrl-C while waiting for a task.
POLL_SECONDS = 0.25


class RayUnavailable(RuntimeError):
    """Ray is not installed, or the cluster cannot be reached."""


#: Seconds to wait for a cluster's address to answer before Ray is asked to join it.
REACH_SECONDS = 5.0


def check_reachable(address: str) -> None:
    """Fail at once when nothing listens at a ``HOST:PORT`` address (Ray itself retries
    for minutes); other forms (``auto``, ``ray://...``) are left to Ray."""
    host, colon, port = address.rpartition(":")
    if not colon or not port.isdigit() or "/" in address:
        return
    try:
        socket.create_connection((host or "127.0.0.1", int(port)), REACH_SECONDS).close()
    except OSError as e:
        raise RayUnavailable(f"no Ray cluster answers at {address} ({e}); start one with "
                             "`ray start --head` or check --address") from e


def start_ray(jobs: int | None, address: str | None) -> bool:
    """Connect to the cluster at ``address``, or start a local Ray of ``jobs`` CPUs (unless
    Ray already runs in this process); True when this call started or connected it.
    Ray's own SIGTERM handler is taken back out, so SIGTERM still stops a run like Ctrl-C."""
    try:
        import ray
    except ImportError as e:
        raise RayUnavailable("the ray backend needs Ray: pip install 'pegs[research]'") from e
    if ray.is_initialized():
        return False
    if address is not None:
        check_reachable(address)
    main = threading.current_thread() is threading.main_thread()
    previous = signal.getsignal(signal.SIGTERM) if main else None
    try:
        if address is None:
            ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False,
                     logging_level=logging.ERROR)
        else:
            ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
    except (ConnectionError, RuntimeError, ValueError) as e:
        raise RayUnavailable(f"cannot connect to Ray at {address or 'a new local Ray'}: "
                             f"{e}") from e
    finally:
        if main:
            signal.signal(signal.SIGTERM, previous)
    return True


class Stop(threading.Event):
    """Set by Ctrl-C or SIGTERM; :meth:`interrupt` then acts as that signal's own handler
    would have (the command's SIGTERM handler notes it, so the exit status is 143)."""

    def __init__(self) -> None:
        super().__init__()
        self.signum: int | None = None
        self.previous: dict[int, Any] = {}

    def caught(self, signum: int, frame: object) -> None:
        self.signum = self.signum or signum
        self.set()

    def interrupt(self) -> None:
        signum = self.signum or signal.SIGINT
        handler = self.previous.get(signum)
        if callable(handler):
            handler(signum, None)  # raises KeyboardInterrupt, as the command's does
        raise KeyboardInterrupt


@contextlib.contextmanager
def deferred_stop() -> Iterator[Stop]:
    """Ctrl-C and SIGTERM only set the event while inside: raised in the middle of a Ray
    call, the interruption can leave Ray's task bookkeeping broken (it then aborts)."""
    stop = Stop()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    stop.previous = {sig: signal.signal(sig, stop.caught)
                     for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stop
    finally:
        for sig, handler in stop.previous.items():
            signal.signal(sig, handler)


def in_ray(tasks: Sequence[Any], jobs: int | None, address: str | None,
           play: Callable[[Any], dict[str, Any]]) -> Generator[dict[str, Any], None, None]:
    """``play(task)`` of every task as Ray tasks, in the order they finish.  Ctrl-C or
    SIGTERM raises :class:`KeyboardInterrupt` here, between Ray calls."""
    import ray

    with deferred_stop() as stop:
        started = start_ray(jobs, address)
        try:
            cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call]
            limit = jobs or max(1, int(cpus))
            remote = ray.remote(num_cpus=1, max_retries=3)(play)
            queue = deque(tasks)
            running: list[Any] = []
            try:
                while queue or running:
                    if stop.is_set():
                        stop.interrupt()
                    while queue and len(running) < limit:
                        running.append(remote.remote(queue.popleft()))
                    done, running = ray.wait(running, num_returns=1, timeout=POLL_SECONDS)
                    for ref in done:
                        yield ray.get(ref)
            finally:
                for ref in running:
                    ray.cancel(ref)
        finally:
            if started:
                ray.shutdown()
