"""A whole turn from the keyboard: a number key picks a card, Escape goes back, arrows move
between the choices, Enter confirms; the focus follows the steps, only new announcements
are read aloud, and the tab's title says when it is the player's turn."""

from __future__ import annotations

from pathlib import Path

from browser_support import Server, seat_script
from playwright.sync_api import Browser, expect
from test_play_online import DESKTOP, Watched


def test_a_turn_played_with_the_keyboard_only(chromium: Browser, server: Server,
                                              artifacts: Path) -> None:
    made = server.table_with_bots("basic", 4, name="Kay")
    context = chromium.new_context(**DESKTOP)
    context.add_init_script(seat_script(made["code"], made["token"], 0, "Kay"))
    w = Watched(context)
    page = w.page
    page.goto(f"{server.base}/t/{made['code']}")
    expect(page.locator("body")).to_have_attribute("data-my-turn", "1", timeout=15_000)
    expect(page).to_have_title("▶ Your turn · Pegs & Jokers")
    assert page.locator("#panel").get_attribute("aria-live") is None
    expect(page.locator("#live")).to_have_attribute("aria-live", "polite")

    # the arrows start on the current step: the playable cards, and go round them
    page.keyboard.press("ArrowRight")
    playable = page.locator("#hand .card.playable").count()
    assert page.evaluate("document.activeElement.matches('#hand .card.playable')")
    first = page.evaluate("document.activeElement.dataset.index")
    page.keyboard.press("ArrowRight")
    moved = page.evaluate("document.activeElement.dataset.index")
    assert (moved != first) == (playable > 1)
    card = page.locator("#hand .card.playable").first
    key = str(int(card.get_attribute("data-index") or "0") + 1)
    page.keyboard.press(key)
    expect(page.locator("#hand .card.selected")).to_have_count(1)
    focused = page.evaluate("document.activeElement.closest('#panel') !== null")
    assert focused  # the focus went to the next step's choices
    page.keyboard.press("Escape")
    expect(page.locator("#hand .card.selected")).to_have_count(0)
    assert page.evaluate("document.activeElement.matches('#hand .card')")  # back a step
    page.keyboard.press(key)
    expect(page.locator("#hand .card.selected")).to_have_count(1)
    before = w.version()
    for _ in range(12):
        if w.version() > before:
            break
        group = page.evaluate(
            "document.activeElement.parentElement.querySelectorAll('button:not(:disabled)').length")
        if group > 1:  # arrows move between the options of this step
            first = page.evaluate("document.activeElement.outerHTML")
            page.keyboard.press("ArrowRight")
            assert page.evaluate("document.activeElement.outerHTML") != first
            page.keyboard.press("ArrowLeft")
            assert page.evaluate("document.activeElement.outerHTML") == first
        page.screenshot(path=str(artifacts / "keyboard-step.png"))
        page.keyboard.press("Enter")
        page.wait_for_timeout(50)
    page.wait_for_function(f"+document.body.dataset.version > {before}")
    mine = w.first_after(before)["last"]
    assert mine["seat"] == 0
    expect(page.locator("#live")).to_contain_text(f"Kay: {mine['announcement']}")
    assert page.locator("#live p").count() <= 5
    page.wait_for_function("document.body.dataset.myTurn === '0' || document.title !== ''")
    assert w.errors == []
    context.close()

