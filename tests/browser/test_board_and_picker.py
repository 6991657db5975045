"""The board renderer and the move picker, on engine-made fixtures (no server needed):
every hole, start slot and peg is drawn for tables of 2 to 10 seats, and every legal action
can be picked by card, peg and target, while nothing outside the legal list is offered."""

from __future__ import annotations

import json
from typing import Any

import pytest
from browser_support import FAKE
from make_fixtures import FIXTURES, NAMES
from playwright.sync_api import Page

from pegs.rules import Action


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text())
    return data


def open_fixture(page: Page, name: str) -> None:
    page.goto(f"{FAKE}/tests/harness.html?f={name}")
    page.wait_for_selector("body[data-ready]", timeout=10_000)


def test_fixtures_cover_two_to_ten_seats() -> None:
    seats = {load(n)["rules"]["players"] for n in NAMES}
    assert seats >= {2, 3, 4, 5, 6, 8, 10}


def test_every_hole_and_peg_is_drawn(static_page: Page) -> None:
    for name in NAMES:
        msg = load(name)
        rules = msg["rules"]
        open_fixture(static_page, name)
        board = static_page.locator("#board")
        counts = {kind: board.locator(f".hole[data-kind={kind}]").count()
                  for kind in ("ring", "home", "start")}
        assert counts == {
            "ring": rules["sides"] * rules["holes_per_side"],
            "home": rules["players"] * rules["home_holes"],
            "start": rules["players"] * rules["pegs"],
        }, name
        assert board.locator(".peg").count() == rules["players"] * rules["pegs"], name
        assert board.locator(".seat-label").count() == rules["players"], name
        # every peg sits where the view says, in its seat's letter
        drawn = static_page.eval_on_selector_all(
            "#board .peg", "els => els.map(e => [+e.dataset.seat, e.dataset.pos, e.textContent])")
        expected = sorted([seat, pos, msg["board"]["letters"][seat]]
                          for seat, pegs in enumerate(msg["view"]["pegs"]) for pos in pegs)
        assert sorted(drawn) == expected, name
        # the marked holes of every side: 5, 10, 15, 17 and (when the side has one) 20
        marks = board.locator(".hole.mark, .hole.mark17").count()
        per_side = 5 if rules["holes_per_side"] >= 20 else 4
        assert marks == rules["sides"] * per_side, name
        # the last move is drawn as an arrow per step (a plain discard has none)
        if msg["last"] and ":" in msg["last"]["action"] and Action.parse(
                msg["last"]["action"]).steps:
            assert board.locator(".last-arrow").count() >= 1, name


def test_board_fits_its_view_box(static_page: Page) -> None:
    for name in ("pegoo-2", "basic-3", "pegoo-10", "havasu-10-home8"):
        open_fixture(static_page, name)
        inside = static_page.evaluate("""() => {
            const svg = document.getElementById('board');
            const [x, y, w, hgt] = svg.getAttribute('viewBox').split(' ').map(Number);
            const b = svg.getBBox();
            return b.x >= x - 0.5 && b.y >= y - 0.5 && b.x + b.width <= x + w + 0.5
                && b.y + b.height <= y + hgt + 0.5;
        }""")
        assert inside, name


PICK_EVERY_ACTION = """async (legal) => {
  const { Picker, stepKeys, matchTyped } = await import('/picker.js');
  const problems = [];
  const plays = legal.filter(a => !a.decision);
  for (const action of plays) {
    const p = new Picker(legal);
    p.chooseCard(action.card);
    if (p.needsDeclaration()) {
      if (!p.declaredOptions().includes(action.declared)) problems.push(['declared', action.text]);
      p.chooseDeclared(action.declared);
    }
    for (const step of action.steps.map(stepKeys)) {
      if (!p.pegs().has(step.from)) { problems.push(['peg', action.text, step.from]); break; }
      p.choosePeg(step.from);
      if (!p.targets().has(step.to)) { problems.push(['target', action.text, step.to]); break; }
      p.chooseTarget(step.to);
    }
    const ready = action.steps.length ? p.complete() : p.discards();
    if (!ready.some(a => a.text === action.text)) problems.push(['complete', action.text]);
    const typed = matchTyped(legal, action.text.toLowerCase());
    if (typed !== action) problems.push(['typed', action.text]);
  }
  // after a card: only pegs of that card's actions light up, and only their targets
  for (const card of new Set(plays.map(a => a.card))) {
    const p = new Picker(legal);
    p.chooseCard(card);
    if (p.needsDeclaration()) p.chooseDeclared(p.declaredOptions()[0]);
    const mine = plays.filter(a => a.card === card && (!p.declared || a.declared === p.declared));
    const froms = new Set(mine.flatMap(a => a.steps.map(s => stepKeys(s).from)));
    for (const key of p.pegs()) if (!froms.has(key)) problems.push(['extra peg', card, key]);
    for (const key of p.pegs()) {
      p.choosePeg(key);
      const tos = new Set(mine.flatMap(a => a.steps.map(stepKeys))
        .filter(s => s.from === key).map(s => s.to));
      for (const t of p.targets()) if (!tos.has(t)) problems.push(['extra target', card, key, t]);
    }
  }
  return problems;
}"""


@pytest.mark.parametrize("name", ["pegoo-4-split", "north-carolina-4-split",
                                  "bluffing-joker-4-play", "pegoo-2", "pegoo-6", "basic-8"])
def test_every_legal_action_can_be_picked(static_page: Page, name: str) -> None:
    legal = load(name)["legal"]
    assert legal
    open_fixture(static_page, name)
    assert static_page.evaluate(PICK_EVERY_ACTION, legal) == []


def test_a_split_asks_for_the_second_peg(static_page: Page) -> None:
    msg = load("pegoo-4-split")
    split = next(a for a in msg["legal"] if len(a["steps"]) == 2)
    open_fixture(static_page, "pegoo-4-split")
    result = static_page.evaluate("""async ([legal, split]) => {
      const { Picker, stepKeys } = await import('/picker.js');
      const p = new Picker(legal);
      p.chooseCard(split.card);
      const [first, second] = split.steps.map(stepKeys);
      p.choosePeg(first.from);
      p.chooseTarget(first.to);
      const waiting = { complete: p.complete().length, pegs: [...p.pegs()] };
      p.choosePeg(second.from);
      p.chooseTarget(second.to);
      return { waiting, done: p.complete().map(a => a.text) };
    }""", [msg["legal"], split])
    assert result["waiting"]["complete"] == 0
    assert result["waiting"]["pegs"]
    assert result["done"] == [split["text"]]


def test_bluffing_asks_what_to_declare(static_page: Page) -> None:
    msg = load("bluffing-joker-4-play")
    open_fixture(static_page, "bluffing-joker-4-play")
    options = static_page.evaluate("""async (legal) => {
      const { Picker } = await import('/picker.js');
      const p = new Picker(legal);
      p.chooseCard(legal[0].card);
      return { needs: p.needsDeclaration(), options: p.declaredOptions() };
    }""", msg["legal"])
    first = msg["legal"][0]["card"]
    assert options["needs"] is True
    assert options["options"] == sorted(
        {a["declared"] for a in msg["legal"] if a["card"] == first},
        key=[a["declared"] for a in msg["legal"] if a["card"] == first].index)
