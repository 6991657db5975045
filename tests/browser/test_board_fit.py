"""The board on a phone (issue 39): every choice's tap area a finger wide and never covered
by a neighbour that is not a choice, some choices always in view (zoomed out when they
lie far apart), seat labels and the winners' names whole and inside the board."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from browser_support import FAKE, serve_from_disk
from make_fixtures import FIXTURES
from playwright.sync_api import Browser, Page
from test_board_view import PHONE, game, open_board

# For each card of the hand, then for the first peg of each card: draw the choices as the
# page does and measure them on screen.  Answers the problems found.
MEASURE = """([msg, cards]) => import('/picker.js').then(({ Picker }) => {
  const svg = document.getElementById('board');
  const problems = [];
  const box = () => svg.getBoundingClientRect();
  const onScreen = (x, y) => {
    const b = box();
    return x >= Math.max(0, b.left) + 2 && x <= Math.min(innerWidth, b.right) - 2
      && y >= Math.max(0, b.top) + 2 && y <= Math.min(innerHeight, b.bottom) - 2;
  };
  const keyAt = (x, y) => {
    const hit = document.elementFromPoint(x, y);
    const t = hit && hit.closest('[data-target], .peg');
    return t ? (t.dataset.target || t.dataset.key) : null;
  };
  const check = (what, selector) => {
    const cells = [...svg.querySelectorAll(selector)].map(n => {
      const r = n.getBoundingClientRect();
      return { key: n.dataset.target || n.closest('.peg').dataset.key, r };
    });
    // a choice drawn twice (two start pegs) is one choice: its biggest area counts
    const centres = new Map();
    for (const c of cells) {
      const body = c.r;
      const seen = centres.get(c.key);
      if (!seen || body.width * body.height > seen.r.width * seen.r.height) centres.set(c.key, c);
    }
    const mid = (r) => [r.x + r.width / 2, r.y + r.height / 2];
    const shown = [...centres.values()].filter(c => onScreen(...mid(c.r)));
    if (!shown.length) problems.push(`${what}: none of ${centres.size} in view`);
    for (const c of shown) {
      const size = `${c.r.width.toFixed(0)}x${c.r.height.toFixed(0)} px`;
      if (c.r.width < 44 || c.r.height < 44) problems.push(`${what} ${c.key}: ${size}`);
      const [cx, cy] = mid(c.r);
      for (let i = 0; i < 8; i++) {
        const x = cx + 20 * Math.cos(i * Math.PI / 4), y = cy + 20 * Math.sin(i * Math.PI / 4);
        if (!onScreen(x, y)) continue;
        // the nearest choice there is this one: a tap there must find it
        const nearest = [...centres.values()].reduce((a, o) => {
          const d = Math.hypot(o.r.x + o.r.width / 2 - x, o.r.y + o.r.height / 2 - y);
          return d < a.d ? { d, key: o.key } : a;
        }, { d: Infinity, key: null });
        if (nearest.key !== c.key) continue;
        const got = keyAt(x, y);
        if (got !== c.key) problems.push(`${what} ${c.key}: a tap 20 px off hits ${got}`);
      }
    }
  };
  for (const card of cards) {
    const p = new Picker(msg.legal);
    p.chooseCard(card);
    if (p.needsDeclaration()) p.chooseDeclared(p.declaredOptions()[0]);
    const pegs = p.pegs();
    if (!pegs.size) continue;
    board.renderBoard(svg, msg, { pegs, trail: [] });
    check(`${card} pegs`, '.peg.selectable .tap-cell');
    const peg = [...pegs][0];
    p.choosePeg(peg);
    board.renderBoard(svg, msg, { pegs: p.pegs(), selected: peg, targets: p.targets(), trail: [] });
    check(`${card} ${peg} targets`, '.tap-cell[data-target]');
    board.renderBoard(svg, msg, { trail: [] });
  }
  return problems;
})"""


@pytest.mark.parametrize(("preset", "players", "seed"), [("pegoo", 10, 7), ("basic", 4, 11),
                                                     ("north-carolina", 10, 5)])
def test_choices_are_a_finger_wide_in_view_and_never_covered(
        chromium: Browser, preset: str, players: int, seed: int) -> None:
    states, _ = game(preset, players, 40 * players, seed=seed)
    turns = [m for m in states if m["legal"] and m["view"]["current_player"] == 0]
    assert len(turns) >= 12
    context = chromium.new_context(**PHONE)
    context.route(f"{FAKE}/**", serve_from_disk)
    page = context.new_page()
    open_board(page)
    problems: list[str] = []
    for msg in turns[::max(1, len(turns) // 12)]:
        cards = sorted({a["card"] for a in msg["legal"] if not a["decision"]})
        problems += [f"ply {msg['version']}: {p}" for p in page.evaluate(MEASURE, [msg, cards])]
    context.close()
    assert problems == [], "\n".join(problems)


def long_names(msg: dict[str, Any]) -> dict[str, Any]:
    """The table's seats as bots with the server's long bot names."""
    colours = [c.capitalize() for c in msg["board"]["colours"]]
    for seat in msg["table"]["seats"]:
        seat.update(kind="bot", name=f"{colours[seat['seat']]} bot, club player")
    return msg


LABELS = """() => [...document.querySelectorAll('#board .seat-label')].map(g => {
  const box = g.querySelector('.seat-box').getBoundingClientRect();
  return [...g.querySelectorAll('.seat-text, .seat-detail')].map(t => {
    const r = t.getBoundingClientRect();
    return { text: t.textContent, inside: r.left >= box.left - 1 && r.right <= box.right + 1 };
  });
}).flat()"""

# the centre's words: each line and whether it stays clear of every hole
CENTRE = """() => {
  const holes = [...document.querySelectorAll('#board .hole')].map(h => h.getBoundingClientRect());
  const board = document.querySelector('#board .board-bg').getBoundingClientRect();
  return [...document.querySelectorAll('#board .turn-text')].map(t => {
    const r = t.getBoundingClientRect();
    const over = holes.filter(h => h.left < r.right && h.right > r.left && h.top < r.bottom
      && h.bottom > r.top).length;
    return { text: t.textContent, over, inside: r.left >= board.left && r.right <= board.right };
  });
}"""


@pytest.mark.parametrize("name", ["pegoo-4", "basic-8", "pegoo-10"])
def test_labels_and_winners_are_whole_and_inside(static_page: Page, artifacts: Path,
                                                 name: str) -> None:
    msg = long_names(json.loads((FIXTURES / f"{name}.json").read_text()))
    players = msg["rules"]["players"]
    teams = msg["rules"]["teams"] or players
    msg["view"]["outcome"] = {"team": 1, "seats": list(range(1, players, teams))}
    open_board(static_page)
    static_page.evaluate("(msg) => board.renderBoard(document.getElementById('board'), msg, {})",
                         msg)
    for label in static_page.evaluate(LABELS):
        assert "…" not in label["text"] and label["inside"], label
    won = msg["view"]["outcome"]["seats"]
    names = [s["name"] for s in msg["table"]["seats"] if s["seat"] in won]
    lines = static_page.evaluate(CENTRE)
    assert [line["text"] for line in lines] == [
        "Winners:" if len(names) > 1 else "Winner:", *names]
    for line in lines:
        assert line["over"] == 0 and line["inside"], line
    static_page.locator("#board").screenshot(path=str(artifacts / f"winners-{name}.png"))


def test_the_end_shows_the_whole_board_on_a_phone(chromium: Browser) -> None:
    msg = long_names(json.loads((FIXTURES / "pegoo-10.json").read_text()))
    context = chromium.new_context(**PHONE)
    context.route(f"{FAKE}/**", serve_from_disk)
    page = context.new_page()
    open_board(page)
    draw = "(msg) => board.renderBoard(document.getElementById('board'), msg, {})"
    page.evaluate(draw, msg)
    assert float(page.locator("#board").get_attribute("data-zoom") or 0) > 2  # my side
    msg["view"]["outcome"] = {"team": 0, "seats": [0, 2, 4, 6, 8]}
    page.evaluate(draw, msg)
    assert page.locator("#board").get_attribute("data-zoom") == "1.00"
    for line in page.locator("#board .turn-text").all():
        box = line.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    context.close()


def test_trail_badges_stay_badge_sized_when_zoomed_in(chromium: Browser) -> None:
    states, log = game("pegoo", 10, 60, seed=3)
    msg = states[-1]
    context = chromium.new_context(**PHONE)
    context.route(f"{FAKE}/**", serve_from_disk)
    page = context.new_page()
    open_board(page)
    page.evaluate("""([msg, log]) => board.renderBoard(document.getElementById('board'), msg,
        { trail: board.trailSince(log, -1, 10) })""", [msg, log])
    heights = "ms => ms.map(m => m.getBoundingClientRect().height)"
    assert float(page.locator("#board").get_attribute("data-zoom") or 0) > 2
    zoomed = page.eval_on_selector_all("#board .trail-badge", heights)
    assert zoomed and max(zoomed) <= 30, zoomed
    page.click("#zoom-all")  # the whole board: the badges as big as they are drawn
    whole = page.eval_on_selector_all("#board .trail-badge", heights)
    assert min(whole) >= 8, whole
    context.close()
