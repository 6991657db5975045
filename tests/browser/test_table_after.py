"""After the game: the result, a summary per team, "Play again" (both players agree, both
pages move to the new game with the same seats) and "New table"."""

from __future__ import annotations

import time
from pathlib import Path

from browser_support import Server, seat_script
from playwright.sync_api import Browser, expect
from test_play_online import DESKTOP, PHONE, Watched


def finished_two_player_table(server: Server) -> tuple[str, list[str]]:
    """Ann and Bob with two bots; stand-in bots play their seats to the end."""
    made = server.api("POST", "/api/tables", {"preset": "pegoo", "name": "Ann", "players": 4,
                                               "settings": {"pegs": 3}})
    code, tokens = made["code"], [made["token"]]
    tokens.append(server.api("POST", f"/api/tables/{code}/join", {"name": "Bob"})["token"])
    server.api("POST", f"/api/tables/{code}/bots", {"bot": "heuristic"}, tokens[0])
    server.api("POST", f"/api/tables/{code}/start", {}, tokens[0])
    for seat in (0, 1):
        server.api("POST", f"/api/tables/{code}/seats/{seat}/bot", {}, tokens[0])
    deadline = time.monotonic() + 60
    while server.api("GET", f"/api/tables/{code}")["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.1)
    for seat in (0, 1):
        server.api("POST", f"/api/tables/{code}/seats/{seat}/reclaim", {}, tokens[seat])
    return code, tokens


def test_play_again_starts_a_new_game_with_the_same_seats(chromium: Browser, server: Server,
                                                          artifacts: Path) -> None:
    code, tokens = finished_two_player_table(server)
    pages = []
    for seat, (name, shape) in enumerate((("Ann", DESKTOP), ("Bob", PHONE))):
        context = chromium.new_context(**shape)
        context.add_init_script(seat_script(code, tokens[seat], seat, name))
        w = Watched(context)
        w.page.goto(f"{server.base}/t/{code}")
        pages.append(w)
    ann, bob = pages
    for w in pages:
        expect(w.page.locator("#summary li")).to_have_count(2)
        expect(w.page.locator("#summary")).to_contain_text("Your team (")
        expect(w.page.locator("#new-table-btn")).to_be_visible()
    ann.page.screenshot(path=str(artifacts / "after-game-desktop.png"))
    bob.page.screenshot(path=str(artifacts / "after-game-phone.png"), full_page=True)

    ann.page.click("#again-btn")
    expect(ann.page.locator("#rematch-wait")).to_contain_text("Waiting for Bob")
    expect(bob.page.locator("#rematch-ask")).to_contain_text("Ann wants to play again")
    bob.page.screenshot(path=str(artifacts / "after-game-asked.png"), full_page=True)
    # "New table" goes to the start page, which lists the game; back again, Bob agrees
    bob.page.click("#new-table-btn")
    bob.page.wait_for_url(f"{server.base}/")
    expect(bob.page.locator(f"#my-games li[data-code='{code}']")).to_contain_text("finished")
    bob.page.go_back()
    bob.page.click("#again-btn")
    deadline = time.monotonic() + 10
    while not (nxt := server.api("GET", f"/api/tables/{code}")["next"]):
        assert time.monotonic() < deadline, "the rematch did not start"
        time.sleep(0.05)
    for seat, w in enumerate(pages):
        w.page.wait_for_url(f"**/t/{nxt}")
        expect(w.page.locator("#hand")).to_have_attribute("data-seat", str(seat))
        expect(w.page.locator("#players li .player-name")).to_have_text(
            ["Ann", "Bob", "Yellow bot, club player", "Green bot, club player"])
        assert w.errors == []
    assert server.api("GET", f"/api/tables/{nxt}")["status"] == "playing"

    for w in pages:
        w.context.close()
