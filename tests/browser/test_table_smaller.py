"""The smaller stumbles (issue 50, item 10): "Allow hints" unticked at a teaching table is
honoured; at 1280x800 the teacher's chat leaves the game its room; the chat downloads from
the page; a tab too many for one seat says so; the folded chat bar covers no button on the
player's turn; a phone held sideways keeps 44 px taps."""

from __future__ import annotations

from pathlib import Path

from browser_support import Server, axe_violations, seat_script
from playwright.sync_api import Browser, Page, expect
from test_play_online import LANDSCAPE, PHONE, Watched, play_one_move

LAPTOP = {"viewport": {"width": 1280, "height": 800}}


def open_seat(chromium: Browser, server: Server, code: str, token: str, seat: int,
              name: str, device: dict[str, object]) -> Watched:
    w = Watched(chromium.new_context(**device))
    w.context.add_init_script(seat_script(code, token, seat, name))
    w.page.goto(f"{server.base}/t/{code}")
    return w


def test_a_teaching_table_without_hints_has_none(chromium: Browser, server: Server,
                                                  artifacts: Path) -> None:
    context = chromium.new_context(**LAPTOP)
    page = context.new_page()
    page.goto(server.base + "/")
    page.fill("#name", "Ann")
    page.check("#teaching")
    page.uncheck("#hints")
    page.click("#create-btn")
    expect(page.locator("#table-options")).to_contain_text("No hints at this table.")
    code = page.url.rsplit("/", 1)[1]
    table = server.api("GET", f"/api/tables/{code}")
    assert table["teaching"] and not table["hints"]
    page.screenshot(path=str(artifacts / "teaching-no-hints-laptop.png"))
    page.click("#start-btn")
    expect(page.locator("body")).to_have_attribute("data-my-turn", "1", timeout=15_000)
    expect(page.locator("#hand .card").first).to_be_visible()
    assert page.locator("#hint-btn").count() == 0
    context.close()


def test_the_teachers_chat_leaves_the_game_room_and_downloads(
        chromium: Browser, server: Server, artifacts: Path) -> None:
    made = server.api("POST", "/api/tables", {"preset": "pegoo", "name": "Ann", "players": 4,
                                              "teaching": True, "turn_seconds": None})
    code = made["code"]
    server.api("POST", f"/api/tables/{code}/join", {"name": "Cat", "seat": 2})
    server.api("POST", f"/api/tables/{code}/bots", {"bot": "heuristic"}, made["token"])
    server.api("POST", f"/api/tables/{code}/start", {}, made["token"])
    ann = open_seat(chromium, server, code, made["token"], 0, "Ann",
                    {**LAPTOP, "has_touch": True})
    ann.page.click("#chat-quick [data-phrase=good_move]")
    ann.page.fill("#chat-text", "Take the Ace")
    ann.page.press("#chat-text", "Enter")
    expect(ann.page.locator("#chat-list li")).to_have_count(2)
    expect(ann.page.locator("body")).to_have_attribute("data-my-turn", "1", timeout=15_000)
    play_one_move(ann, on_board=False)
    # Cat (away) is to play after the bot: Ann may suggest her a move
    expect(ann.page.locator("#suggest-select")).to_be_visible(timeout=15_000)
    panel = ann.page.locator("#panel").bounding_box()
    chat = ann.page.locator("#chat").bounding_box()
    assert panel and chat and panel["height"] >= 440, (panel, chat)
    assert chat["height"] <= 800 * 0.4, chat
    ann.page.screenshot(path=str(artifacts / "teacher-chat-laptop.png"))
    assert axe_violations(ann.page) == []  # the teacher's chat and list too
    with ann.page.expect_download() as download:
        ann.page.click("#chat-download")
    saved = Path(download.value.path()).read_text()
    assert saved.startswith(f"Table talk at table {code}\n"), saved
    assert "Ann: Good move!" in saved and "Ann: Take the Ace" in saved, saved
    assert ann.errors == []
    ann.context.close()


def test_a_tab_too_many_for_one_seat_says_so(chromium: Browser, server: Server,
                                             artifacts: Path) -> None:
    made = server.table_with_bots("basic", 4, name="Dee")
    context = chromium.new_context(**PHONE)
    context.add_init_script(seat_script(made["code"], made["token"], 0, "Dee"))
    tabs = []
    for _ in range(4):
        tab = context.new_page()
        tab.goto(f"{server.base}/t/{made['code']}")
        expect(tab.locator("#hand")).to_be_visible()
        tabs.append(tab)
    fifth = context.new_page()
    fifth.goto(f"{server.base}/t/{made['code']}")
    expect(fifth.locator("#refused")).to_contain_text(
        "This seat is already open in 4 other tabs or devices")
    expect(fifth.locator("#banner")).to_be_hidden()
    expect(fifth.locator("#retry-btn")).to_be_visible()
    fifth.screenshot(path=str(artifacts / "fifth-tab-phone.png"))
    tabs[0].close()  # one closed: trying again lets it in
    fifth.click("#retry-btn")
    expect(fifth.locator("#hand")).to_be_visible()
    context.close()


def covered(page: Page, selector: str) -> list[str]:
    """The buttons of ``selector`` that something covers when scrolled to the foot of the
    screen (or of the panel that scrolls them), as a player scrolling down to them sees them."""
    return list(page.locator(selector).evaluate_all("""buttons => buttons.filter((b) => {
        b.scrollIntoView({ block: "end" });
        const r = b.getBoundingClientRect();
        return !b.contains(document.elementFromPoint(r.left + r.width / 2, r.bottom - 4));
      }).map((b) => b.textContent)"""))


def test_the_chat_bar_covers_no_button_and_sideways_taps_stay_44_px(
        chromium: Browser, server: Server, artifacts: Path) -> None:
    made = server.api("POST", "/api/tables", {"preset": "basic", "name": "Eve", "players": 4,
                                              "turn_seconds": None})
    code = made["code"]
    server.api("POST", f"/api/tables/{code}/join", {"name": "Bob", "seat": 1})  # away
    server.api("POST", f"/api/tables/{code}/bots", {"bot": "heuristic"}, made["token"])
    server.api("POST", f"/api/tables/{code}/start", {}, made["token"])
    for device, name in ((LANDSCAPE, "landscape"), (PHONE, "phone")):
        w = open_seat(chromium, server, code, made["token"], 0, "Eve", device)
        page = w.page
        expect(page.locator("body")).to_have_attribute("data-my-turn", "1", timeout=15_000)
        page.locator("#hand .card.playable").first.tap()
        expect(page.locator("#back-btn")).to_be_visible()
        assert covered(page, "#picker button") == []
        # on a phone the folded bar is pinned to the screen's foot, but not on your turn
        pinned = "getComputedStyle(document.getElementById('chat')).position"
        if device is PHONE:
            assert page.evaluate(pinned) == "static"
        page.locator("#back-btn").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"picker-uncovered-{name}.png"))
        heights = page.locator("#picker button, #hand .card").evaluate_all(
            "els => els.map(e => e.getBoundingClientRect().height)")
        assert heights and min(heights) >= 44, heights
        if device is PHONE:
            page.locator("#cancel-btn").tap()
            play_one_move(w, on_board=False)
            # Bob's turn (he is away): the bar is pinned again
            expect(page.locator("#status")).to_contain_text("Waiting for Bob")
            assert page.evaluate(pinned) == "sticky"
        w.context.close()
