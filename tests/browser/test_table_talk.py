"""Table talk in the page against a real `pegs serve`: phrases, reactions and text shown as
text, the phone's folded chat telling of new messages, the host muting a seat, spectators
reading only, and at a teaching table the team channel and a move suggested to the partner,
drawn on the partner's board."""

from __future__ import annotations

from pathlib import Path

from browser_support import Server, seat_script
from playwright.sync_api import Browser, expect
from test_play_online import PHONE, Watched, play_one_move

DESKTOP = {"viewport": {"width": 1280, "height": 800}}


def open_seat(chromium: Browser, server: Server, code: str, token: str, seat: int,
              name: str, device: dict[str, object]) -> Watched:
    w = Watched(chromium.new_context(**device))
    w.context.add_init_script(seat_script(code, token, seat, name))
    w.page.goto(f"{server.base}/t/{code}")
    return w


def test_chat_and_a_suggested_move_at_a_teaching_table(chromium: Browser, server: Server,
                                                        artifacts: Path) -> None:
    made = server.api("POST", "/api/tables", {"preset": "pegoo", "name": "Ann", "players": 4,
                                              "teaching": True, "turn_seconds": None})
    code = made["code"]
    cat = server.api("POST", f"/api/tables/{code}/join", {"name": "Cat", "seat": 2})
    server.api("POST", f"/api/tables/{code}/bots", {"bot": "heuristic"}, made["token"])
    server.api("POST", f"/api/tables/{code}/start", {}, made["token"])
    ann = open_seat(chromium, server, code, made["token"], 0, "Ann", DESKTOP)
    phone = open_seat(chromium, server, code, cat["token"], 2, "Cat", PHONE)
    rail = Watched(chromium.new_context(**DESKTOP))
    rail.page.goto(f"{server.base}/t/{code}")
    rail.page.click("#watch")
    for w in (ann, phone):
        expect(w.page.locator("#players li")).to_have_count(4)

    # a phrase, a reaction and text with markup: the phone's folded chat tells of them
    ann.page.click("#chat-quick [data-phrase=good_move]")
    ann.page.click("#chat-quick [data-phrase=party]")
    ann.page.fill("#chat-text", "<b>bold</b> move")
    ann.page.press("#chat-text", "Enter")
    expect(ann.page.locator("#chat-list li")).to_have_count(3)
    expect(ann.page.locator("#chat-text")).to_have_value("")
    assert not phone.page.locator("#chat").evaluate("d => d.open")
    expect(phone.page.locator("#chat-news")).to_contain_text("3 new: Ann: <b>bold</b> move")
    phone.page.screenshot(path=str(artifacts / "talk-phone-folded.png"))
    assert phone.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    phone.page.click("#chat-summary")
    said = phone.page.locator("#chat-list li .said")
    expect(said).to_have_text(["Good move!", "🎉", "<b>bold</b> move"])
    assert phone.page.locator("#chat-list b").count() == 0  # text, never HTML
    # the spectator reads, and may not write
    expect(rail.page.locator("#chat-list li .said")).to_have_count(3)
    expect(rail.page.locator("#chat-note")).to_contain_text("Spectators read")
    expect(rail.page.locator("#chat-text")).to_be_disabled()

    # the team channel: only Ann and Cat
    ann.page.click("#chat-tabs [data-channel=team]")
    ann.page.fill("#chat-text", "keep your pegs home")
    ann.page.click("#chat-send")
    phone.page.click("#chat-tabs [data-channel=team]")
    expect(phone.page.locator("#chat-list li .said")).to_have_text(["keep your pegs home"])
    expect(rail.page.locator("#chat-tabs button")).to_have_count(0)
    ann.page.click("#chat-tabs [data-channel=table]")

    # a suggestion at the partner's turn, drawn on the partner's board (a discard draws
    # no arrow: while the partner can only discard, they discard and play goes on)
    while True:
        ann.page.wait_for_function("document.body.dataset.myTurn === '1' || "
                                   "!!document.querySelector('#suggest-select')",
                                   timeout=30_000)
        suggester, mover = (phone, ann) if ann.my_turn() else (ann, phone)
        select = suggester.page.locator("#suggest-select")
        expect(select).to_be_visible(timeout=30_000)
        options = select.locator("option").evaluate_all(
            "os => os.slice(1).map(o => [o.value, o.textContent])")
        moves = [value for value, words in options if not words.endswith(": discard")]
        if moves:
            break
        play_one_move(mover, on_board=False)
        played = mover.version()
        for w in (ann, phone):
            w.page.wait_for_function(f"+document.body.dataset.version >= {played}")
    select.select_option(moves[0])
    expect(suggester.page.locator("#board .hint-arrow").first).to_be_attached()
    suggester.page.click("#suggest-btn")
    expect(mover.page.locator("#suggestion")).to_contain_text("suggests:")
    expect(mover.page.locator("#board .hint-arrow").first).to_be_attached()
    for w, role in ((mover, "suggested"), (suggester, "suggesting")):
        device = "desktop" if w is ann else "phone"
        w.page.screenshot(path=str(artifacts / f"talk-{role}-{device}.png"),
                          full_page=w is phone)

    # the host mutes Cat: the phone's box goes quiet
    ann.page.click("#players li[data-seat='2'] .mute-toggle")
    expect(phone.page.locator("#chat-note")).to_contain_text("muted")
    expect(phone.page.locator("#chat-text")).to_be_disabled()
    expect(ann.page.locator("#players li[data-seat='2'] .mute-toggle")).to_have_text("Unmute")
    ann.page.screenshot(path=str(artifacts / "talk-desktop.png"))
    phone.page.screenshot(path=str(artifacts / "talk-phone.png"), full_page=True)
    assert phone.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert ann.errors == [] and phone.errors == [] and rail.errors == []
    for w in (ann, phone, rail):
        w.context.close()
