"""What the table screen says (issue 39), against a fake table socket sending engine-made
states: players named as the page names them (never by seat colour), a stand-in's move
marked as the stand-in's, the turn clock counting down, the Joker written out, the form's
help read once, disclosure markers."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from browser_support import FAKE, Server, seat_script, serve_from_disk
from make_fixtures import FIXTURES, state_message
from playwright.sync_api import Browser, Page, WebSocketRoute, expect
from test_play_online import PHONE

from pegs.notation import announce
from pegs.rules import GameState, Rules
from pegs.server import protocol


class FakeTable:
    """The page at a fixture's table, its socket answering the hello with the fixture's
    state; `push` sends it more messages."""

    def __init__(self, page: Page, msg: dict[str, Any]) -> None:
        self.page = page
        self.msg = {**{k: v for k, v in msg.items() if k != "wire_legal"},
                    "legal": msg["wire_legal"]}
        self.socket: WebSocketRoute | None = None
        code = msg["table"]["code"]
        page.route_web_socket(f"**/ws/{code}", self._connect)
        page.add_init_script(seat_script(code, "token", msg["seat"], "Ann"))
        page.goto(f"{FAKE}/index.html?t={code}")

    def _connect(self, ws: WebSocketRoute) -> None:
        self.socket = ws
        ws.on_message(lambda text: ws.send(json.dumps(self.msg)) if '"hello"' in str(text)
                      else None)

    def push(self, msg: dict[str, Any]) -> None:
        assert self.socket is not None
        self.socket.send(json.dumps(msg))


def fixture(name: str, **table: Any) -> dict[str, Any]:
    msg: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text())
    msg["table"].update(table)
    return msg


def test_announcements_name_the_players_and_mark_a_stand_ins_move(static_page: Page) -> None:
    msg = fixture("pegoo-4")
    names = ["Ann", "Gran", "Yellow bot, club player", "Teo"]
    msg["table"]["seats"] = [{"seat": p, "name": n, "kind": "bot" if p == 2 else "human",
                              "connected": True} for p, n in enumerate(names)]
    # the server names seats by colour; the page by name, a bot without its level
    msg["last"] = {"seat": 3, "action": "10: 3.18>1.8",
                   "announcement": "Ten. 18 to Blue's 8. Yellow's peg goes back to START."}
    table = FakeTable(static_page, msg)
    expect(static_page.locator("#last-move")).to_have_text(
        "Teo: Ten. 18 to Gran's 8. Yellow bot's peg goes back to START.")
    table.push({"type": "event", "version": msg["version"] + 1, "seat": 1,
                "action": "5: discard", "announcement": "Five. Can't play; discards.",
                "timed_out": True})
    entry = static_page.locator(f"#log li[data-version='{msg['version'] + 1}']")
    expect(entry.locator(".who")).to_have_text("Gran's stand-in bot")
    expect(entry).to_contain_text(": Five. Can't play; discards.")
    doubt = "Red doubts Blue's face-down Five. The card is a Nine: a bluff by Blue."
    table.push({"type": "event", "version": msg["version"] + 2, "seat": 0,
                "action": "doubt", "announcement": doubt})
    # a decision names its seat first: the page names the seat once, not "Ann: Ann doubts"
    said = "Ann doubts Gran's face-down Five. The card is a Nine: a bluff by Gran."
    entry = static_page.locator(f"#log li[data-version='{msg['version'] + 2}']")
    # the log names the team (and "you") right after the name, before the sentence
    expect(entry).to_contain_text("Ann Team A you " + said.removeprefix("Ann "))
    expect(entry.locator(".who")).to_have_text("Ann")
    table.push({**table.msg, "version": msg["version"] + 2, "legal": None,
                "last": {"seat": 0, "action": "doubt", "announcement": doubt}})
    expect(static_page.locator("#last-move")).to_have_text(said)
    assert ": Ann doubts" not in entry.inner_text()


def test_the_turn_clock_counts_down_and_a_timeout_is_told(static_page: Page) -> None:
    msg = fixture("pegoo-4", turn_seconds=120)
    msg["turn_ends"] = time.time() + 95
    table = FakeTable(static_page, msg)
    clock = static_page.locator("#status #turn-clock")
    expect(clock).to_have_text(re.compile(r"^1:3[0-5] left$"))
    first = clock.inner_text()
    expect(clock).not_to_have_text(first, timeout=3000)  # it ticks
    # shown at once with each state (not a second later); the last seconds marked
    table.push({**table.msg, "version": msg["version"] + 1, "turn_ends": time.time() + 12})
    static_page.wait_for_function(f"document.body.dataset.version === '{msg['version'] + 1}'")
    assert re.fullmatch(r"0:1[12] left", static_page.evaluate(
        "document.getElementById('turn-clock').textContent"))
    expect(clock).to_have_class(re.compile(r"\blow\b"))
    nxt = msg["version"] + 2
    table.push({"type": "event", "version": nxt, "seat": 0, "action": "5: discard",
                "announcement": "Five. Can't play; discards.", "timed_out": True})
    table.push({**table.msg, "version": nxt, "legal": None, "turn_ends": None,
                "last": {"seat": 0, "action": "5: discard",
                         "announcement": "Five. Can't play; discards."}})
    expect(static_page.locator("#ran-out")).to_have_text(
        "Ann ran out of time: a bot played the turn.")
    expect(static_page.locator("#last-move")).to_contain_text("Ann's stand-in bot: Five.")
    expect(static_page.locator("#turn-clock")).to_have_count(0)


def test_the_joker_is_written_out(static_page: Page) -> None:
    msg = fixture("pegoo-4")
    msg["view"]["hand"] = ["Joker", *msg["view"]["hand"][1:]]
    msg["view"]["discards"] = ["5", "Joker"]
    FakeTable(static_page, msg)
    expect(static_page.locator("#hand .card[data-card='Joker']")).to_have_text("Joker")
    expect(static_page.locator("#board .discard-top")).to_have_text("Joker")
    box = static_page.locator("#hand .card[data-card='Joker']").bounding_box()
    width = static_page.evaluate(
        "document.querySelector(\"#hand .card[data-card='Joker']\").scrollWidth")
    assert box is not None and width <= box["width"]  # the word fits its card


def test_the_form_reads_each_help_once_and_disclosures_show_a_marker(
        chromium: Browser, server: Server) -> None:
    context = chromium.new_context(**PHONE)
    page = context.new_page()
    page.goto(server.base + "/")
    name = page.locator("#name")
    expect(name).to_have_accessible_name("Your name")
    expect(name).to_have_accessible_description("What the others see.")
    expect(page.locator("#hints")).to_have_accessible_name("Allow hints")
    expect(page.locator("#hints")).to_have_accessible_description(
        "A player may ask for a suggested move.")
    marker = """(s) => getComputedStyle(s, '::before').content"""
    summaries = page.locator("details summary")
    assert summaries.count() >= 2
    for summary in summaries.all():
        assert "▶" in summary.evaluate(marker)
    summaries.first.click()
    expect(page.locator("#setting-pegs")).to_have_accessible_name("Pegs for each player")
    expect(page.locator("#setting-pegs")).to_have_accessible_description(
        "How many pegs each player must bring home.")
    # the lobby on a phone: a seat's chips and its "Bot here" button stay on its line
    made = server.api("POST", "/api/tables", {"preset": "pegoo", "name": "Grandmother Rose",
                                               "players": 10, "teams": 2})
    page.add_init_script(seat_script(made["code"], made["token"], 0, "Grandmother Rose"))
    page.goto(f"{server.base}/t/{made['code']}")
    expect(page.locator("#seats li")).to_have_count(10)
    assert one_line_each(page, "#seats li") == []
    context.close()


ROWS = """(sel) => [...document.querySelectorAll(sel)].filter(li => {
  const kids = [...li.children].map(k => k.getBoundingClientRect()).filter(r => r.height);
  const mid = kids[0].top + kids[0].height / 2;
  return kids.some(r => r.top > mid || r.bottom < mid) || li.getBoundingClientRect().height > 80;
}).map(li => li.textContent)"""


def one_line_each(page: Page, selector: str) -> list[str]:
    """The rows of ``selector`` whose parts do not all share the first part's line, or
    that are more than two lines high."""
    return list(page.evaluate(ROWS, selector))


def test_players_chips_stay_on_their_line_on_a_phone(chromium: Browser) -> None:
    context = chromium.new_context(**PHONE)
    context.route(f"{FAKE}/**", serve_from_disk)
    page = context.new_page()
    msg = fixture("pegoo-10")
    names = ["Grandmother Rose", "Uncle Bartholomew", *[f"Cousin {n}" for n in
             ("Annabelle", "Maximilian", "Evangeline", "Christopher", "Alexandra",
              "Bartholomew", "Josephine", "Sebastian")]]
    for seat, name in zip(msg["table"]["seats"], names, strict=True):
        seat.update(name=name, kind="human")
    FakeTable(page, msg)
    expect(page.locator("#players li")).to_have_count(10)
    assert page.locator("#players .tag.partner").count() == 4
    assert one_line_each(page, "#players li") == []
    context.close()


def in_window(page: Page, selector: str) -> int:
    """How many of ``selector`` have their centre inside the window and the board."""
    return int(page.evaluate("""(sel) => {
      const b = document.getElementById('board').getBoundingClientRect();
      return [...document.querySelectorAll(sel)].filter(n => {
        const r = n.getBoundingClientRect();
        const x = r.x + r.width / 2, y = r.y + r.height / 2;
        return x >= Math.max(0, b.left) && x <= Math.min(innerWidth, b.right)
          && y >= Math.max(0, b.top) && y <= Math.min(innerHeight, b.bottom);
      }).length;
    }""", selector))


def test_start_shows_the_board_and_a_chosen_card_its_pegs(chromium: Browser,
                                                           server: Server) -> None:
    made = server.api("POST", "/api/tables", {"preset": "pegoo", "name": "Gran", "players": 8,
                                               "teams": 2})
    code = made["code"]
    context = chromium.new_context(**PHONE)
    context.add_init_script(seat_script(code, made["token"], 0, "Gran"))
    page = context.new_page()
    page.goto(f"{server.base}/t/{code}")
    start = page.locator("#start-btn")
    start.scroll_into_view_if_needed()
    assert page.evaluate("scrollY") > 300  # the Start button is far down the lobby
    start.tap()
    expect(page.locator("#hand .card").first).to_be_attached()
    # the game opens on the board (the player's own side), not where the lobby was
    top = page.evaluate("document.querySelector('.board-wrap').getBoundingClientRect().top")
    assert abs(top) <= 8, top
    assert in_window(page, "#board .seat-label.me") == 1
    body = page.locator("body")
    for _ in range(8):
        expect(body).to_have_attribute("data-my-turn", "1", timeout=30_000)
        page.locator("#hand").evaluate("n => n.scrollIntoView({ block: 'start' })")
        assert in_window(page, "#board .peg") == 0  # the board is above the fold
        page.locator("#hand .card.playable").first.tap()
        if page.locator("#pegs button").count():
            # scrolled back up just enough: the lit-up pegs are on screen
            assert in_window(page, "#board .peg.selectable") >= 1
            break
        before = int(page.evaluate("document.body.dataset.version"))
        page.locator(".confirm-btn").first.tap()  # a discard: no peg to light up
        page.wait_for_function(f"+document.body.dataset.version > {before}")
    else:
        raise AssertionError("no card moved a peg in eight turns")
    context.close()


def test_a_doubts_banner_gives_way_to_the_next_face_down_card(static_page: Page) -> None:
    """Seat 2 watches seat 1 doubt seat 0's card, then is asked about seat 1's own."""
    state = GameState.new(Rules.preset("bluffing-joker", players=3), 5)
    messages = []
    for _ in range(3):
        legal = state.legal_actions()
        action = next((a for a in legal if a.decision == "doubt"), legal[0])
        actor, said = state.current_player, announce(state, action)
        state = state.apply(action)
        last = {"seat": actor, "action": protocol.hidden_text(action, actor, 2),
                "announcement": said}
        messages.append(state_message(state, 2, last))
    assert messages[0]["view"]["pending"]["asked"] == 1
    assert messages[2]["view"]["pending"]["asked"] == 2  # seat 1's card, seat 2 to doubt
    table = FakeTable(static_page, messages[0])
    for msg in messages[1:]:
        static_page.wait_for_function(
            f"document.body.dataset.version === '{msg['version'] - 1}'")
        table.push({**msg, "legal": msg["wire_legal"]})
        if msg["last"]["action"] == "doubt":
            expect(static_page.locator("#reveal")).to_be_visible()
    expect(static_page.locator("#doubt")).to_be_visible()
    expect(static_page.locator("#reveal")).to_have_count(0)
    expect(static_page.locator("#board .turn-text")).to_have_text("Your decision")
