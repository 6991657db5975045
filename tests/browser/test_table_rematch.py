"""Play again with one player gone to bed: the host hands that seat to a bot for the
rematch and the others play on; the finished game stays open in a browser that agreed
(back, its old link), with a link to the next game, so its replay can still be opened."""

from __future__ import annotations

import time
from pathlib import Path

from browser_support import Server, seat_script
from playwright.sync_api import Browser, expect
from test_play_online import Watched

LAPTOP = {"viewport": {"width": 1366, "height": 768}}


def finished_three_player_table(server: Server) -> tuple[str, list[str]]:
    """Ann, Bob and Cleo with a bot; stand-in bots play their seats to the end."""
    made = server.api("POST", "/api/tables", {"preset": "pegoo", "name": "Ann", "players": 4,
                                               "settings": {"pegs": 3}})
    code, tokens = made["code"], [made["token"]]
    for name in ("Bob", "Cleo"):
        tokens.append(server.api("POST", f"/api/tables/{code}/join", {"name": name})["token"])
    server.api("POST", f"/api/tables/{code}/bots", {"bot": "heuristic"}, tokens[0])
    server.api("POST", f"/api/tables/{code}/start", {}, tokens[0])
    for seat in (0, 1, 2):
        server.api("POST", f"/api/tables/{code}/seats/{seat}/bot", {}, tokens[0])
    deadline = time.monotonic() + 60
    while server.api("GET", f"/api/tables/{code}")["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.1)
    for seat in (0, 1, 2):
        server.api("POST", f"/api/tables/{code}/seats/{seat}/reclaim", {}, tokens[seat])
    return code, tokens


def test_the_host_hands_a_sleeping_seat_to_a_bot_and_the_old_game_stays_open(
        chromium: Browser, server: Server, artifacts: Path) -> None:
    code, tokens = finished_three_player_table(server)
    pages = []
    for seat, name in enumerate(("Ann", "Bob")):
        context = chromium.new_context(**LAPTOP)
        context.add_init_script(seat_script(code, tokens[seat], seat, name))
        w = Watched(context)
        w.page.goto(f"{server.base}/t/{code}")
        expect(w.page.locator("#finished")).to_be_visible()
        pages.append(w)
    ann, bob = pages
    bob.page.click("#again-btn")
    ann.page.click("#again-btn")
    expect(ann.page.locator("#rematch-wait")).to_contain_text("Waiting for Cleo")
    # Cleo has gone to bed: the host (or Bob, who agreed) gives her seat to a bot
    expect(bob.page.locator("#rematch-hand button")).to_have_text(["A bot plays for Cleo"])
    hand = ann.page.locator("#rematch-hand button")
    expect(hand).to_have_text(["A bot plays for Cleo"])
    ann.page.locator("#finished").scroll_into_view_if_needed()
    ann.page.screenshot(path=str(artifacts / "rematch-hand-to-bot-laptop.png"))
    hand.click()
    deadline = time.monotonic() + 10
    while not (nxt := server.api("GET", f"/api/tables/{code}")["next"]):
        assert time.monotonic() < deadline, "the rematch did not start"
        time.sleep(0.05)
    for seat, w in enumerate(pages):  # both were on the end screen: they move on
        w.page.wait_for_url(f"**/t/{nxt}")
        expect(w.page.locator("#hand")).to_have_attribute("data-seat", str(seat))
    seats = server.api("GET", f"/api/tables/{nxt}")["seats"]
    assert [(s["name"], s["standin"]) for s in seats][:3] == [
        ("Ann", False), ("Bob", False), ("Cleo", True)]

    # back to the finished game: it stays, with its replay, and a link to the next one
    ann.page.go_back()
    ann.page.wait_for_url(f"**/t/{code}")
    expect(ann.page.locator("#next-game")).to_contain_text("The next game has started: open it")
    time.sleep(1)
    assert ann.page.url.endswith(f"/t/{code}")
    ann.page.locator("#finished").scroll_into_view_if_needed()
    ann.page.screenshot(path=str(artifacts / "rematch-old-game-stays-laptop.png"))
    ann.page.click("#replay-btn")
    expect(ann.page.locator("#panel")).to_contain_text("Replay")
    ann.page.screenshot(path=str(artifacts / "rematch-old-game-replay-laptop.png"))
    # the old link, opened afresh, stays too; "open it" goes to the next game, seat held
    bob.page.goto(f"{server.base}/t/{code}")
    expect(bob.page.locator("#next-link")).to_be_visible()
    time.sleep(1)
    assert bob.page.url.endswith(f"/t/{code}")
    bob.page.click("#next-link")
    bob.page.wait_for_url(f"**/t/{nxt}")
    expect(bob.page.locator("#hand")).to_have_attribute("data-seat", "1")

    # Cleo wakes up: her old link shows the way, and her connection takes her seat back
    # from the bot (the page offers a button until the server has done so)
    context = chromium.new_context(**LAPTOP)
    context.add_init_script(seat_script(code, tokens[2], 2, "Cleo"))
    cleo = Watched(context)
    cleo.page.goto(f"{server.base}/t/{code}")
    cleo.page.click("#next-link")
    cleo.page.wait_for_url(f"**/t/{nxt}")
    deadline = time.monotonic() + 15
    while server.api("GET", f"/api/tables/{nxt}")["seats"][2]["standin"]:
        assert time.monotonic() < deadline, "Cleo's seat stayed with its bot"
        time.sleep(0.05)
    expect(cleo.page.locator("#reclaim-btn")).to_have_count(0)
    expect(cleo.page.locator("#hand")).to_have_attribute("data-seat", "2")
    for w in (*pages, cleo):
        assert w.errors == []
        w.context.close()
