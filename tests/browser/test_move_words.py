"""Words where notation was (issue 50, item 8): the confirm box says a move in words before
the server's announcement arrives, the teacher's list of a partner's moves reads as words,
and the Bluffing Joker log tells a face-down card, its doubt and the peg sent back on one
line with the team next to each name."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from browser_support import FAKE, to_confirm
from make_fixtures import played_state, state_message
from playwright.sync_api import Page, expect
from test_page_words import FakeTable

from pegs.notation import colour, option_words

NOTATION = re.compile(r"\d\.\d|[<>~]|\b[SH]\d*\b|\(\w side\)")
PAGE_WORDS = """async (msg) => {
  const { expandLegal } = await import("/picker.js");
  const { pageMoveWords } = await import("/move_words.js");
  return Object.fromEntries(expandLegal(msg.wire_legal, msg.view)
    .map((a) => [a.text, pageMoveWords(msg, a, msg.seat)]));
}"""


def named(msg: dict[str, Any], text: str) -> str:
    """A server announcement with the seats named as the fixture's table names them."""
    for seat in msg["table"]["seats"]:
        text = re.sub(rf"\b{colour(seat['seat'])}\b", seat["name"], text)
    return text


def test_the_confirm_box_says_the_move_in_words_from_the_start(static_page: Page,
                                                                artifacts: Path) -> None:
    state, last = played_state("pegoo", 4, 60, seed=3)
    msg = state_message(state, state.current_player, last)
    FakeTable(static_page, msg)  # it never answers "explain": only the page's words show
    words = static_page.evaluate(PAGE_WORDS, msg)
    assert words and not any(NOTATION.search(w) for w in words.values()), words
    # a plain move (one step, nothing hit) reads exactly as the server would say it
    same = 0
    for action in state.legal_actions():
        said = named(msg, option_words(state, action))
        if len(action.steps) == 1 and " goes " not in said and "door" not in said:
            assert words[str(action)] == said
            same += 1
    assert same >= 3, words
    static_page.locator("#hand .card.playable").first.click()
    to_confirm(static_page, tap=False)
    confirm = static_page.locator(".confirm").first
    text = confirm.locator(".confirm-btn").get_attribute("data-action") or ""
    expect(confirm.locator(".move-text")).to_have_text(words[text])
    static_page.screenshot(path=str(artifacts / "confirm-words.png"))


def test_a_partners_moves_are_listed_in_words(static_page: Page, artifacts: Path) -> None:
    state, last = played_state("pegoo", 4, 60, seed=3)
    mover = state.current_player
    partner = (mover + 2) % 4
    msg = state_message(state, partner, last)
    msg["table"]["teaching"] = True
    msg["partner_legal"] = state_message(state, mover, last)["wire_legal"]
    FakeTable(static_page, msg)
    options = static_page.locator("#suggest-select option")
    expect(options.nth(1)).to_be_attached()
    texts = options.all_inner_texts()[1:]
    assert texts and not any(NOTATION.search(t) for t in texts), texts
    mover_name = msg["table"]["seats"][mover]["name"]
    assert all(f"{mover_name}'s" in t or "discards" in t for t in texts), texts
    static_page.select_option("#suggest-select", index=1)
    static_page.locator("#suggest-select").scroll_into_view_if_needed()
    static_page.screenshot(path=str(artifacts / "suggest-words.png"))


def test_a_face_down_card_and_its_doubt_are_one_line_of_the_log(static_page: Page,
                                                                 artifacts: Path) -> None:
    state, last = played_state("bluffing-joker", 4, 9, seed=3)
    msg = state_message(state, 0, last)
    table = FakeTable(static_page, msg)
    v = msg["version"]
    expect(static_page.locator("body")).to_have_attribute("data-version", str(v))
    events = [(1, "5 as 9: 1.3>1.12", "Nine, face down. 3 to 12."),
              (2, "doubt", "Yellow doubts Blue's face-down Nine. The card is a Five: a bluff "
                           "by Blue."),
              (2, "send 1.3", "Yellow sends Blue's peg on Blue's 3 back to START.")]
    for n, (seat, action, said) in enumerate(events, start=1):
        table.push({"type": "event", "version": v + n, "seat": seat, "action": action,
                    "announcement": said})
    line = static_page.locator(f"#log li[data-version='{v + 1}']")
    expect(line).to_contain_text("sends Player 1's peg")
    expect(static_page.locator(f"#log li[data-version='{v + 2}']")).to_have_count(0)
    text = line.inner_text()
    # each name with its team right after it, the sentence after that
    assert re.search(r"Player 1\s*Team B: Nine, face down\. 3 to 12\.", text), text
    assert re.search(r"Player 2\s*Team A\s*your partner doubts Player 1's face-down Nine\.",
                     text), text
    assert "Player 2 sends Player 1's peg" in text, text  # named once with its team
    assert not text.rstrip().endswith(("Team A", "Team B")), text
    static_page.locator("#log").scroll_into_view_if_needed()
    static_page.screenshot(path=str(artifacts / "bluff-log-one-line.png"))


def test_a_joker_discarded_beside_joker_moves_keeps_its_move_unused(
        static_page: Page) -> None:
    """As the server says it: a Joker thrown away while it could move keeps its move
    unused; a card that cannot move is simply discarded."""
    static_page.goto(f"{FAKE}/harness.html")
    said = static_page.evaluate("""async () => {
      const { pageMoveWords } = await import("/move_words.js");
      const discard = { card: "Joker", steps: [], discard: true, declared: "" };
      const move = { card: "Joker", steps: [{ src: "S", dst: "1.5", op: ">", seat: 1 }] };
      return [pageMoveWords({}, discard, 0, [discard, move]),
              pageMoveWords({}, discard, 0, [discard]),
              pageMoveWords({ legal: [discard, move] }, discard, 0)];
    }""")
    assert said == ["Joker. Discards it, keeping its move unused.",
                    "Joker. Can't play; discards.",
                    "Joker. Discards it, keeping its move unused."]
