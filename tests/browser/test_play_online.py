"""The page against a real `pegs serve`: two browsers create and join a table with two bots
and play by clicking; a reload keeps the seat; a server restart is survived; the second
player never receives the first player's cards; boards of 4, 6 and 8 sides render."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from browser_support import Server, seat_script, to_confirm
from playwright.sync_api import Browser, BrowserContext, expect

from pegs.rules import Action
from pegs.server.protocol import legal_texts

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1200, "height": 820}}
LANDSCAPE = {**PHONE, "viewport": {"width": 844, "height": 390}}


class Watched:
    """A page with the state messages it received and the page errors it raised."""

    def __init__(self, context: BrowserContext) -> None:
        self.context = context
        self.page = context.new_page()
        self.states: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("websocket", self._socket)

    def _socket(self, ws: Any) -> None:
        def received(payload: str | bytes) -> None:
            msg = json.loads(payload)
            if msg.get("type") == "state":
                self.states.append(msg)
        ws.on("framereceived", received)

    def first_after(self, version: int) -> dict[str, Any]:
        """The first state message received after ``version``."""
        return next(m for m in self.states if m["version"] > version)

    def version(self) -> int:
        return int(self.page.evaluate("document.body.dataset.version || '-1'"))

    def my_turn(self) -> bool:
        return bool(self.page.evaluate("document.body.dataset.myTurn === '1'"))


def play_one_move(w: Watched, *, on_board: bool) -> str:
    """Pick a move by tapping: a card, then pegs and targets (on the board or in the panel),
    then confirm once.  Answers the confirmed action's text."""
    page = w.page
    page.locator("#hand .card.playable").first.click()
    for _ in range(8):
        if page.locator("#declare button").count():
            page.locator("#declare button").first.click()
        elif page.locator(".confirm-btn").count():
            break
        elif page.locator("#targets button").count():
            if on_board:
                page.locator("#board .target-tap").first.click(force=True)
            else:
                page.locator("#targets button").first.tap()
        elif page.locator("#pegs button").count():
            if on_board:
                page.locator("#board .peg.selectable").first.click(force=True)
            else:
                page.locator("#pegs button").first.tap()
    confirm = page.locator(".confirm-btn").first
    text = confirm.get_attribute("data-action") or ""
    before = w.version()
    confirm.click()
    page.wait_for_function(f"+document.body.dataset.version > {before}", timeout=15_000)
    return text


def wait_for_turn(players: list[Watched], timeout: float = 30) -> Watched:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for w in players:
            if w.my_turn():
                return w
        players[0].page.wait_for_timeout(50)
    raise AssertionError("no human was asked to move")


def test_two_players_create_join_and_play(chromium: Browser, server: Server,
                                          artifacts: Path) -> None:
    ann = Watched(chromium.new_context(**DESKTOP))
    bob = Watched(chromium.new_context(**PHONE))
    page = ann.page
    page.goto(server.base + "/")
    page.fill("#name", "Ann")
    page.select_option("#preset", "pegoo")
    page.select_option("#players", "4")
    page.select_option("#bot-level", "club")
    page.click("#create-btn")
    link = page.locator("#share-link").input_value()
    assert "/t/" in link

    bob.page.goto(link)
    bob.page.fill("#join-name", "Bob")
    # Ann's team comes first and is chosen (issue 50): Bob plays against her
    bob.page.locator("#team-choice label", has_text="nobody there yet").click()
    bob.page.click("#join-btn")
    expect(page.locator("#seats li[data-seat='1']")).to_contain_text("Bob")
    page.click("#start-btn")
    expect(page.locator("#hand .card").first).to_be_visible()
    expect(bob.page.locator("#hand .card").first).to_be_visible()
    seats = page.locator("#board .seat-label")
    expect(seats).to_have_count(4)

    moves = {"Ann": 0, "Bob": 0}
    played: list[str] = []
    while min(moves.values()) < 3:
        w = wait_for_turn([ann, bob])
        who = "Ann" if w is ann else "Bob"
        played.append(play_one_move(w, on_board=w is ann))
        moves[who] += 1
    assert all(played)
    page.locator("#board").screenshot(path=str(artifacts / "play-desktop-board.png"))
    bob.page.screenshot(path=str(artifacts / "play-phone.png"), full_page=True)
    expect(page.locator("#log li").first).to_be_visible()
    page.click("#cue-btn")
    expect(page.locator("#cue-text")).to_contain_text("Pegoo")
    page.click("#cue-close")

    # the second player only ever received its own seat's cards
    assert bob.states
    for msg in bob.states:
        assert msg["seat"] == 1
        if msg["view"] is None:
            continue
        assert len(msg["view"]["hand"]) == msg["view"]["hand_sizes"][1]
        for text in legal_texts(msg["legal"]):
            assert msg["view"]["current_player"] == 1
            assert Action.parse(text).card in msg["view"]["hand"]
    bob_hand = sorted(bob.page.eval_on_selector_all("#hand .card",
                                                    "b => b.map(x => x.dataset.card)"))
    assert bob_hand == sorted(bob.states[-1]["view"]["hand"])
    assert bob.page.locator("#hand").get_attribute("data-seat") == "1"

    # anyone else with the link may watch: the board, no hand
    watcher = Watched(chromium.new_context(**PHONE))
    watcher.page.goto(link)
    watcher.page.click("#watch")
    expect(watcher.page.locator("#board .peg")).to_have_count(16)
    expect(watcher.page.locator("#panel")).to_contain_text("Watching")
    assert watcher.page.locator("#hand").count() == 0
    assert all(m["seat"] == -1 and m["view"]["hand"] == [] and m["legal"] is None
               for m in watcher.states)
    watcher.context.close()

    # a reload keeps the seat and the game, then play goes on
    version = bob.version()
    log_before = bob.page.locator("#log li").count()
    bob.page.reload()
    expect(bob.page.locator("#hand")).to_have_attribute("data-seat", "1")
    assert bob.version() >= version
    assert "Bob" in bob.page.inner_text("#panel")
    assert bob.page.locator("#log li").count() >= log_before
    w = wait_for_turn([ann, bob])
    assert play_one_move(w, on_board=w is ann)
    assert ann.errors == [] and bob.errors == []


def test_reconnects_after_the_server_restarts(chromium: Browser, server: Server) -> None:
    made = server.table_with_bots("basic", 4, name="Cleo")
    context = chromium.new_context(**DESKTOP)
    context.add_init_script(seat_script(made["code"], made["token"], 0, "Cleo"))
    w = Watched(context)
    w.page.goto(f"{server.base}/t/{made['code']}")
    expect(w.page.locator("body")).to_have_attribute("data-my-turn", "1", timeout=15_000)
    version = w.version()
    server.stop()
    expect(w.page.locator("#banner")).to_contain_text("Reconnecting")
    server.start()
    expect(w.page.locator("#banner")).to_be_hidden(timeout=15_000)
    expect(w.page.locator("body")).to_have_attribute("data-my-turn", "1")
    assert w.version() == version
    assert play_one_move(w, on_board=True)

    # a move typed in the notation, then a hint's move, each confirmed once
    expect(w.page.locator("body")).to_have_attribute("data-my-turn", "1", timeout=15_000)
    offered = legal_texts(w.states[-1]["legal"])
    assert offered
    before = w.version()
    w.page.click("#typed-box summary")
    w.page.fill("#typed", offered[-1].upper().replace(" ", ""))
    w.page.press("#typed", "Enter")
    w.page.wait_for_function(f"+document.body.dataset.version > {before}")
    assert w.first_after(before)["last"]["action"] == offered[-1]
    expect(w.page.locator("body")).to_have_attribute("data-my-turn", "1", timeout=15_000)
    w.page.click("#hint-btn")
    expect(w.page.locator("#hint")).to_contain_text("Hint:")
    expect(w.page.locator("#notice")).to_have_count(0)  # "Asking for a hint" is gone
    confirm = w.page.locator(".confirm-btn")
    expect(confirm).to_have_count(1)
    hinted = confirm.get_attribute("data-action")
    before = w.version()
    confirm.click()
    w.page.wait_for_function(f"+document.body.dataset.version > {before}")
    assert w.first_after(before)["last"]["action"] == hinted
    assert w.errors == []
    context.close()


def test_boards_of_four_six_and_eight_sides(chromium: Browser, server: Server,
                                            artifacts: Path) -> None:
    for preset, players in (("pegoo", 4), ("basic", 6), ("basic", 8)):
        made = server.table_with_bots(preset, players)
        rules = made["table"]["settings"]
        for shape, options in (("desktop", DESKTOP), ("phone", PHONE),
                               ("phone-landscape", LANDSCAPE)):
            context = chromium.new_context(**options)
            context.add_init_script(seat_script(made["code"], made["token"], 0, "Host"))
            page = context.new_page()
            page.goto(f"{server.base}/t/{made['code']}")
            board = page.locator("#board")
            expect(board.locator(".peg")).to_have_count(players * rules["pegs"])
            assert board.locator(".hole[data-kind=ring]").count() == (
                rules["sides"] * rules["holes_per_side"])
            assert board.locator(".hole[data-kind=home]").count() == players * rules["home_holes"]
            assert board.locator(".hole[data-kind=start]").count() == players * rules["pegs"]
            box = board.bounding_box()
            assert box is not None and box["width"] > 250 and box["height"] > 250
            page.screenshot(path=str(artifacts / f"board-{players}-{shape}.png"))
            context.close()


def test_finished_game_offers_record_and_replay(chromium: Browser, server: Server,
                                                artifacts: Path) -> None:
    made = server.table_with_bots("pegoo", 2, name="Dee")
    code, token = made["code"], made["token"]
    server.api("POST", f"/api/tables/{code}/seats/0/bot", {"bot": "heuristic"}, token)
    deadline = time.monotonic() + 30
    while server.api("GET", f"/api/tables/{code}")["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.1)
    actions = server.api("GET", f"/api/tables/{code}")["version"]

    context = chromium.new_context(**DESKTOP, accept_downloads=True)
    context.add_init_script(seat_script(code, token, 0, "Dee"))
    w = Watched(context)
    page = w.page
    page.goto(f"{server.base}/t/{code}")
    expect(page.locator("#status")).to_contain_text("Game over")
    # this browser saw none of the moves: the log comes from the server
    expect(page.locator("#log li")).to_have_count(actions)
    with page.expect_download() as download:
        page.click("#record-btn")
    saved = Path(download.value.path()).read_bytes()
    with urllib.request.urlopen(f"{server.base}/api/tables/{code}/record") as response:
        assert saved == response.read()  # byte for byte: the 62-bit seed is kept
    assert len(json.loads(saved)["actions"]) == actions
    file = artifacts / "downloaded-record.json"
    file.write_bytes(saved)
    replayed = subprocess.run(
        [sys.executable, "-c", "import sys; from pegs.cli import main; sys.exit(main())",
         "replay", "--quiet", str(file)], capture_output=True, text=True, timeout=60)
    assert replayed.returncode == 0, replayed.stderr
    assert f"All {actions} actions verified." in replayed.stdout

    page.click("#replay-btn")
    expect(page.locator("#replay-position")).to_have_text(f"Move {actions} of {actions}")
    page.click("#replay-prev")
    expect(page.locator("#replay-position")).to_have_text(f"Move {actions - 1} of {actions}")
    page.locator("#replay-slider").fill("0")
    expect(page.locator("#replay-move")).to_have_text("The deal.")
    expect(page.locator("#board .turn-text")).to_have_text("Deal")
    # at the deal every peg is in its start area
    starts = page.eval_on_selector_all("#board .peg", "ps => ps.map(p => p.dataset.pos)")
    assert starts and set(starts) == {"S"}
    page.click("#replay-next")
    expect(page.locator("#replay-position")).to_have_text(f"Move 1 of {actions}")
    # the first move that moves a peg (a discard draws no arrow) is drawn as an arrow
    log = server.api("GET", f"/api/tables/{code}/log")["log"]
    first = next(i for i, e in enumerate(log, 1) if ">" in e["action"] or "<" in e["action"]
                 or "~" in e["action"])
    page.locator("#replay-slider").fill(str(first))
    expect(page.locator("#replay-position")).to_have_text(f"Move {first} of {actions}")
    expect(page.locator("#board .last-arrow").first).to_be_attached()
    page.screenshot(path=str(artifacts / "replay.png"))
    page.click("#replay-close")
    expect(page.locator("#finished")).to_be_visible()
    assert w.errors == []
    context.close()


def test_bluffing_joker_declares_and_doubts(chromium: Browser, server: Server) -> None:
    made = server.table_with_bots("bluffing-joker", 2, name="Eve")
    context = chromium.new_context(**PHONE)
    context.add_init_script(seat_script(made["code"], made["token"], 0, "Eve"))
    w = Watched(context)
    page = w.page
    page.goto(f"{server.base}/t/{made['code']}")
    declared = decided = 0
    deadline = time.monotonic() + 40
    while (declared < 2 or decided < 1) and time.monotonic() < deadline:
        expect(page.locator("body")).to_have_attribute("data-my-turn", "1", timeout=15_000)
        before = w.version()
        if page.locator("#doubt").count():
            page.locator("#pass-btn, #doubt-btn").first.tap()
            decided += 1
        elif page.locator("#send").count():
            page.locator("#send .choices button").first.tap()
            page.locator("#confirm-btn").tap()
        else:
            page.locator("#hand .card.playable").first.tap()
            expect(page.locator("#declare button").first).to_be_visible()
            play_one_move_after_card(w)
            declared += 1
            continue
        page.wait_for_function(f"+document.body.dataset.version > {before}")
    assert declared >= 2 and decided >= 1
    face_down = [m["last"]["action"] for m in w.states if m["last"]]
    assert any(" as " in a for a in face_down)
    assert w.errors == []
    context.close()


def play_one_move_after_card(w: Watched) -> None:
    """Finish a move whose card is chosen: declaration, pegs, targets, one confirm."""
    page = w.page
    to_confirm(page)
    before = w.version()
    page.locator(".confirm-btn").first.tap()
    page.wait_for_function(f"+document.body.dataset.version > {before}")
