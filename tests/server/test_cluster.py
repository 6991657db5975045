"""Several ``pegs serve`` processes on one PostgreSQL database act as one service."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from sqlalchemy import text

from pegs.cli import main
from pegs.server.store import open_engine

from .helpers import serve_many


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
