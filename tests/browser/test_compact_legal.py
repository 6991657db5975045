"""The grouped `legal` of a state message, as the page expands it, is exactly the server's
list of legal actions: every text, card, declaration, decision and step (with the seat of
the moved peg), at tables of 2 to 10 seats, with Bluffing Joker decisions and hits."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from browser_support import FAKE, Server, seat_script
from playwright.sync_api import Browser, Page, expect

from pegs.rules import GameState, Rules, geometry, view
from pegs.server.protocol import action_json, legal_compact, view_json

EXPAND = """async (listings) => {
  const { expandLegal } = await import('/picker.js');
  return listings.map(([compact, view]) => expandLegal(compact, view));
}"""


def position(rules: Rules, pegs: dict[int, list[str]], hand: list[str], seat: int) -> GameState:
    """A made-up position: the named pegs on the board (the others in start)."""
    geo = geometry(rules)
    layout = tuple(tuple(sorted(geo.parse(n) for n in [*pegs.get(s, []), *["S"] * rules.pegs]
                                [:rules.pegs]))
                   for s in range(rules.players))
    return GameState.from_position(rules, layout, seat, hand)


def positions() -> Iterator[GameState]:
    """Positions of seeded random games (every few plies), then hand-made ones."""
    for preset, players, seed in [("pegoo", 4, 1), ("north-carolina", 4, 3),
                                  ("north-carolina", 8, 4), ("bluffing-joker", 6, 6),
                                  ("havasu", 10, 7)]:
        rng = random.Random(seed)
        state = GameState.new(Rules.preset(preset, players=players), seed)
        pending = 0
        for ply in range(240):
            if state.is_over():
                break
            if ply % 41 == 0 or (state.pending is not None and pending < 3):
                pending += state.pending is not None
                yield state
            state = state.apply(rng.choice(state.legal_actions()))
    # a ten whose first part sends a peg to its door, and the second moves that peg home
    nc4 = Rules.preset("north-carolina", players=4)
    yield position(nc4, {0: ["0.16"], 1: ["0.5", "0.18"], 2: ["2.1"], 3: ["1.7"]}, ["10"], 2)
    nc10 = Rules.preset("north-carolina", players=10)
    yield position(nc10, {s: [f"{s}.{h}" for h in range(1, 18, 4)] for s in range(10)},
                   ["7", "9", "Joker"], 3)


def expected(state: GameState) -> list[dict[str, Any]]:
    out = []
    for a in state.legal_actions():
        entry = action_json(state, a)
        if not a.decision:
            del entry["announcement"]
        out.append(entry)
    return sorted(out, key=lambda e: str(e["text"]))


def unowned_after_hits(entries: list[dict[str, Any]]) -> int:
    """Forget the seat of ring-to-ring steps after a hit in the same action (the page names
    the peg that stood there before the action, the server the one the hit sent there: the
    spot, all the page draws with, is the same).  How many there were."""
    count = 0
    for entry in entries:
        for i, step in enumerate(entry["steps"]):
            if (any(s["hit"] for s in entry["steps"][:i])
                    and "." in step["from"] and "." in step["to"]):
                step["seat"] = None
                count += 1
    return count


def test_the_page_expands_the_grouped_legal_actions_exactly(static_page: Page) -> None:
    static_page.goto(f"{FAKE}/tests/harness.html?f=pegoo-4")
    states = list(positions())
    listings = [legal_compact(state, state.legal_actions()) for state in states]
    expanded = static_page.evaluate(EXPAND, [
        [compact, view_json(view(state, state.current_player))]
        for state, compact in zip(states, listings, strict=True)])
    after_hits = 0
    for state, got in zip(states, expanded, strict=True):
        for entry in got:
            if not entry["decision"]:
                assert entry.get("announcement") is None
                entry.pop("announcement", None)
        got.sort(key=lambda e: str(e["text"]))
        want = expected(state)
        after_hits += unowned_after_hits(got)
        unowned_after_hits(want)
        assert got == want
    assert len(states) > 20 and any(c["decisions"] for c in listings) and after_hits > 0


def test_a_chosen_move_is_announced_once_asked_for(chromium: Browser, server: Server) -> None:
    made = server.table_with_bots("pegoo", 4, name="Dee")
    context = chromium.new_context(viewport={"width": 1200, "height": 820})
    context.add_init_script(seat_script(made["code"], made["token"], 0, "Dee"))
    page = context.new_page()
    asked: list[str] = []
    page.on("websocket", lambda ws: ws.on(
        "framesent", lambda p: asked.append(str(p)) if '"explain"' in str(p) else None))
    page.goto(f"{server.base}/t/{made['code']}")
    expect(page.locator("body")).to_have_attribute("data-my-turn", "1", timeout=15_000)
    page.locator("#hand .card.playable").first.click()
    for _ in range(8):
        if page.locator(".confirm-btn").count():
            break
        page.locator("#targets button, #pegs button").first.click()
    confirm = page.locator(".confirm").first
    text = confirm.locator(".confirm-btn").get_attribute("data-action") or ""
    # the move's words replace its notation once the server has explained it
    expect(confirm.locator(".move-text")).not_to_have_text(text)
    expect(confirm.locator(".move-text")).to_contain_text(".")
    assert len(asked) == 1
    context.close()
