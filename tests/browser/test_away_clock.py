"""Whose move and which clock (issue 50, item 9): while the seat to act is away everyone
sees when its stand-in bot will move (not the turn clock); the stand-in's moves read alike
for everyone and for the player back, who is told a bot played for them; a turn that ran
out of time stays said in the log after the next moves."""

from __future__ import annotations

import re
import time
from pathlib import Path

from browser_support import Server, seat_script
from make_fixtures import played_state, state_message
from playwright.sync_api import Browser, Page, expect
from test_page_words import FakeTable
from test_play_online import PHONE, Watched, play_one_move

LAPTOP = {"viewport": {"width": 1280, "height": 800}}
AWAY = 15


def test_the_away_clock_and_the_stand_ins_moves(chromium: Browser, server: Server,
                                                artifacts: Path) -> None:
    made = server.api("POST", "/api/tables", {"preset": "basic", "name": "Gran", "players": 4,
                                              "away_seconds": AWAY, "turn_seconds": 300})
    code = made["code"]
    bob = server.api("POST", f"/api/tables/{code}/join", {"name": "Bob", "seat": 1})
    server.api("POST", f"/api/tables/{code}/bots", {"bot": "heuristic"}, made["token"])
    server.api("POST", f"/api/tables/{code}/start", {}, made["token"])
    gran = Watched(chromium.new_context(**LAPTOP, has_touch=True))
    gran.context.add_init_script(seat_script(code, made["token"], 0, "Gran"))
    gran.page.goto(f"{server.base}/t/{code}")
    phone = Watched(chromium.new_context(**PHONE))
    phone.context.add_init_script(seat_script(code, bob["token"], 1, "Bob"))
    phone.page.goto(f"{server.base}/t/{code}")
    expect(phone.page.locator("#hand")).to_have_attribute("data-seat", "1")
    bob_row = gran.page.locator("#players li[data-seat='1']")
    expect(bob_row).not_to_contain_text("away")
    phone.context.close()  # Bob goes: his stand-in comes in AWAY seconds
    # (also while it is not his turn, the list says when his stand-in takes over)
    expect(bob_row).to_contain_text(re.compile(r"away, a bot plays from \d{1,2}:\d{2}"))
    expect(gran.page.locator("body")).to_have_attribute("data-my-turn", "1")
    play_one_move(gran, on_board=False)
    # Bob's turn: the clock says when his stand-in moves, not the 5 minutes of a turn
    expect(gran.page.locator("#status")).to_contain_text("Waiting for Bob")
    clock = gran.page.locator("#turn-clock")
    expect(clock).to_have_text(re.compile(r"^away: a bot moves in 0:(0\d|1[0-5])$"))
    gran.page.screenshot(path=str(artifacts / "away-clock-laptop.png"))

    expect(gran.page.locator("#log .who", has_text="Bob's stand-in bot").first).to_be_visible(
        timeout=(AWAY + 20) * 1000)
    moves = [e for e in server.api("GET", f"/api/tables/{code}/log")["log"] if e["seat"] == 1]
    assert all(e.get("standin") for e in moves)

    back = Watched(chromium.new_context(**PHONE))  # Bob is back
    back.context.add_init_script(seat_script(code, bob["token"], 1, "Bob"))
    back.page.goto(f"{server.base}/t/{code}")
    expect(back.page.locator("#notice")).to_contain_text("While you were away, a bot made")
    expect(back.page.locator("#notice")).to_contain_text("for you")
    # the same words for his moves on both pages: the stand-in's, never "Bob - you"
    for page in (gran.page, back.page):
        entry = page.locator("#log li", has=page.locator(".who", has_text="Bob's stand-in bot"))
        expect(entry.first).to_be_visible()
        assert not page.locator("#log .who", has_text=re.compile(r"^Bob$")).count()
    back.page.screenshot(path=str(artifacts / "away-back-phone.png"), full_page=True)
    assert gran.errors == [] and back.errors == []
    gran.context.close()
    back.context.close()


def test_ran_out_of_time_stays_in_the_log(static_page: Page) -> None:
    state, last = played_state("pegoo", 4, 60, seed=3)
    msg = state_message(state, state.current_player, last)
    table = FakeTable(static_page, msg)
    v, me = msg["version"], msg["seat"]
    name = msg["table"]["seats"][me]["name"]
    expect(static_page.locator("body")).to_have_attribute("data-version", str(v))
    table.push({"type": "event", "version": v + 1, "seat": me, "action": "5: discard",
                "announcement": "Five. Can't play; discards.", "timed_out": True})
    table.push({**table.msg, "version": v + 1, "legal": None, "turn_ends": None})
    expect(static_page.locator("#ran-out")).to_contain_text(f"{name} ran out of time")
    other = (me + 1) % 4
    table.push({"type": "event", "version": v + 2, "seat": other, "action": "5: discard",
                "announcement": "Five. Can't play; discards."})
    table.push({**table.msg, "version": v + 2, "legal": None, "turn_ends": None})
    expect(static_page.locator("body")).to_have_attribute("data-version", str(v + 2))
    entry = static_page.locator(f"#log li[data-version='{v + 1}']")
    expect(entry).to_contain_text(f"({name} ran out of time)")
    expect(entry.locator(".who")).to_have_text(f"{name}'s stand-in bot")


def test_the_away_clock_comes_from_the_seats_away_end(static_page: Page) -> None:
    state, last = played_state("pegoo", 4, 60, seed=3)
    mover = state.current_player
    msg = state_message(state, (mover + 1) % 4, last)
    msg["table"].update(turn_seconds=120, away_seconds=60)
    msg["turn_ends"] = time.time() + 110
    seat = msg["table"]["seats"][mover]
    seat.update(kind="human", connected=False, standin=False, away_ends=time.time() + 40)
    table = FakeTable(static_page, msg)
    clock = static_page.locator("#turn-clock")
    expect(clock).to_have_text(re.compile(r"^away: a bot moves in 0:[34]\d$"))
    # back before the stand-in came: the turn clock again
    connected = [True] * 4
    table.push({"type": "presence", "version": msg["version"], "connected": connected,
                "away_ends": [None] * 4})
    expect(clock).to_have_text(re.compile(r"^1:[45]\d left$"))
