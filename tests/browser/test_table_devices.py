"""A seat follows its player: the personal rejoin link opens it on another device (the
first one closed), and the start page lists the games this browser takes part in."""

from __future__ import annotations

from pathlib import Path

from browser_support import Server, seat_script
from playwright.sync_api import Browser, expect
from test_play_online import DESKTOP, PHONE, Watched, play_one_move


def test_the_rejoin_link_plays_the_seat_on_another_device(chromium: Browser, server: Server,
                                                          artifacts: Path) -> None:
    made = server.table_with_bots("pegoo", 4, name="Gran")
    code = made["code"]
    laptop = Watched(chromium.new_context(**DESKTOP))
    laptop.context.add_init_script(seat_script(code, made["token"], 0, "Gran"))
    laptop.page.goto(f"{server.base}/t/{code}")
    laptop.page.click("#rejoin summary")
    link = laptop.page.locator("#rejoin-link").input_value()
    assert link == f"{server.base}/t/{code}#seat={made['token']}"
    laptop.page.screenshot(path=str(artifacts / "rejoin-link.png"))
    laptop.context.close()

    tablet = Watched(chromium.new_context(**PHONE))
    tablet.page.goto(link)
    expect(tablet.page.locator("#hand")).to_have_attribute("data-seat", "0")
    expect(tablet.page.locator("#me")).to_contain_text("You are Gran")
    assert "#seat=" not in tablet.page.url  # the token leaves the address bar
    expect(tablet.page.locator("body")).to_have_attribute("data-my-turn", "1", timeout=15_000)
    before = tablet.version()
    play_one_move(tablet, on_board=False)
    assert tablet.first_after(before)["last"]["seat"] == 0

    # the start page of that device lists the game, and leads back to it
    tablet.page.goto(server.base + "/")
    game = tablet.page.locator(f"#my-games li[data-code='{code}']")
    expect(game).to_contain_text("in play")
    expect(game).to_contain_text("You are Gran")
    tablet.page.screenshot(path=str(artifacts / "my-games-phone.png"))
    game.locator("a").click()
    expect(tablet.page.locator("#hand")).to_have_attribute("data-seat", "0")
    assert tablet.errors == []
    tablet.context.close()
