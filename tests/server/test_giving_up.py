"""A ``pegs serve`` process that may not write gives its tables up at once: when a later
release contracts the schema, or the database refuses its writes, it ends its leases
within a renewal, reports not ready, and another process plays the tables on, with every
move its watchers were told of stored."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

import pegs
from pegs.cli import main
from pegs.server.database import _revisions

from .helpers import SHORT_LEASES, Client, auth, free_port, launch, new_table, start, stop, wait_up
from .test_faults import owners, query, ready, until

#: Leases of 2 s are renewed every 0.6 s: a process gives its tables up within that (and
#: the time its renewal takes on a loaded machine).
RELEASE_SECONDS = 3.0
TABLES = 4


@contextmanager
def serving(url: str, folder: Path, *options: str,
            env: dict[str, str] | None = None) -> Iterator[str]:
    """A ``pegs serve`` process on ``url`` with short leases: its base URL."""
    port = free_port()
    process = launch(url, folder, port, *SHORT_LEASES, *options, env=env)
    try:
        wait_up(process, folder, port)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(process)


def bot_tables(base: str) -> list[str]:
    """All-bot tables (a full pegoo game, a bot move every 0.3 s) made on ``base``."""
    codes = []
    with httpx.Client(base_url=base, timeout=20) as http:
        for _ in range(TABLES):
            code, tokens = new_table(http, humans=1, preset="pegoo", settings={},
                                     turn_seconds=None, away_seconds=None, bot_delay=0.3)
            r = http.post(f"/api/tables/{code}/bots", json={"bot": "random"},
                          headers=auth(tokens[0]))
            assert r.status_code == 200, r.text
            start(http, code, tokens[0])
            r = http.post(f"/api/tables/{code}/seats/0/bot", json={"bot": "random"},
                          headers=auth(tokens[0]))
            assert r.status_code == 200, r.text
            codes.append(code)
    return codes


def versions(url: str) -> dict[str, int]:
    return {str(c): int(v) for c, v in query(url, "SELECT code, version FROM pegs_tables")}  # type: ignore[call-overload]


class Watchers:
    """A spectator on each table through one process, keeping every move it is told of."""

    def __init__(self, base: str, codes: list[str]) -> None:
        self.base, self.codes = base.replace("http", "ws"), codes
        self.seen: dict[str, list[tuple[int, str]]] = {code: [] for code in codes}

    async def watch(self, stop: asyncio.Event) -> None:
        clients = [await Client.open(self.base, code, None) for code in self.codes]

        async def one(code: str, client: Client) -> None:
            while not stop.is_set():
                try:
                    event = await client.until("event", timeout=0.5)
                except TimeoutError:
                    continue
                self.seen[code].append((event["version"], event["action"]))

        await asyncio.gather(*(one(code, c) for code, c in zip(self.codes, clients,
                                                                strict=True)))
        for client in clients:
            await client.close()

    def check(self, url: str) -> int:
        """Every move told was stored as told, each once and in order: how many."""
        stored = {(str(c), int(n)): str(a) for c, n, a in query(  # type: ignore[call-overload]
            url, "SELECT code, number, action FROM pegs_actions")}
        for code, seen in self.seen.items():
            numbers = [n for n, _ in seen]
            assert numbers == list(range(numbers[0], numbers[0] + len(numbers))), code
            assert all(stored.get((code, n)) == a for n, a in seen), code
        return sum(map(len, self.seen.values()))


def gives_up(url: str, base: str, origin: object, log: Path) -> float:
    """Seconds until the process ``origin`` holds no lease; it is not ready then, and
    says so once."""
    began = time.monotonic()
    until(lambda: origin not in owners(url), 20, "the process gives its tables up")
    taken = time.monotonic() - began
    assert not ready(base)
    until(lambda: "gives its tables up to the others" in log.read_text(), 10,
          "the process says why")
    assert log.read_text().count("gives its tables up") == 1
    return taken


def play_on(url: str, owner: object) -> None:
    """Every table is held by ``owner`` and moves on."""
    until(lambda: owners(url) == {owner: TABLES}, 20, "another process takes every table")
    before = versions(url)
    until(lambda: all(v > before[c] for c, v in versions(url).items()), 20,
          "every table moves on")


def next_release(folder: Path) -> dict[str, str]:
    """The environment of a later release: this one and a migration that contracts the
    schema (older releases may no longer run on it)."""
    source = Path(pegs.__file__).parent
    shutil.copytree(source, folder / "pegs", ignore=shutil.ignore_patterns("__pycache__"))
    for shared in source.parent.glob("*__mypyc*"):  # the compiled modules' runtime
        shutil.copy2(shared, folder)
    head = _revisions()[0]
    (folder / "pegs/server/migrations/versions/0099_contract.py").write_text(
        f'"""A later release contracts.\n\nRevision ID: 0099\nRevises: {head}\n"""\n\n'
        "from alembic import op\n\n"
        f'revision = "0099"\ndown_revision = "{head}"\nbranch_labels = None\n'
        "depends_on = None\n\n\ndef upgrade() -> None:\n"
        "    op.execute(\"UPDATE pegs_schema SET compatible_from = '0099'\")\n")
    return {"PYTHONPATH": str(folder)}


def test_a_process_whose_schema_a_later_release_contracts_gives_its_tables_up(
        postgres_url: str, tmp_path: Path) -> None:
    later = next_release(tmp_path / "next")
    with serving(postgres_url, tmp_path / "old") as old:
        codes = bot_tables(old)
        [(origin,)] = query(postgres_url, "SELECT origin FROM pegs_servers")
        watchers, done = Watchers(old, codes), asyncio.Event()

        async def scenario() -> None:
            watching = asyncio.create_task(watchers.watch(done))
            until_moved = versions(postgres_url)
            await asyncio.to_thread(until, lambda: all(
                v > until_moved[c] for c, v in versions(postgres_url).items()), 20,
                "every table plays")
            upgrade = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "pegs.cli", "db", "upgrade", "--database-url",
                postgres_url, env={**os.environ, **later}, stderr=subprocess.PIPE)
            _, err = await upgrade.communicate()
            assert upgrade.returncode == 0, err
            taken = await asyncio.to_thread(gives_up, postgres_url, old, origin,
                                            tmp_path / "old" / "serve.log")
            print(f"leases ended {taken:.2f} s after the contraction")
            assert taken < RELEASE_SECONDS
            with serving(postgres_url, tmp_path / "new", env=later):
                [(new,)] = query(postgres_url, "SELECT origin FROM pegs_servers")
                await asyncio.to_thread(play_on, postgres_url, new)
            done.set()
            await watching

        asyncio.run(asyncio.wait_for(scenario(), 120))
    assert watchers.check(postgres_url) >= 2 * TABLES


def test_a_process_whose_writes_the_database_refuses_gives_its_tables_up(
        postgres_url: str, tmp_path: Path) -> None:
    assert main(["db", "upgrade", "--database-url", postgres_url]) == 0
    role = f"pegs_{uuid.uuid4().hex[:12]}"  # (roles are the cluster's: one of its own)
    query(postgres_url, f"CREATE ROLE {role} LOGIN; GRANT ALL ON ALL TABLES IN SCHEMA public "
                        f"TO {role}; GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO {role}")
    refused_url = postgres_url.replace("postgres@", f"{role}@")
    try:
        watchers = refused_writes(postgres_url, refused_url, role, tmp_path)
    finally:
        query(postgres_url, f"DROP OWNED BY {role}; DROP ROLE {role}")
    assert watchers.check(postgres_url) >= 2 * TABLES


def refused_writes(postgres_url: str, refused_url: str, role: str, tmp_path: Path) -> Watchers:
    """Tables on a process connecting as ``role``, whose inserts are then refused (and
    later allowed again), beside another process: what its watchers saw."""
    with serving(refused_url, tmp_path / "refused") as refused:
        codes = bot_tables(refused)
        [(origin,)] = query(postgres_url, "SELECT origin FROM pegs_servers")
        watchers, done = Watchers(refused, codes), asyncio.Event()

        async def scenario() -> None:
            watching = asyncio.create_task(watchers.watch(done))
            with serving(postgres_url, tmp_path / "other") as other:
                await asyncio.to_thread(until, lambda: len(owners(postgres_url)) == 2, 20,
                                        "both hold tables")
                [(kept,)] = query(postgres_url, "SELECT origin FROM pegs_servers WHERE "
                                                f"origin <> '{origin}'")
                query(postgres_url, f"REVOKE INSERT ON ALL TABLES IN SCHEMA public FROM {role}")
                taken = await asyncio.to_thread(gives_up, postgres_url, refused, origin,
                                                tmp_path / "refused" / "serve.log")
                print(f"leases ended {taken:.2f} s after the database refused the writes")
                assert taken < RELEASE_SECONDS
                await asyncio.to_thread(play_on, postgres_url, kept)
                query(postgres_url, f"GRANT INSERT ON ALL TABLES IN SCHEMA public TO {role}")
                await asyncio.to_thread(until, lambda: origin in owners(postgres_url), 20,
                                        "it takes its share again once it may write")
                assert ready(refused) and ready(other)
            done.set()
            await watching

        asyncio.run(asyncio.wait_for(scenario(), 120))
    return watchers
