"""The page against a fake table socket sending engine-made states (no server): of equal
cards only the chosen one is marked, and the lobby tells the table's options in words."""

from __future__ import annotations

import json
from typing import Any

from browser_support import FAKE, seat_script
from make_fixtures import FIXTURES
from playwright.sync_api import Page, WebSocketRoute, expect


def open_with_state(page: Page, msg: dict[str, Any]) -> None:
    """Open the page at the state's table; its socket answers the hello with ``msg`` (its
    legal actions in the server's wire form)."""
    code = msg["table"]["code"]
    msg = {**{k: v for k, v in msg.items() if k != "wire_legal"}, "legal": msg["wire_legal"]}

    def table(ws: WebSocketRoute) -> None:
        ws.on_message(lambda text: ws.send(json.dumps(msg)) if '"hello"' in str(text) else None)

    page.route_web_socket(f"**/ws/{code}", table)
    page.add_init_script(seat_script(code, "token", 0, "Ann"))
    page.goto(f"{FAKE}/index.html?t={code}")


def test_of_equal_cards_only_the_chosen_one_is_marked(static_page: Page) -> None:
    """The pegoo-4 fixture's hand holds four 4s; a fake socket sends it as the state."""
    msg = json.loads((FIXTURES / "pegoo-4.json").read_text())
    open_with_state(static_page, msg)
    fours = static_page.locator("#hand .card[data-card='4']")
    expect(fours).to_have_count(4)
    fours.nth(2).click()
    expect(static_page.locator("#hand .card.selected")).to_have_count(1)
    assert static_page.locator("#hand .card.selected").get_attribute("data-index") == "3"
    expect(static_page.locator("#hand .card[aria-pressed='true']")).to_have_count(1)


def test_the_lobby_tells_the_table_options_in_words(static_page: Page) -> None:
    """A waiting table's options (from the server's table JSON) read as sentences."""
    msg = json.loads((FIXTURES / "pegoo-4.json").read_text())
    msg.update(view=None, wire_legal=None, last=None, version=0)
    msg["table"].update(status="waiting", public=False, turn_seconds=60, away_seconds=None,
                        bot_delay=1.5)
    open_with_state(static_page, msg)
    expect(static_page.locator("#table-options li")).to_have_text([
        "Private: only people with the link can join.",
        "Up to 1 minute for a turn, then a bot moves.",
        "Nobody is covered by a bot when away.",
        "Bots' pace: relaxed.",
        "Hints: anyone may ask for a suggested move."])
