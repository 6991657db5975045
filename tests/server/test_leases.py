"""Table leases on PostgreSQL, at the database: an owner's writes are fenced by the lease's
epoch, and claims share the tables out over the live processes."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from pegs.server.database import migrate, open_engine
from pegs.server.store import SeatRow, Store, TableRow
from pegs.server.store_errors import LeaseLost


@pytest.fixture
def engine_url(postgres_url: str) -> Iterator[str]:
    engine = open_engine(postgres_url)
    migrate(engine)
    engine.dispose()
    yield postgres_url


def stores(url: str, count: int) -> list[Store]:
    """``count`` processes' stores on one database (each with its own origin)."""
    return [Store(open_engine(url)) for _ in range(count)]


def table(code: str) -> TableRow:
    return TableRow(code, {"name": "pegoo"}, 1, True, "playing", 0, 0, [SeatRow(0), SeatRow(1)])


def expire(store: Store, code: str) -> None:
    with store.engine.begin() as c:
        c.execute(text("UPDATE pegs_tables SET lease_until = now() - interval '1 second' "
                       "WHERE code = :c"), {"c": code})


def test_an_owner_that_lost_its_lease_writes_nothing(engine_url: str) -> None:
    a, b = stores(engine_url, 2)
    a.create(table("t1"))  # a's lease, epoch 0
    a.append("t1", 1, 0, "x", "playing", epoch=0)
    expire(a, "t1")  # a paused past its lease: nobody has taken it yet
    with pytest.raises(LeaseLost):
        a.append("t1", 2, 1, "y", "playing", epoch=0)
    assert b.claim() == {"t1": 1}  # b takes it at the next epoch
    with pytest.raises(LeaseLost):
        a.append("t1", 2, 1, "y", "playing", epoch=0)
    with pytest.raises(LeaseLost):
        a.save_seat("t1", SeatRow(1, "Bo", "human", standin=True), 0)
    a.append("t1", 2, 1, "human's", "playing")  # a player's own act goes through any process
    b.append("t1", 3, 0, "z", "playing", epoch=1)
    with b.engine.connect() as c:
        assert c.execute(text("SELECT standin FROM pegs_seats WHERE code = 't1' AND seat = 1")
                         ).scalar_one() is False
        assert list(c.execute(text("SELECT action FROM pegs_actions ORDER BY number"))
                    .scalars()) == ["x", "human's", "z"]
    assert a.claim() == {}  # a finds it lost the table
    for s in (a, b):
        s.engine.dispose()


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["create", "join", "leave"]),
                          st.integers(1, 6)), min_size=1, max_size=8))
def test_claims_share_the_tables_out_over_the_live_processes(
        engine_url: str, steps: list[tuple[str, int]]) -> None:
    engine = open_engine(engine_url)
    with engine.begin() as c:
        for name in ("pegs_actions", "pegs_seats", "pegs_tables", "pegs_servers"):
            c.execute(text(f"DELETE FROM {name}"))
    live = stores(engine_url, 1)
    created = 0
    for what, n in steps:
        if what == "create":
            for _ in range(n):
                live[created % len(live)].create(table(f"t{created}"))
                created += 1
        elif what == "join":
            live += stores(engine_url, 1)
        elif len(live) > 1:
            gone = live.pop(n % len(live))
            gone.release()  # a graceful stop ends its leases
            gone.engine.dispose()
        for _ in range(3):  # a few rounds of renewals settle the shares
            held = [s.claim() for s in live]
        share = math.ceil(created / len(live))
        assert all(len(h) <= share + 1 for h in held), (held, share)
        codes = [code for h in held for code in h]
        assert sorted(codes) == sorted(f"t{i}" for i in range(created))  # each held once
    for s in live:
        s.engine.dispose()
    engine.dispose()
