"""Open-connection counts: never over their cap, and every release frees a place, in
memory and in Redis alike."""

from __future__ import annotations

import asyncio

from hypothesis import given, settings
from hypothesis import strategies as st

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
