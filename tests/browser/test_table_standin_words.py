"""A player back after a stand-in bot played for them: the log names the bot for them as
for everyone, and a one-line notice says how many moves it made in their name."""

from __future__ import annotations

import time
from pathlib import Path

from browser_support import Server, seat_script
from playwright.sync_api import Browser, expect
from test_play_online import Watched

LAPTOP = {"viewport": {"width": 1366, "height": 768}}


def test_a_returning_player_is_told_what_the_stand_in_did(chromium: Browser, server: Server,
                                                          artifacts: Path) -> None:
    made = server.table_with_bots("basic", 4, name="Fay")
    code, token = made["code"], made["token"]
    server.api("POST", f"/api/tables/{code}/seats/0/bot", {}, token)
    deadline = time.monotonic() + 30
    while True:
        log = server.api("GET", f"/api/tables/{code}/log")["log"]
        if sum(e["seat"] == 0 for e in log) >= 2:
            break
        assert time.monotonic() < deadline, "the stand-in did not play"
        time.sleep(0.05)
    server.api("POST", f"/api/tables/{code}/seats/0/reclaim", {}, token)
    log = server.api("GET", f"/api/tables/{code}/log")["log"]
    by_bot = [e for e in log if e["seat"] == 0]
    assert by_bot and all(e.get("standin") for e in by_bot)
    assert not any(e.get("standin") for e in log if e["seat"] != 0)

    context = chromium.new_context(**LAPTOP)
    context.add_init_script(seat_script(code, token, 0, "Fay"))
    w = Watched(context)
    w.page.goto(f"{server.base}/t/{code}")
    n = len(by_bot)
    expect(w.page.locator("#notice")).to_contain_text(
        f"While you were away, a bot made {n} moves for you")
    entries = w.page.locator("#log li .who", has_text="Fay's stand-in bot")
    expect(entries).to_have_count(n)
    for i in range(n):
        assert "you" not in (entries.nth(i).locator("xpath=..").text_content() or "").split(":")[0]
    w.page.locator("#log").scroll_into_view_if_needed()
    w.page.screenshot(path=str(artifacts / "standin-words-laptop.png"))
    assert w.errors == []
    context.close()
