"""Issue 50: loaded house rules said at the top of the form, on the join page and during play;
saved rules changed in place, never saved twice nor published for someone else; Copy buttons
that work (or say what to do) on a plain-http family server; taps of at least 44 px."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_support import Server, seat_script
from playwright.sync_api import Browser, Page, expect
from test_house_editor import save_published
from test_play_online import PHONE

LAPTOP = {"viewport": {"width": 1366, "height": 768}}
SMALL_LAPTOP = {"viewport": {"width": 1280, "height": 800}}
#: a family server on the home network: plain http, so no navigator.clipboard
NO_CLIPBOARD = "Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });"
#: and a browser that refuses the old copy command as well
NO_COPY = NO_CLIPBOARD + "document.execCommand = () => false;"


def published_titles(server: Server) -> list[str]:
    return [h["title"] for h in server.api("GET", "/api/house?limit=50")["houses"]]


def on_first_screen(page: Page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    height = page.viewport_size["height"] if page.viewport_size else 0
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def test_saving_twice_changes_the_rules_and_a_visitor_never_publishes_them(
        chromium: Browser, server: Server, artifacts: Path) -> None:
    author = chromium.new_context(**LAPTOP)
    page = author.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    url = save_published(page, server, "Uncle Ted's rules")
    # once saved, only "Save changes" is offered: no second save making a second copy
    expect(page.locator("#house-save")).to_be_hidden()
    expect(page.locator("#house-update")).to_be_visible()
    page.fill("#house-description", "Sevens split.")
    page.click("#house-update")
    expect(page.locator("#house-status")).to_have_text(
        "Changes saved: the same link now gives these rules.")
    page.locator("#house-share").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "house-saved-once-laptop.png"))
    assert published_titles(server).count("Uncle Ted's rules") == 1

    # a visitor opening the link sees at once which rules the form holds
    for size, name in ((PHONE, "phone"), (LAPTOP, "laptop"), (SMALL_LAPTOP, "laptop-1280")):
        context = chromium.new_context(**size)
        visitor = context.new_page()
        visitor.on("pageerror", lambda e: errors.append(str(e)))
        visitor.goto(url)
        expect(visitor.locator("#house-loaded")).to_contain_text("House rules: Uncle Ted's rules")
        expect(visitor.locator("#house-loaded")).to_contain_text("Sevens split.")
        assert on_first_screen(visitor, "#house-loaded"), name
        visitor.screenshot(path=str(artifacts / f"house-loaded-{name}.png"))
        # someone else's published rules: Publish is not ticked for the visitor
        expect(visitor.locator("#house-publish")).not_to_be_checked()
        if name == "phone":
            visitor.click("#house-loaded-see")
            visitor.fill("#house-title", "Ted's rules, our way")
            visitor.click("#house-save")
            expect(visitor.locator("#house-link")).not_to_have_value(url)
            visitor.screenshot(path=str(artifacts / "house-visitor-saved-phone.png"))
        context.close()
    titles = published_titles(server)
    assert titles.count("Uncle Ted's rules") == 1 and "Ted's rules, our way" not in titles
    author.close()
    assert not errors, errors


def test_a_deleted_rules_link_says_so_at_the_top(chromium: Browser, server: Server,
                                                 artifacts: Path) -> None:
    context = chromium.new_context(**PHONE)
    page = context.new_page()
    page.goto(server.base + "/?house=gone1234")
    expect(page.locator("#house-loaded")).to_contain_text("may have deleted them")
    assert on_first_screen(page, "#house-loaded")
    page.screenshot(path=str(artifacts / "house-gone-phone.png"))
    context.close()


HOUSE = {"title": "Grandpa's table", "description": "Fours go back."}


def test_the_join_page_and_the_game_show_the_house_rules(chromium: Browser, server: Server,
                                                        artifacts: Path) -> None:
    made = server.api("POST", "/api/tables", {"preset": "pegoo", "name": "Gran", "players": 4,
                                              "house": HOUSE})
    context = chromium.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{server.base}/t/{made['code']}")
    expect(page.locator("#house-line")).to_contain_text("House rules: Grandpa's table")
    assert on_first_screen(page, "#house-line")
    # the team with someone in it comes first and is chosen
    expect(page.locator("#team-choice label").first).to_have_text("Team A, with Gran")
    expect(page.locator("#team-choice input").first).to_be_checked()
    page.screenshot(path=str(artifacts / "join-house-phone.png"))
    context.close()

    # a rematch starts playing at once: the game itself shows the rules
    playing = server.table_with_bots("basic", 4, name="Gran", house=HOUSE)
    context = chromium.new_context(**LAPTOP)
    context.add_init_script(seat_script(playing["code"], playing["token"], 0, "Gran"))
    page = context.new_page()
    page.goto(f"{server.base}/t/{playing['code']}")
    expect(page.locator("#panel #house-line")).to_contain_text("House rules: Grandpa's table")
    page.screenshot(path=str(artifacts / "game-house-laptop.png"))
    context.close()

    # a table already playing: the join page says so as a person would
    context = chromium.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{server.base}/t/{playing['code']}")
    expect(page.locator(".card-panel")).to_contain_text("They are already playing: you may watch.")
    context.close()


def click_copy(page: Page, button: str, field: str) -> dict[str, Any]:
    page.click(button)
    return page.evaluate("""(id) => { const f = document.getElementById(id);
      return { focused: document.activeElement === f,
               selected: f.selectionEnd - f.selectionStart, length: f.value.length }; }""", field)


def test_copy_on_a_plain_http_server(chromium: Browser, server: Server, artifacts: Path) -> None:
    made = server.api("POST", "/api/tables", {"preset": "basic", "name": "Gran", "players": 4})
    for script, works in ((NO_CLIPBOARD, True), (NO_COPY, False)):
        context = chromium.new_context(**PHONE)
        context.add_init_script(seat_script(made["code"], made["token"], 0, "Gran"))
        context.add_init_script(script)
        page = context.new_page()
        page.goto(f"{server.base}/t/{made['code']}")
        picked = click_copy(page, "#copy-link", "share-link")
        if works:
            expect(page.locator("#copy-link")).to_have_text("Copied")
        else:
            # the link is selected, and the page says to copy it
            expect(page.locator("#copy-link")).to_have_text("Not copied")
            expect(page.locator("#copy-link-note")).to_contain_text("Select and copy the link")
            assert picked["focused"] and picked["selected"] == picked["length"] > 0, picked
            page.screenshot(path=str(artifacts / "copy-refused-phone.png"))
        page.click("#rejoin > summary")
        click_copy(page, "#copy-rejoin", "rejoin-link")
        expect(page.locator("#copy-rejoin")).to_have_text("Copied" if works else "Not copied")

        page.goto(server.base + "/")
        page.fill("#name", "Gran")
        page.click("#house > summary")
        page.fill("#house-title", "Copied rules" if works else "Uncopied rules")
        page.click("#house-save")
        picked = click_copy(page, "#copy-house", "house-link")
        expect(page.locator("#copy-house")).to_have_text("Copied" if works else "Not copied")
        if not works:
            assert picked["focused"] and picked["selected"] == picked["length"] > 0, picked
            expect(page.locator("#copy-house-note")).to_contain_text("Select and copy the link")
            page.locator("#house-share").scroll_into_view_if_needed()
            page.screenshot(path=str(artifacts / "copy-house-refused-phone.png"))
        context.close()


def test_taps_are_at_least_44_px(chromium: Browser, server: Server, artifacts: Path) -> None:
    made = server.table_with_bots("basic", 4, name="Gran")
    context = chromium.new_context(**PHONE)
    context.add_init_script(seat_script(made["code"], made["token"], 0, "Gran"))
    page = context.new_page()
    page.goto(f"{server.base}/t/{made['code']}")
    expect(page.locator("#hand .card").first).to_be_visible()
    page.locator(".chat-panel > summary").click()
    taps = [".chat-panel > summary", ".chat-quick button"]
    expect(page.locator(".chat-quick button").first).to_be_visible()
    heights = {sel: [b["height"] for b in page.locator(sel).evaluate_all(
        "els => els.map(e => e.getBoundingClientRect())")] for sel in taps}
    page.goto(server.base + "/")
    page.click("#house > summary")
    page.locator(".card-row[data-rank='4'] > summary").click()
    page.fill("#house-title", "Tall taps")
    page.check("#house-publish")
    page.click("#house-save")
    page.reload()
    expect(page.locator("#published-houses a").first).to_be_visible()
    page.click("#house > summary")
    page.locator(".card-row[data-rank='4'] > summary").click()
    for sel in ("#published-houses a", ".card-row[data-rank='4'] label.power:has(input)",
                ".publish-row label"):
        heights[sel] = [b["height"] for b in page.locator(sel).evaluate_all(
            "els => els.map(e => e.getBoundingClientRect())")]
    page.locator(".card-row[data-rank='4']").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "taps-editor-phone.png"))
    context.close()
    for sel, found in heights.items():
        assert found and min(found) >= 44, (sel, found)
