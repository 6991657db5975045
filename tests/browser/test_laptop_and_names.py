"""Issue 50: on common laptop screens the host sees Start without scrolling and, once the game
starts, the hand; long names never widen a phone's page past its screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_support import Server, seat_script
from playwright.sync_api import Browser, Page, expect
from test_play_online import PHONE

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


LONG = "Bartholomew" * 3 + "Fitzwil"  # 40 characters without a space
MAIL = "grandpa.joe.thompson1947@example.com"


@pytest.mark.parametrize("name", [LONG, MAIL], ids=["forty-letters", "e-mail"])
def test_long_names_stay_within_a_phone(chromium: Browser, server: Server, artifacts: Path,
                                        name: str) -> None:
    page, made = host_page(chromium, server, PHONE["viewport"], name=name,
                           is_mobile=True, has_touch=True, device_scale_factor=2)
    # a second long name, a joiner's
    server.api("POST", f"/api/tables/{made['code']}/join", {"name": name[::-1]})
    expect(page.locator("#seats li[data-kind=human]")).to_have_count(2)
    label = "mail" if "@" in name else "long"
    page.screenshot(path=str(artifacts / f"phone-name-{label}-lobby.png"), full_page=True)
    width = "Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
    assert page.evaluate(width) <= 390
    bot = page.locator("#seats button:has-text('Bot here')").first
    box = bot.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    page.click("#start-btn")
    expect(page.locator("#hand .card").first).to_be_visible()
    page.wait_for_timeout(300)
    page.screenshot(path=str(artifacts / f"phone-name-{label}-game.png"), full_page=True)
    assert page.evaluate(width) <= 390
    for card in page.locator("#hand .card").all():
        box = card.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 390
    page.context.close()
