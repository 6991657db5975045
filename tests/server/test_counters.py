"""Open-connection counts: never over their cap, and every release frees a place, in
memory and in Redis alike; a hung limits server is waited for once, then left alone."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pegs.server.breaker import Breaker, Skipped
from pegs.server.counters import Open, SharedOpen
from pegs.server.forwarded import usable
from pegs.server.transport import networks, within

from .helpers import run

#: (acquire under key k, or release the i-th ticket held)
Ops = st.lists(st.tuples(st.booleans(), st.integers(0, 2)), max_size=40)


async def replay(counts: Open, ops: list[tuple[bool, int]], cap: int) -> list[bool]:
    """Apply the operations, checking them against a model; what each acquire answered."""
    held: list[tuple[str, str]] = []
    answers = []
    for acquire, n in ops:
        if acquire:
            key = f"k{n}"
            ticket = await counts.acquire(key, cap)
            open_now = sum(1 for k, _ in held if k == key)
            assert (ticket is not None) == (open_now < cap)
            answers.append(ticket is not None)
            if ticket is not None:
                held.append((key, ticket))
        elif held:
            await counts.release(held.pop(n % len(held))[1])
    for _, ticket in held:
        await counts.release(ticket)
    return answers


@given(Ops, st.integers(1, 3))
@settings(max_examples=200, deadline=None)
def test_memory_counts_follow_the_model(ops: list[tuple[bool, int]], cap: int) -> None:
    counts = Open()
    asyncio.run(replay(counts, ops, cap))
    assert not counts.held  # everything released: nothing left counted


def test_redis_counts_answer_as_memory_does(redis_server: str) -> None:
    ops = [(True, 0), (True, 0), (True, 0), (False, 0), (True, 0), (True, 1), (False, 5),
           (True, 0), (True, 1), (True, 1)]

    async def scenario() -> None:
        shared = SharedOpen(redis_server)
        assert await replay(shared, ops, 2) == await replay(Open(), ops, 2)
        await shared.close()

    run(scenario())


def test_proxy_lists_and_addresses() -> None:
    trusted = networks("10.0.0.1, 192.168.0.0/16 ,::1")
    assert within("192.168.3.4", trusted) and within("::1", trusted)
    assert not within("10.0.0.2", trusted) and not within("not an address", trusted)
    assert networks("") == []
    for bad in ("10.0.0.300", "localhost"):
        try:
            networks(bad)
        except ValueError as e:
            assert bad in str(e)
        else:
            raise AssertionError(f"{bad!r} was taken")
    assert usable("2001:db8::ffff:192.168.100.200") and not usable("x" * 46)
    assert not usable("") and not usable("1.2.3.4\n")


def test_a_hung_store_is_waited_for_once_then_left_alone_until_one_call_tries_again(
        caplog: pytest.LogCaptureFixture) -> None:
    breaker = Breaker("test", timeout=0.05, cool_down=0.4)
    hung = asyncio.Event()  # set: the store answers again
    asked = []

    async def store() -> str:
        asked.append(1)
        await hung.wait()
        return "counted"

    async def scenario() -> None:
        began = time.monotonic()
        for _ in range(20):  # the first waits out the timeout, the others are skipped
            with pytest.raises(Skipped):
                await breaker.call(store)
        assert time.monotonic() - began < 0.3
        assert len(asked) == 1
        await asyncio.sleep(0.45)
        calls = [asyncio.create_task(breaker.call(store)) for _ in range(5)]
        done = await asyncio.gather(*calls, return_exceptions=True)
        assert len(asked) == 2  # one probe; the others go on without the store
        assert all(isinstance(d, Skipped) for d in done)
        hung.set()
        await asyncio.sleep(0.45)
        assert await breaker.call(store) == "counted"
        assert await breaker.call(store) == "counted"

    with caplog.at_level(logging.WARNING, "pegs.server"):
        run(scenario())
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 2, said  # once when it stops answering, once when it is back
    assert "did not answer within 0.05 s" in said[0] and "answers again" in said[1]
