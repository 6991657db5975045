"""Several ``pegs serve`` processes on one PostgreSQL database act as one service."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from sqlalchemy import text

from pegs.cli import main
from pegs.server.store import open_engine

from .helpers import free_port, launch, serve, serve_many


def test_servers_started_together_on_an_empty_database_all_come_up(
        postgres_url: str, tmp_path: Path) -> None:
    with serve_many(postgres_url, tmp_path, 3) as servers:
        for process, url in servers:
            assert process.poll() is None
            assert httpx.get(f"{url}/api/presets").status_code == 200
    engine = open_engine(postgres_url)
    with engine.connect() as c:
        assert len(c.execute(text("SELECT version_num FROM alembic_version")).all()) == 1
    engine.dispose()


def test_db_upgrade_migrates_on_its_own(postgres_url: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["db", "upgrade", "--database-url", postgres_url]) == 0
    assert "schema is current" in capsys.readouterr().err
    engine = open_engine(postgres_url)
    with engine.connect() as c:
        assert c.execute(text("SELECT count(*) FROM pegs_tables")).scalar_one() == 0
    engine.dispose()
    assert main(["db", "upgrade", "--database-url", "not a url"]) == 2
    assert "is not a database URL" in capsys.readouterr().err


def test_a_second_server_on_one_sqlite_file_is_refused_even_after_a_kill(
        tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'pegs.db'}"
    with serve(url, tmp_path, free_port()) as first:
        second = launch(url, tmp_path, free_port())  # the same data folder: the same file
        assert second.wait(30) == 2
        log = (tmp_path / "serve.log").read_text()
        assert log.count("another pegs serve is using") == 1 and "PostgreSQL" in log
        first.kill()  # SIGKILL: the kernel drops its lock
        first.wait(10)
    with serve(url, tmp_path, free_port()) as again:
        assert again.poll() is None
