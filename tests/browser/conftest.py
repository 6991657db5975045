"""Browser test fixtures: Debian's Chromium driven by Playwright (never a downloaded browser),
a made-up origin serving the page's files and the board fixtures, and a real `pegs serve`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_support import ARGS, ARTIFACTS, CHROMIUM, FAKE, Server, serve_from_disk
from make_fixtures import write_fixtures
from playwright.sync_api import Browser, Page, Playwright, sync_playwright


# Playwright's sync API runs an event loop in this thread while it is open: it is opened per
# module, so that it is closed again before tests elsewhere start loops of their own.
@pytest.fixture(scope="module")
def playwright_session() -> Iterator[Playwright]:
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="module")
def chromium(playwright_session: Playwright) -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run scripts/setup.sh (Debian's chromium package)")
    browser = playwright_session.chromium.launch(executable_path=CHROMIUM, args=ARGS,
                                                 headless=True)
    yield browser
    browser.close()


@pytest.fixture(scope="session", autouse=True)
def board_fixtures() -> None:
    """The engine-made `state` messages the board tests load, written afresh each run."""
    write_fixtures()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def static_page(chromium: Browser) -> Iterator[Page]:
    """A page on the made-up origin: the page's static files and the board fixtures."""
    context = chromium.new_context(viewport={"width": 900, "height": 900})
    context.route(f"{FAKE}/**", serve_from_disk)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert not errors, errors


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A real `pegs serve` on a free port with a fresh data folder (bots move at once),
    shared by the browser tests (each makes its own tables)."""
    running = Server(tmp_path_factory.mktemp("pegs-data"))
    running.start()
    yield running
    running.stop()
