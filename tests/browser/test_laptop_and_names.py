"""Issue 50: on common laptop screens the host sees Start without scrolling and, once the game
starts, the hand; long names never widen a phone's page past its screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_support import Server, seat_script
from playwright.sync_api import Browser, Page, expect

LAPTOPS = [{"width": 1366, "height": 768}, {"width": 1280, "height": 800}]


def in_view(page: Page, selector: str) -> dict[str, Any]:
    """The element's box, the viewport's, and the box of the scrolled panel around it."""
    return page.evaluate("""(sel) => {
      const r = document.querySelector(sel).getBoundingClientRect();
      const p = document.getElementById('panel').getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, height: innerHeight,
               panelTop: p.top, panelBottom: p.bottom };
    }""", selector)


def fully_shown(page: Page, selector: str) -> bool:
    """Whether the element lies within both the screen and the panel's visible part."""
    box = in_view(page, selector)
    return bool(box["top"] >= box["panelTop"] - 1
                and box["bottom"] <= min(box["panelBottom"], box["height"]) + 1)


def host_page(chromium: Browser, server: Server, viewport: dict[str, int], name: str = "Host",
              **context: Any) -> tuple[Page, dict[str, Any]]:
    made = server.api("POST", "/api/tables", {"preset": "basic", "name": name, "players": 4})
    ctx = chromium.new_context(viewport=viewport, **context)
    ctx.add_init_script(seat_script(made["code"], made["token"], made["seat"], name))
    page = ctx.new_page()
    page.goto(f"{server.base}/t/{made['code']}")
    expect(page.locator("#seats")).to_be_visible()
    return page, made


@pytest.mark.parametrize("viewport", LAPTOPS, ids=lambda v: f"{v['width']}x{v['height']}")
def test_the_host_sees_start_then_the_hand(chromium: Browser, server: Server, artifacts: Path,
                                           viewport: dict[str, int]) -> None:
    page, _ = host_page(chromium, server, viewport)
    size = f"{viewport['width']}x{viewport['height']}"
    page.screenshot(path=str(artifacts / f"laptop-lobby-{size}.png"))
    # Start sits inside the panel's visible part and the screen, without any scrolling
    assert fully_shown(page, "#start-btn"), in_view(page, "#start-btn")
    # a host who scrolled the panel down anyway finds it back at its top once the game starts
    page.evaluate("document.getElementById('panel').scrollTop = 10000")
    page.click("#start-btn")
    expect(page.locator("#hand .card").first).to_be_visible()
    expect(page.locator("#status")).to_contain_text("Your turn", timeout=15000)
    page.wait_for_timeout(300)
    page.screenshot(path=str(artifacts / f"laptop-game-{size}.png"))
    for sel in ("#status", "#hand"):
        assert fully_shown(page, sel), (sel, in_view(page, sel))
    page.context.close()
