"""A player who walks away does not stop the game: after the table's away delay a stand-in
bot plays their seat, everyone sees it, and the seat is theirs again when they come back."""

from __future__ import annotations

import re
import time
from pathlib import Path

from browser_support import Server, seat_script
from playwright.sync_api import Browser, expect
from test_play_online import DESKTOP, PHONE, Watched, play_one_move


def test_an_away_player_is_covered_by_a_stand_in_until_they_return(
        chromium: Browser, server: Server, artifacts: Path) -> None:
    made = server.api("POST", "/api/tables", {"preset": "pegoo", "name": "Gran", "players": 4,
                                              "away_seconds": 1, "turn_seconds": None})
    code = made["code"]
    bob = server.api("POST", f"/api/tables/{code}/join", {"name": "Bob", "seat": 1})
    server.api("POST", f"/api/tables/{code}/bots", {"bot": "heuristic"}, made["token"])

    gran = Watched(chromium.new_context(**DESKTOP, has_touch=True))  # a tablet
    gran.context.add_init_script(seat_script(code, made["token"], 0, "Gran"))
    gran.page.goto(f"{server.base}/t/{code}")
    phone = Watched(chromium.new_context(**PHONE))
    phone.context.add_init_script(seat_script(code, bob["token"], 1, "Bob"))
    phone.page.goto(f"{server.base}/t/{code}")
    # the game starts once both pages are connected (with a one-second away delay and
    # bots that do not pause, a page still loading would find the game played out)
    deadline = time.monotonic() + 30
    while not all(s["connected"] for s in server.api("GET", f"/api/tables/{code}")["seats"]):
        assert time.monotonic() < deadline, "the two pages never connected"
        time.sleep(0.05)
    server.api("POST", f"/api/tables/{code}/start", {}, made["token"])
    expect(phone.page.locator("#hand")).to_have_attribute("data-seat", "1", timeout=15_000)
    bob_row = gran.page.locator("#players li[data-seat='1']")
    expect(bob_row).not_to_contain_text("a bot plays for now", timeout=15_000)

    phone.context.close()  # Bob walks away: after a second a stand-in plays for him
    expect(bob_row).to_contain_text("a bot plays for now", timeout=15_000)
    # the board's label says so too (not just "away")
    expect(gran.page.locator("#board .seat-label[data-seat='1'] .seat-text")).to_have_text(
        re.compile(r"^(▶ )?Bob \(a bot plays\)$"))
    gran.page.screenshot(path=str(artifacts / "away-covered.png"))

    def bob_moves() -> int:
        log = server.api("GET", f"/api/tables/{code}/log")["log"]
        return sum(1 for entry in log if entry["seat"] == 1)

    played = bob_moves()
    # the game does not wait for him: Gran plays, and the stand-in answers for Bob
    expect(gran.page.locator("body")).to_have_attribute("data-my-turn", "1", timeout=15_000)
    play_one_move(gran, on_board=False)
    deadline = time.monotonic() + 15
    while bob_moves() == played:
        assert time.monotonic() < deadline, "the stand-in never played Bob's turn"
        time.sleep(0.1)

    back = Watched(chromium.new_context(**PHONE))  # Bob comes back: the seat is his again
    back.context.add_init_script(seat_script(code, bob["token"], 1, "Bob"))
    back.page.goto(f"{server.base}/t/{code}")
    expect(bob_row).not_to_contain_text("a bot plays for now", timeout=15_000)
    assert gran.errors == [] and back.errors == []
    gran.context.close()
    back.context.close()
