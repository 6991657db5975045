"""Accessibility (issue 50, item 11): axe-core (tests/browser/package.json, installed by
scripts/setup.sh) finds no violation on the start page with the house-rules editor open,
the join page, the lobby, the game with a card chosen and its cue card, and the end
screen, on a laptop and a phone."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import Server, axe_violations, seat_script
from playwright.sync_api import Browser, Page, expect
from test_play_online import PHONE

LAPTOP = {"viewport": {"width": 1280, "height": 800}}
SIZES = {"laptop": LAPTOP, "phone": PHONE}


@pytest.fixture(scope="module")
def finished(server: Server) -> dict[str, Any]:
    """A table whose game the bots played to its end (the host's seat by a stand-in)."""
    made = server.table_with_bots("pegoo", 2, name="Dee")
    server.api("POST", f"/api/tables/{made['code']}/seats/0/bot", {"bot": "heuristic"},
               made["token"])
    deadline = time.monotonic() + 60
    while server.api("GET", f"/api/tables/{made['code']}")["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.2)
    return made


@pytest.fixture(params=list(SIZES))
def size(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


@pytest.fixture
def page(size: str, chromium: Browser) -> Iterator[Page]:
    context = chromium.new_context(**SIZES[size])
    yield context.new_page()
    context.close()


def check(page: Page, screen: str, artifacts: Path) -> None:
    """No axe-core violation on the page as it is (its screenshot kept to look at)."""
    page.screenshot(path=str(artifacts / f"axe-{screen}.png"), full_page=True)
    found = axe_violations(page)
    assert found == [], json.dumps(found, indent=1)


def test_the_start_page_and_the_house_rules_editor(page: Page, size: str, server: Server,
                                                    artifacts: Path) -> None:
    page.goto(server.base + "/")
    expect(page.locator("#create-btn")).to_be_visible()
    page.click("#house > summary")
    page.locator(".card-row[data-rank='4'] > summary").click()
    expect(page.locator(".card-row[data-rank='4'] .powers").first).to_be_visible()
    page.locator("#create > details > summary", has_text="Cue card").click()
    check(page, f"create-{size}", artifacts)


def test_the_join_page(page: Page, size: str, server: Server, artifacts: Path) -> None:
    made = server.api("POST", "/api/tables", {"preset": "basic", "name": "Gran", "players": 4})
    page.goto(f"{server.base}/t/{made['code']}")
    expect(page.locator("#team-choice")).to_be_visible()
    check(page, f"join-{size}", artifacts)


def test_the_lobby(page: Page, size: str, server: Server, artifacts: Path) -> None:
    made = server.api("POST", "/api/tables", {"preset": "basic", "name": "Gran", "players": 4})
    page.context.add_init_script(seat_script(made["code"], made["token"], 0, "Gran"))
    page.goto(f"{server.base}/t/{made['code']}")
    expect(page.locator("#start-btn")).to_be_visible()
    check(page, f"lobby-{size}", artifacts)


def test_the_game(page: Page, size: str, server: Server, artifacts: Path) -> None:
    made = server.table_with_bots("basic", 4, name="Gran", turn_seconds=None)
    page.context.add_init_script(seat_script(made["code"], made["token"], 0, "Gran"))
    page.goto(f"{server.base}/t/{made['code']}")
    expect(page.locator("body")).to_have_attribute("data-my-turn", "1", timeout=15_000)
    page.locator("#hand .card.playable").first.click()
    expect(page.locator("#picker")).to_be_visible()
    check(page, f"game-{size}", artifacts)
    page.click("#cue-btn")  # the cue card's dialog over the game
    expect(page.locator("#cue-text h3").first).to_be_visible()
    check(page, f"game-cue-{size}", artifacts)


def test_the_end_screen(page: Page, size: str, server: Server, finished: dict[str, Any],
                        artifacts: Path) -> None:
    page.context.add_init_script(seat_script(finished["code"], finished["token"], 0, "Dee"))
    page.goto(f"{server.base}/t/{finished['code']}")
    expect(page.locator("#finished")).to_be_visible()
    expect(page.locator("#summary")).to_be_visible()
    expect(page.locator("#log li").first).to_be_visible()
    check(page, f"end-{size}", artifacts)
