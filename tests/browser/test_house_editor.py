"""The house-rules editor on the create page (issue 42): a card's powers changed in plain
words, the cue card following live, saved and published, the share link opening the form
filled on a phone, the table made from them showing their title and cue card, and their
author (only) changing and deleting them."""

from __future__ import annotations

import urllib.error
from pathlib import Path

from browser_support import Server
from playwright.sync_api import Browser, Page, expect
from test_play_online import PHONE

from pegs.rules import Rules

DESKTOP = {"viewport": {"width": 1280, "height": 800}}


def test_edit_save_share_and_play_house_rules(chromium: Browser, server: Server,
                                              artifacts: Path) -> None:
    desk = chromium.new_context(**DESKTOP)
    page = desk.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/")
    page.select_option("#preset", "basic")
    page.click("#house > summary")
    four = page.locator(".card-row[data-rank='4']")
    # the editor speaks in words: no power token is shown anywhere
    expect(four.locator(".card-name")).to_have_text("4")
    expect(page.locator(".card-row[data-rank=A] summary")).to_have_text(
        "Aceout of START, or forward 1")
    four.locator("summary").click()
    assert "+4" not in page.locator("#house").inner_text()
    four.locator("select[name=forward]").select_option("")
    four.locator("select[name=back]").select_option("4")
    expect(four).to_have_class("card-row changed")
    expect(four.locator(".card-words")).to_have_text("back 4")
    # changing a card opens the cue card, which follows
    expect(page.locator("details:has(#create-cue)")).to_have_attribute("open", "")
    cue = page.locator("#create-cue")
    expect(cue).to_contain_text("4*")
    expect(cue).to_contain_text("move a peg back 4")
    # a card left without a power: the engine's own message, in place of the cue card
    nine = page.locator(".card-row[data-rank='9']")
    nine.locator("summary").click()
    nine.locator("select[name=forward]").select_option("")
    expect(page.locator("#cue-error")).to_contain_text("card 9: give its powers")
    nine.locator("select[name=forward]").select_option("9")
    nine.locator("select[name=split]").select_option("split9")
    expect(cue).to_contain_text("9*")
    expect(cue).to_contain_text("split 9 between two pegs")

    page.fill("#house-title", "Grandma's rules")
    page.fill("#house-description", "Fours go back.")
    expect(cue).to_contain_text("Grandma's rules")
    page.check("#house-publish")
    page.click("#house-save")
    link = page.locator("#house-link")
    expect(link).to_be_visible()
    url = link.input_value()
    assert url.startswith(f"{server.base}/?house=")
    page.screenshot(path=str(artifacts / "house-editor-desktop.png"), full_page=True)

    phone = chromium.new_context(**PHONE)
    bob = phone.new_page()
    bob.on("pageerror", lambda e: errors.append(str(e)))
    bob.goto(url)
    expect(bob.locator("#house-title")).to_have_value("Grandma's rules")
    expect(bob.locator("#preset")).to_have_value("basic")
    four = bob.locator(".card-row[data-rank='4']")
    expect(four).to_have_class("card-row changed")
    expect(four.locator("select[name=back]")).to_have_value("4")
    expect(four.locator("select[name=forward]")).to_have_value("")
    expect(bob.locator(".card-row[data-rank='9'] select[name=split]")).to_have_value("split9")
    expect(bob.locator("#create-cue")).to_contain_text("4*")
    expect(bob.locator("#published-houses")).to_contain_text("Grandma's rules")
    bob.screenshot(path=str(artifacts / "house-shared-phone.png"), full_page=True)
    bob.evaluate("document.getElementById('house').scrollIntoView()")
    bob.screenshot(path=str(artifacts / "house-shared-phone-editor.png"))
    width = bob.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the form is {width}px wide on a 390px phone"

    bob.fill("#name", "Bob")
    bob.click("#create-btn")
    bob.wait_for_url("**/t/**")
    expect(bob.locator("#house-line")).to_contain_text("House rules: Grandma's rules")
    bob.screenshot(path=str(artifacts / "house-table-lobby-phone.png"))
    bob.click("#cue-btn")
    expect(bob.locator("#cue-text")).to_contain_text("4*")
    expect(bob.locator("#cue-text")).to_contain_text("move a peg back 4")
    bob.screenshot(path=str(artifacts / "house-table-cue-phone.png"))
    code = bob.url.rsplit("/", 1)[1]
    table = server.api("GET", f"/api/tables/{code}")
    basic = Rules.preset("basic")
    assert {rank: tokens for rank, tokens in table["settings"]["powers"].items()
            if tokens != list(basic.power(rank))} == {"4": ["-4"], "9": ["+9", "split9"]}
    assert table["house"]["title"] == "Grandma's rules" and table["house"]["code"]
    desk.close()
    phone.close()
    assert not errors, errors


def save_published(page: Page, server: Server, title: str) -> str:
    """Save new published house rules on the basic game from the start page; their link."""
    page.goto(server.base + "/")
    page.select_option("#preset", "basic")
    page.click("#house > summary")
    page.fill("#house-title", title)
    page.check("#house-publish")
    page.click("#house-save")
    return page.locator("#house-link").input_value()


def test_the_author_changes_and_deletes_saved_house_rules(chromium: Browser, server: Server,
                                                          artifacts: Path) -> None:
    author = chromium.new_context(**DESKTOP)
    page = author.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    url = save_published(page, server, "Aunt May's rules")
    code = url.rsplit("=", 1)[1]
    # the author's browser kept the owner token: the share link opens the rules to change
    page.goto(url)
    expect(page.locator("#house-title")).to_have_value("Aunt May's rules")
    expect(page.locator("#house-publish")).to_be_checked()
    page.fill("#house-title", "Aunt May's new rules")
    four = page.locator(".card-row[data-rank='4']")
    four.locator("summary").click()
    four.locator("select[name=back]").select_option("4")
    page.uncheck("#house-publish")
    page.click("#house-update")
    expect(page.locator("#house-status")).to_have_text(
        "Changes saved: the same link now gives these rules.")
    expect(page.locator("#create-cue")).to_contain_text("Aunt May's new rules")
    page.locator("#house-share").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "house-author-changed.png"))
    saved = server.api("GET", f"/api/house/{code}")
    assert (saved["title"], saved["published"]) == ("Aunt May's new rules", False)
    assert "-4" in saved["cards"]["4"] and page.locator("#house-link").input_value() == url

    # anyone else opening the link may use the rules, not change or delete them
    other = chromium.new_context(**DESKTOP)
    guest = other.new_page()
    guest.goto(url)
    expect(guest.locator("#house-title")).to_have_value("Aunt May's new rules")
    expect(guest.locator("#house-link")).to_be_visible()
    expect(guest.locator("#house-update, #house-delete")).to_have_count(0)
    other.close()

    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#house-delete")
    expect(page.locator("#house-status")).to_contain_text("Deleted.")
    expect(page.locator("#house-link, #house-delete")).to_have_count(0)
    page.screenshot(path=str(artifacts / "house-author-deleted.png"))
    try:
        server.api("GET", f"/api/house/{code}")
        raise AssertionError("the deleted rules are still there")
    except urllib.error.HTTPError as e:
        assert e.code == 404
    author.close()
    assert not errors, errors
