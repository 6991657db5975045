"""Bluffing Joker told in full: the doubt prompt shows the declaration in words, and after
a doubt both players' pages show the real card, bluff or not, and the penalty."""

from __future__ import annotations

import re
from pathlib import Path

from browser_support import Server, axe_violations, seat_script, to_confirm
from playwright.sync_api import Browser, expect
from test_play_online import DESKTOP, PHONE, Watched, wait_for_turn

COLOURS = re.compile(r"\b(Red|Blue|Yellow|Green)\b")
CARD_WORDS = {"A": "Ace", "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six",
              "7": "Seven", "8": "Eight", "9": "Nine", "10": "Ten", "J": "Jack", "Q": "Queen",
              "K": "King", "Joker": "Joker"}


def declare_first_move(w: Watched) -> None:
    """Play the first playable card face down, as its first declaration, first move."""
    page = w.page
    page.locator("#hand .card.playable").first.click()
    to_confirm(page, tap=False)
    before = w.version()
    page.locator(".confirm-btn").first.click()
    page.wait_for_function(f"+document.body.dataset.version > {before}")


def test_a_doubt_reveals_the_card_and_the_penalty_to_both(chromium: Browser, server: Server,
                                                          artifacts: Path) -> None:
    made = server.api("POST", "/api/tables", {"preset": "bluffing-joker", "name": "Eve",
                                               "players": 2})
    code = made["code"]
    finn_token = server.api("POST", f"/api/tables/{code}/join", {"name": "Finn"})["token"]
    server.api("POST", f"/api/tables/{code}/start", {}, made["token"])
    players = []
    for seat, (name, token, shape) in enumerate((("Eve", made["token"], DESKTOP),
                                                  ("Finn", finn_token, PHONE))):
        context = chromium.new_context(**shape)
        context.add_init_script(seat_script(code, token, seat, name))
        w = Watched(context)
        w.page.goto(f"{server.base}/t/{code}")
        players.append(w)

    declarer = wait_for_turn(players)
    doubter = players[1 - players.index(declarer)]
    declare_first_move(declarer)
    pending = declarer.states[-1]["view"]["pending"]
    real = CARD_WORDS[pending["action"].split(" as ")[0]]
    said = CARD_WORDS[pending["declared"]]
    # the doubt prompt shows the declaration in words, never the notation
    prompt = doubter.page.locator("#doubt")
    expect(prompt).to_be_visible()
    expect(doubter.page.locator("#declaration")).to_contain_text(f"{said}, face down")
    assert " as " not in prompt.inner_text() and ">" not in prompt.inner_text()
    doubter.page.screenshot(path=str(artifacts / "bluff-prompt.png"), full_page=True)
    assert axe_violations(doubter.page) == []
    doubter.page.click("#doubt-btn")

    for w in players:
        reveal = w.page.locator("#reveal")
        expect(reveal).to_contain_text(f"The card is a{'n' if real[0] in 'AEIO' else ''} {real}")
        expect(w.page.locator("#reveal-verdict")).to_have_text(
            "The card is turned over: " + ("a bluff!" if real != said else "it was true"))
        text = reveal.inner_text()
        assert "extra turn" in text or "back to START" in text, text
        log = w.page.locator("#log li").first
        expect(log).to_contain_text(real)
        expect(w.page.locator("#last-move")).to_have_count(0)  # the banner tells it once
    for w, name in zip(players, ("desktop", "phone"), strict=True):
        w.page.screenshot(path=str(artifacts / f"bluff-revealed-{name}.png"), full_page=True)
        assert axe_violations(w.page) == []
    chooser = [w for w in players if w.page.locator("#send").count()]
    if chooser:  # the winner of the doubt picks the peg; both pages tell which
        before = chooser[0].version()
        chooser[0].page.locator("#send .choices button").first.click()
        chooser[0].page.locator("#confirm-btn").click()
        chooser[0].page.wait_for_function(f"+document.body.dataset.version > {before}")
        for w in players:
            expect(w.page.locator("#reveal")).to_contain_text("START")
    for w, shape in zip(players, ("desktop", "phone"), strict=True):
        # told once, by the players' names; the Joker written out
        told = w.page.locator("#reveal").inner_text()
        assert told.count(" sends ") <= 1 and not COLOURS.search(told), told
        newest = w.page.locator("#log li").first.inner_text()
        assert newest.count(" sends ") <= 1 and not COLOURS.search(newest), newest
        assert "J*" not in w.page.locator("#panel").inner_text()
        w.page.screenshot(path=str(artifacts / f"bluff-after-{shape}.png"), full_page=True)
    for w in players:
        assert w.errors == []
        w.context.close()
