"""``pegs serve``: where the database lives, its options (the server's settings), and clear
refusals of unusable settings."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import text

from pegs.cli import main
from pegs.server import serve as serve_module
from pegs.server.app import default_database_url
from pegs.server.database import MIGRATIONS, migrate, open_engine
from pegs.server.limits import Limits
from pegs.server.store import SeatRow, Store, TableRow
from pegs.server.store_errors import StoreError


def test_the_database_lives_in_pegs_data_dir_unless_a_url_is_given(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PEGS_DATABASE_URL", raising=False)
    monkeypatch.setenv("PEGS_DATA_DIR", str(tmp_path / "new" / "folder"))
    with pytest.raises(StoreError, match="no such folder"):
        default_database_url()  # only the data folder itself is made, not its parents
    assert not (tmp_path / "new").exists()
    monkeypatch.setenv("PEGS_DATA_DIR", str(tmp_path / "new"))
    assert default_database_url() == f"sqlite:///{tmp_path / 'new' / 'pegs.db'}"
    assert (tmp_path / "new").is_dir()
    monkeypatch.setenv("PEGS_DATABASE_URL", "postgresql+psycopg://pegs@db/pegs")
    assert default_database_url() == "postgresql+psycopg://pegs@db/pegs"


@pytest.mark.parametrize(("args", "words"), [
    (["--database-url", "nosuchdb://x"], "cannot use database"),
    (["--database-url", "not a url"], "is not a database URL"),
    (["--database-url", "sqlite:////no/such/folder/pegs.db"], "no such folder"),
    (["--bot-delay", "-1"], "--bot-delay must be 0 or more"),
    (["--hint-seconds", "0"], "--hint-seconds must be a number of seconds above 0"),
    *[([option, "-1"], "must be 0 (no limit) or more") for option in (
        "--creates-per-minute", "--max-waiting", "--connects-per-minute", "--max-connections",
        "--joins-per-minute", "--lobby-reads-per-minute", "--max-tables-per-address")],
    (["--waiting-hours", "0"], "--abandoned-hours must be more than 0"),
    (["--abandoned-hours", "-0.5"], "--abandoned-hours must be more than 0"),
    (["--abandoned-hours", "inf"], "--abandoned-hours must be more than 0 (and finite)"),
    (["--hello-seconds", "0"], "--hello-seconds must be more than 0"),
    (["--request-seconds", "0"], "--request-seconds more than 0"),
    (["--shortest-clock", "0.5"], "--shortest-clock must be 1 to 3600 seconds"),
    (["--max-bot-seconds", "nan"], "--max-bot-seconds must be more than 0 and at most 60"),
    (["--min-bot-delay", "9"], "--min-bot-delay 0 to 5"),
    (["--lease-seconds", "0.5"], "--lease-seconds must be 1 to 600"),
    (["--lease-seconds", "nan"], "--lease-seconds must be 1 to 600"),
    (["--forwarded-allow-ips", "10.0.0.1,proxy"], "'proxy' is not an IP address"),
    (["--limits-url", "http://127.0.0.1:6379"], "--limits-url takes redis://"),
])
def test_unusable_settings_are_refused_before_serving(
        args: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", *args]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_migrations_are_idempotent_and_checkpoints_empty_the_log(tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path / 'pegs.db'}")
    migrate(engine)
    migrate(engine)  # a second start finds the schema current
    store = Store(engine)
    store.create(TableRow("abc", {"name": "pegoo"}, 1, True, "playing", 0, 0,
                          [SeatRow(0), SeatRow(1)]))
    for n in range(1, 50):
        store.append("abc", n, 0, "A: S>0.5", "playing")
    wal = tmp_path / "pegs.db-wal"
    assert wal.stat().st_size > 0
    store.checkpoint()
    with engine.connect() as c:
        busy, frames, copied = c.execute(text("PRAGMA wal_checkpoint(PASSIVE)")).one()
    assert busy == 0 and frames == copied
    assert [r.version for r in store.load(("playing",))] == [49]
    store.close()
    engine.dispose()


def test_a_database_of_the_first_schema_is_upgraded_with_the_table_options(
        tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path / 'pegs.db'}")
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        connection.execute(text(
            "INSERT INTO pegs_tables (code, settings, seed, hints, status, version, host, "
            "created) VALUES ('old', '{\"name\": \"pegoo\"}', 1, 1, 'waiting', 0, 0, "
            "'2026-01-01 00:00:00')"))
    migrate(engine)
    [row] = Store(engine).load(("waiting",))
    assert (row.public, row.creator, row.turn_seconds, row.away_seconds, row.bot_delay) == (
        False, None, 120.0, 120.0, None)
    assert row.created is not None and row.created.year == 2026
    engine.dispose()


def test_checkpoints_keep_the_write_ahead_log_bounded(tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path / 'pegs.db'}")
    migrate(engine)
    limit = 256 * 1024
    store = Store(engine, wal_bytes=limit)
    store.create(TableRow("abc", {"name": "pegoo"}, 1, True, "playing", 0, 0, [SeatRow(0)]))
    wal = tmp_path / "pegs.db-wal"
    number = 0

    def write(count: int) -> int:
        """Append ``count`` actions, checkpointing every 20 as the server does; the largest
        size the log reached."""
        nonlocal number
        largest = 0
        for _ in range(count):
            number += 1
            store.append("abc", number, 0, "A: S>0.5 " + "x" * 300, "playing")
            if number % 20 == 0:
                store.checkpoint()
                largest = max(largest, wal.stat().st_size)
        return largest

    # a reader holding its snapshot: no checkpoint can reach the end of the log, so it grows
    reader = sqlite3.connect(tmp_path / "pegs.db", isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM pegs_actions").fetchall()
    assert write(200) > 2 * limit
    reader.execute("COMMIT")
    reader.close()
    write(20)
    assert wal.stat().st_size <= limit  # emptied once nothing holds it
    assert write(600) <= 2 * limit  # and it stays bounded under steady writes
    store.checkpoint()
    store.checkpoint()  # nothing written since the last one: the log is emptied
    assert wal.stat().st_size == 0
    assert [r.version for r in store.load(("playing",))] == [number]
    store.close()
    engine.dispose()


def test_the_options_are_the_servers_settings_with_their_defaults(
        monkeypatch: pytest.MonkeyPatch) -> None:
    got: list[Limits] = []

    def fake_serve(host: str, port: int, url: str | None, bot_delay: float,
                   hint_seconds: float, limits: Limits) -> int:
        got.append(limits)
        return 0

    monkeypatch.setattr(serve_module, "serve", fake_serve)
    assert main(["serve"]) == 0
    assert got[-1] == Limits()  # every option's default is the setting's
    assert main(["serve", "--waiting-hours", "0.5", "--abandoned-hours", "2",
                 "--max-tables-per-address", "3", "--forwarded-allow-ips", "10.0.0.1"]) == 0
    assert got[-1] == Limits(waiting_seconds=1800, abandoned_seconds=7200,
                             max_live_per_address=3, forwarded_allow_ips="10.0.0.1")


def test_the_command_line_loads_without_the_web_stack() -> None:
    code = "import sys, pegs.cli; print(sorted({'fastapi', 'sqlalchemy'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
