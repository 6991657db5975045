"""The board as a player follows it (issue 31): every action since the player's own last
turn marked by number, pegs sliding along their path (not under reduced motion), zoom and
finger-sized tap areas on a phone, the list of where the pegs are, seat labels with names
and teams, and a Bluffing Joker's declared move drawn while the table decides."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from browser_support import FAKE, Server, seat_script, serve_from_disk
from make_fixtures import first_split, state_message
from playwright.sync_api import Browser, Page, expect

from pegs.notation import announce
from pegs.rules import GameState, Rules
from pegs.server import protocol

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
TABLET = {"viewport": {"width": 820, "height": 1180}, "is_mobile": True, "has_touch": True}


def game(preset: str, players: int, plies: int, seed: int, seat: int = 0,
         **settings: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``seat``'s state messages after 0..plies plies of a seeded game, and the move log
    (entries as the server's log gives them)."""
    rng = random.Random(seed)
    state = GameState.new(Rules.preset(preset, players=players, **settings), seed)
    states = [state_message(state, seat, None)]
    log: list[dict[str, Any]] = []
    for ply in range(1, plies + 1):
        if state.is_over():
            break
        action = max(state.legal_actions(), key=lambda a: (len(a.steps), rng.random()))
        actor = state.current_player
        shown = protocol.hidden_text(action, actor, seat)
        said = announce(state, action)
        log.append({"version": ply, "seat": actor, "action": shown, "announcement": said})
        state = state.apply(action)
        states.append(state_message(state, seat, {"seat": actor, "action": shown,
                                                  "announcement": said}))
    return states, log


def open_board(page: Page) -> None:
    page.goto(f"{FAKE}/tests/board_view.html")
    page.wait_for_selector("body[data-ready]", timeout=10_000)


RENDER = """([msg, log, opts]) => {
  const svg = document.getElementById('board');
  const trail = log ? board.trailSince(log, msg.seat, msg.rules.players) : [];
  const sets = {};
  for (const k of ['pegs', 'targets', 'victims']) if (opts && opts[k]) sets[k] = new Set(opts[k]);
  board.renderBoard(svg, msg, { ...(opts || {}), ...sets, trail });
  return trail.length;
}"""


def render(page: Page, msg: dict[str, Any], log: list[dict[str, Any]] | None = None,
           **opts: Any) -> int:
    """Draw ``msg`` with the trail of ``log``; answers the trail's length."""
    return int(page.evaluate(RENDER, [msg, log, opts]))


def since_own_turn(log: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    mine = [i for i, e in enumerate(log) if e["seat"] == seat]
    return log[mine[-1] + 1:] if mine else log


def own_turn_index(states: list[dict[str, Any]], seat: int = 0) -> int:
    """The last state where ``seat`` is to play after having played before."""
    return max(i for i, m in enumerate(states) if m["view"]["current_player"] == seat
               and m["legal"] and i > m["rules"]["players"])


@pytest.mark.parametrize(("preset", "players", "plies"),
                         [("basic", 4, 40), ("basic", 8, 70), ("pegoo", 10, 90)])
def test_trail_numbers_every_action_since_my_last_turn(
        static_page: Page, artifacts: Path, preset: str, players: int, plies: int) -> None:
    states, log = game(preset, players, plies, seed=3)
    at = own_turn_index(states)
    expected = since_own_turn(log[:at], 0)
    assert len(expected) >= players - 1
    open_board(static_page)
    assert render(static_page, states[at], log[:at]) == len(expected)
    marks = static_page.eval_on_selector_all("#board .trail-mark", """ms => ms.map(m => [
        +m.dataset.n, m.querySelector('.trail-number').textContent,
        m.querySelector('title').textContent])""")
    # each mark shows the action's number in the move log and names the action it marks
    assert [n for n, _, _ in marks] == [e["version"] for e in expected]
    named = static_page.evaluate("""([msg, texts]) => import('/people.js').then(
        ({ namedText }) => texts.map(t => namedText(msg, t)))""",
                                 [states[at], [e["announcement"] for e in expected]])
    for (n, number, title), said in zip(marks, named, strict=True):
        assert number == str(n) and title.startswith(f"{n}. ")
        assert title.endswith(said)
    # every move with steps is drawn along its path, the newest one stronger
    moving = [e for e in expected if ">" in e["action"] or "<" in e["action"]
              or "~" in e["action"]]
    assert static_page.locator("#board .trail-move .trail-line").count() >= len(moving)
    assert static_page.locator("#board .trail-latest").count() == 1
    # after the player's own move the trail starts again
    mine = next(i for i in range(at, len(states)) if log[i - 1]["seat"] == 0) \
        if any(e["seat"] == 0 for e in log[at:]) else None
    if mine is not None:
        assert render(static_page, states[mine], log[:mine]) == 0
        assert static_page.locator("#board .trail-mark").count() == 0
    render(static_page, states[at], log[:at])
    static_page.locator("#board").screenshot(path=str(artifacts / f"trail-{players}.png"))


def walking_move(states: list[dict[str, Any]]) -> int:
    """The first ply whose action walks one peg three or more holes along the ring."""
    for i, m in enumerate(states[1:], 1):
        action = m["last"]["action"]
        if "," in action or "x" in action.rsplit(":", 1)[-1]:
            continue
        found = [p.split(".") for p in action.split(": ")[-1].split(">") if "." in p]
        if len(found) == 2 and found[0][0] == found[1][0] and int(found[1][1]) - int(
                found[0][1]) >= 3:
            return i
    raise AssertionError("no walking move in the game")


MOTION = """() => document.getAnimations().map(a => ({
    key: a.effect.target.dataset.key, frames: a.effect.getKeyframes().length}))"""


def test_pegs_walk_along_their_path_and_a_tap_skips(static_page: Page) -> None:
    states, _ = game("basic", 4, 40, seed=3)
    i = walking_move(states)
    step = states[i]["last"]["action"].split(": ")[-1]
    src, dst = step.split(">")
    open_board(static_page)
    render(static_page, states[i - 1])
    assert static_page.evaluate(MOTION) == []
    render(static_page, states[i])
    holes = int(dst.split(".")[1]) - int(src.split(".")[1])
    assert static_page.evaluate(MOTION) == [{"key": dst, "frames": holes + 1}]
    static_page.dispatch_event("#board", "pointerdown")
    assert static_page.evaluate(MOTION) == []
    # the same state again, or a jump of many actions, places the pegs without moving them
    render(static_page, states[i])
    assert static_page.evaluate(MOTION) == []
    render(static_page, states[i + 8])
    assert static_page.evaluate(MOTION) == []


def test_no_motion_under_reduced_motion(static_page: Page) -> None:
    states, _ = game("basic", 4, 40, seed=3)
    i = walking_move(states)
    static_page.emulate_media(reduced_motion="reduce")
    open_board(static_page)
    render(static_page, states[i - 1])
    render(static_page, states[i])
    assert static_page.evaluate(MOTION) == []
    dst = states[i]["last"]["action"].split(">")[-1]
    assert static_page.locator(f"#board .peg[data-key='{dst}']").count() == 1


PICK = """([msg, card, peg]) => import('/picker.js').then(({ Picker, stepKeys }) => {
  const p = new Picker(msg.legal);
  p.chooseCard(card);
  p.choosePeg(peg);
  const targets = [...p.targets()];
  // a hint arrow over every target: the longest move of this peg
  const far = msg.legal.find(a => a.card === card && a.steps.length === 1
      && stepKeys(a.steps[0]).from === peg) || msg.legal[0];
  board.renderBoard(document.getElementById('board'), msg, {
    pegs: p.pegs(), selected: peg, targets: p.targets(),
    hint: far.steps.map(stepKeys), chosen: [], victims: new Set(),
    trail: [{ v: 1, seat: msg.seat, action: far.text, text: 'a move over the targets' }] });
  return targets;
})"""

TAP_AREAS = """(selector) => [...document.querySelectorAll(selector)].map(n => {
  const r = n.getBoundingClientRect();
  const key = n.dataset.target || n.closest('.peg').dataset.key;
  return { key, w: r.width, h: r.height, x: r.x, y: r.y };
})"""

HIT_AT_CENTRE = """(key) => {
  const r = document.querySelector(`#board .target-tap[data-target="${key}"]`)
      .getBoundingClientRect();
  const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  const t = hit && hit.closest('[data-target]');
  return t ? t.dataset.target : null;
}"""


def test_phone_targets_are_a_finger_wide_and_tappable_under_arrows(
        chromium: Browser, artifacts: Path) -> None:
    msg = first_split("pegoo", 10, 5)
    split = next(a for a in msg["legal"] if len(a["steps"]) == 2)
    peg = split["steps"][0]["from"]
    context = chromium.new_context(**PHONE)
    context.route(f"{FAKE}/**", serve_from_disk)
    page = context.new_page()
    open_board(page)
    assert page.evaluate("matchMedia('(pointer: coarse)').matches")
    targets = page.evaluate(PICK, [msg, split["card"], peg])
    assert len(targets) >= 3
    areas = page.evaluate(TAP_AREAS, "#board .tap-cell[data-target]")
    assert sorted(a["key"] for a in areas) == sorted(targets)
    # the board zoomed in on the choices round the chosen peg: those on screen are a
    # finger's size (17 holes in a row cannot all be; the panel lists every target)
    svg = page.locator("#board").bounding_box()
    assert svg is not None
    shown = [a for a in areas if svg["x"] <= a["x"] + a["w"] / 2 <= svg["x"] + svg["width"]]
    assert len(shown) >= 5
    for a in shown:
        assert a["w"] >= 44 and a["h"] >= 44, a
        assert page.evaluate(HIT_AT_CENTRE, a["key"]) == a["key"]
    page.screenshot(path=str(artifacts / "phone-10-targets.png"))
    context.close()


def in_view(page: Page, selector: str) -> bool:
    """Whether the element's centre is inside both the board and the window."""
    return bool(page.evaluate("""(sel) => {
      const r = document.querySelector(sel).getBoundingClientRect();
      const b = document.getElementById('board').getBoundingClientRect();
      const x = r.x + r.width / 2, y = r.y + r.height / 2;
      return x >= b.left && x <= b.right && y >= b.top && y <= b.bottom
        && x >= 0 && x <= innerWidth && y >= 0 && y <= innerHeight;
    }""", selector))


def finger_sized(page: Page, selector: str) -> list[dict[str, Any]]:
    """The tap areas matching ``selector`` that are on the board's screen area but smaller
    than a finger (44 px), each with its key."""
    box = page.locator("#board").bounding_box()
    assert box is not None
    return [a for a in page.evaluate(TAP_AREAS, selector)
            if box["x"] <= a["x"] + a["w"] / 2 <= box["x"] + box["width"]
            and (a["w"] < 44 or a["h"] < 44)]


def test_ten_seat_turn_on_a_phone(chromium: Browser, server: Server, artifacts: Path) -> None:
    made = server.table_with_bots("pegoo", 10, name="Ann")
    code = made["code"]
    context = chromium.new_context(**PHONE)
    context.add_init_script(seat_script(code, made["token"], 0, "Ann"))
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.base}/t/{code}")
    body = page.locator("body")
    expect(body).to_have_attribute("data-my-turn", "1", timeout=30_000)
    # the player's own side starts in view, zoomed in; the whole board is a button away
    assert float(page.locator("#board").get_attribute("data-zoom") or 0) > 2
    assert in_view(page, "#board .seat-label.me")
    assert in_view(page, "#board .peg[data-seat='0']")
    page.screenshot(path=str(artifacts / "phone-10-start.png"))
    moved = False
    for _ in range(12):
        expect(body).to_have_attribute("data-my-turn", "1", timeout=30_000)
        before = int(page.evaluate("document.body.dataset.version"))
        page.locator("#hand .card.playable").first.tap()
        if page.locator("#pegs button").count():
            # every peg to choose is a finger wide on the board, and listed in the panel
            assert finger_sized(page, "#board .peg.selectable .tap-cell") == []
            for button in page.locator("#pegs button").all():
                size = button.bounding_box()
                assert size is not None and size["height"] >= 44
            peg = page.locator("#board .peg.selectable .peg-body").first
            peg.scroll_into_view_if_needed()
            centre = peg.bounding_box()
            assert centre is not None
            page.touchscreen.tap(centre["x"] + centre["width"] / 2,
                                 centre["y"] + centre["height"] / 2)
            if page.locator("#targets button").count():
                assert finger_sized(page, "#board .tap-cell[data-target]") == []
                page.screenshot(path=str(artifacts / "phone-10-choose.png"))
                page.locator("#targets button").first.tap()
            moved = True
        expect(page.locator(".confirm-btn").first).to_be_visible()
        page.locator(".confirm-btn").first.tap()
        page.wait_for_function(f"+document.body.dataset.version > {before}")
        if moved:
            break
    assert moved, "no card moved a peg in twelve turns"
    # back at the player's turn: every action since the player's own is numbered
    expect(body).to_have_attribute("data-my-turn", "1", timeout=30_000)
    log = server.api("GET", f"/api/tables/{code}/log")["log"]
    expected = since_own_turn(log, 0)
    expect(page.locator("#board .trail-mark")).to_have_count(len(expected))
    assert len(expected) >= 9
    page.click("#zoom-all")
    page.screenshot(path=str(artifacts / "phone-10-trail.png"))
    assert errors == []
    context.close()


PINCH = """([from, to]) => {
  const svg = document.getElementById('board');
  const r = svg.getBoundingClientRect();
  const cx = r.x + r.width / 2, cy = r.y + r.height / 2;
  const send = (type, id, dx) => svg.dispatchEvent(new PointerEvent(type, {
    pointerId: id, pointerType: 'touch', isPrimary: id === 1, bubbles: true,
    clientX: cx + dx, clientY: cy }));
  send('pointerdown', 1, -from); send('pointerdown', 2, from);
  for (let k = 1; k <= 5; k++) {
    const d = from + (to - from) * k / 5;
    send('pointermove', 1, -d); send('pointermove', 2, d);
  }
  send('pointerup', 1, -to); send('pointerup', 2, to);
  return +svg.dataset.zoom;
}"""

DRAG = """(dx) => {
  const svg = document.getElementById('board');
  const r = svg.getBoundingClientRect();
  const x = r.x + r.width / 2, y = r.y + r.height / 2;
  const send = (type, at) => svg.dispatchEvent(new PointerEvent(type, {
    pointerId: 7, pointerType: 'touch', isPrimary: true, bubbles: true, clientX: at, clientY: y }));
  send('pointerdown', x);
  for (let k = 1; k <= 4; k++) send('pointermove', x + dx * k / 4);
  send('pointerup', x + dx);
  return svg.getAttribute('viewBox').split(' ').map(Number)[0];
}"""


def zoom(page: Page) -> float:
    return float(page.locator("#board").get_attribute("data-zoom") or 0)


def test_zoom_by_buttons_pinch_and_drag(chromium: Browser) -> None:
    states, _ = game("basic", 8, 10, seed=3)
    context = chromium.new_context(**PHONE)
    context.route(f"{FAKE}/**", serve_from_disk)
    page = context.new_page()
    open_board(page)
    render(page, states[-1])
    start = zoom(page)
    assert start > 1.5  # a phone starts on the player's own side
    assert in_view(page, "#board .seat-label.me")
    page.click("#zoom-all")
    assert zoom(page) == 1
    page.click("#zoom-in")
    assert zoom(page) == 1.5
    page.click("#zoom-out")
    assert zoom(page) == 1
    assert page.evaluate(PINCH, [30, 90]) == pytest.approx(3, rel=0.05)
    # one finger pans the zoomed board; a new drawing keeps the player's zoom
    x = page.evaluate("document.getElementById('board').getAttribute('viewBox')")
    assert page.evaluate(DRAG, 120) < float(x.split()[0])
    render(page, states[-1])
    assert zoom(page) == pytest.approx(3, rel=0.05)
    page.click("#zoom-mine")
    assert zoom(page) == start
    context.close()


COLOURS = {"red": "Red", "blue": "Blue", "yellow": "Yellow", "green": "Green",
           "purple": "Purple", "orange": "Orange", "white": "White", "black": "Black",
           "pink": "Pink", "teal": "Teal"}


def expected_places(msg: dict[str, Any], pegs: list[str]) -> list[str]:
    """What the peg list must say of one seat's pegs."""
    board = msg["board"]
    out = []
    starts = pegs.count("S")
    if starts:
        out.append(f"{starts} in START")
    for pos in pegs:
        if "." in pos:
            side, hole = pos.split(".")
            owner = board["side_of"].index(int(side))
            # the side's seat by name, as its label says
            seat_name = msg["table"]["seats"][owner]["name"]
            whose = "your" if owner == msg["seat"] else f"{seat_name}'s"
            out.append(f"hole {hole} on {whose} side")
        elif pos.startswith("H"):
            out.append(f"home {pos[1:]}")
    return out


def test_peg_list_tells_where_every_peg_is_and_stays_current(static_page: Page) -> None:
    states, _ = game("north-carolina", 6, 40, seed=3, home_holes=5)
    open_board(static_page)
    lists = static_page.locator("#peg-list")
    for msg in (states[30], states[40]):
        render(static_page, msg)
        assert static_page.locator("#board").get_attribute("aria-describedby") == "peg-list"
        items = lists.locator("li")
        assert items.count() == msg["rules"]["players"]
        for seat, pegs in enumerate(msg["view"]["pegs"]):
            line = items.nth(seat).inner_text()
            assert line.startswith(f"{COLOURS[msg['board']['colours'][seat]]} ("), line
            assert line.endswith("; ".join(expected_places(msg, pegs)) + "."), line
    # hidden from the eye until asked for; then shown under the board
    assert "sr-only" in (lists.get_attribute("class") or "")
    static_page.click("#peg-list-btn")
    expect(lists).to_be_visible()
    assert static_page.get_attribute("#peg-list-btn", "aria-pressed") == "true"


def test_seat_labels_name_seat_team_and_partner(static_page: Page, artifacts: Path) -> None:
    states, _ = game("pegoo", 4, 30, seed=3)
    msg = states[-1]
    msg["table"]["seats"][2]["name"] = "Blue bot, expert"
    open_board(static_page)
    render(static_page, msg)
    labels = [static_page.locator(f"#board .seat-label[data-seat='{s}']") for s in range(4)]
    texts = [[label.locator(c).text_content() or "" for c in (".seat-text", ".seat-detail")]
             for label in labels]
    assert "Ann" in texts[0][0] and texts[0][1].startswith("you · Team A")
    assert texts[2][0].endswith("Blue bot, expert")
    assert texts[2][1].startswith("your partner · Team A")
    assert texts[1][1].startswith("Team B") and texts[3][1].startswith("Team B")
    # teams differ by the border's pattern as well as by words (colour-blind friendly)
    boxes = [label.locator(".seat-box").get_attribute("class") for label in labels]
    assert boxes[0] == boxes[2] != boxes[1] == boxes[3]
    static_page.locator("#board").screenshot(path=str(artifacts / "seat-labels-4.png"))


def test_declared_bluff_is_drawn_while_the_table_decides(static_page: Page,
                                                        artifacts: Path) -> None:
    states, _ = game("bluffing-joker", 4, 30, seed=3, seat=1)
    msg = next(m for m in states if m["view"]["pending"]
               and m["view"]["pending"]["declarer"] != 1
               and m["view"]["pending"]["chooser"] < 0
               and ":" in m["view"]["pending"]["action"])
    pending = msg["view"]["pending"]
    # the card is hidden from this seat; the declaration is not
    assert pending["action"].startswith("? as ")
    open_board(static_page)
    render(static_page, msg)
    drawn = static_page.locator("#board .pending-move")
    expect(drawn).to_have_count(1)
    assert drawn.get_attribute("data-declared") == pending["declared"]
    steps = pending["action"].split(": ", 1)[1].split(", ")
    assert drawn.locator(".pending-line").count() == len(steps)
    assert drawn.locator(".pending-ghost").count() == len(steps)
    said = static_page.locator("#board .pending-label").text_content() or ""
    words = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King", "J*": "Joker"}
    declarer = msg["table"]["seats"][pending["declarer"]]["name"]
    assert said == f"{declarer} says: {words.get(pending['declared'], pending['declared'])}?"
    # the ghost peg stands where the declared move would put it
    dst = steps[0].split(">")[-1].split("<")[-1].rstrip("x")
    if "." in dst:
        hole = static_page.locator(f"#board .hole[data-key='{dst}']").bounding_box()
        ghost = drawn.locator(".pending-ghost").first.bounding_box()
        assert hole is not None and ghost is not None
        assert abs(hole["x"] + hole["width"] / 2 - ghost["x"] - ghost["width"] / 2) < 2
    static_page.locator("#board").screenshot(path=str(artifacts / "bluff-declared.png"))
    # once decided, nothing pending is drawn
    after = next(m for m in states[states.index(msg):] if not m["view"]["pending"])
    render(static_page, after)
    expect(drawn).to_have_count(0)
    expect(static_page.locator("#board .pending-label")).to_have_count(0)
