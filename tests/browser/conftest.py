"""Browser test fixtures: Debian's Chromium driven by Playwright (never a downloaded browser),
a static origin serving the page's files and the board fixtures, and a real `pegs serve`."""

from __future__ import annotations

import mimetypes
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Playwright, Route, sync_playwright

HERE = Path(__file__).parent
STATIC = HERE.parent.parent / "src" / "pegs" / "web" / "static"
ARTIFACTS = HERE / "artifacts"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: A made-up origin that Playwright answers from disk, for tests that need no server.
FAKE = "http://pegs.test"


@pytest.fixture(scope="session")
def playwright_session() -> Iterator[Playwright]:
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def chromium(playwright_session: Playwright) -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run scripts/setup.sh (Debian's chromium package)")
    browser = playwright_session.chromium.launch(executable_path=CHROMIUM, args=ARGS,
                                                 headless=True)
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


def _serve_from_disk(route: Route) -> None:
    path = route.request.url.removeprefix(FAKE).split("?")[0]
    if path.startswith("/fixtures/"):
        file = HERE / "fixtures" / path.removeprefix("/fixtures/")
    elif path.startswith("/tests/"):
        file = HERE / path.removeprefix("/tests/")
    else:
        file = STATIC / path.lstrip("/")
    if not file.is_file():
        route.fulfill(status=404, body="missing")
        return
    kind = "text/javascript" if file.suffix == ".js" else mimetypes.guess_type(file.name)[0]
    route.fulfill(status=200, body=file.read_bytes(), content_type=kind or "text/plain")


@pytest.fixture
def static_page(chromium: Browser) -> Iterator[Page]:
    """A page on the made-up origin: the page's static files and the board fixtures."""
    context = chromium.new_context(viewport={"width": 900, "height": 900})
    context.route(f"{FAKE}/**", _serve_from_disk)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert not errors, errors
