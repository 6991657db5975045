"""Human announcements in the Pegoo etiquette style, and seat names.

``announce(state, action)`` says what a move does the way players say it at the table:
``Nine. 23 forward one to 24 and 5 back eight to 17.``  Holes are numbered as on the
Pegoo board: 1..H along each side, home holes H+1 onwards, START for the start area.
"""

from __future__ import annotations

from collections import Counter

from .rules import Action, GameState, Geometry, Step
from .rules.board import START
from .rules.board_work import WorkBoard

CARD_WORDS = {
    "A": "Ace", "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six",
    "7": "Seven", "8": "Eight", "9": "Nine", "10": "Ten", "J": "Jack", "Q": "Queen",
    "K": "King", "Joker": "Joker",
}
NUMBER_WORDS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen",
)

#: Seat colours with a letter each, so that no one depends on colour alone.
SEAT_COLOURS = (
    ("Red", "R"), ("Blue", "B"), ("Yellow", "Y"), ("Green", "G"), ("Purple", "P"),
    ("Orange", "O"), ("White", "W"), ("Black", "K"), ("Pink", "N"), ("Teal", "T"),
)


def seat_name(seat: int) -> str:
    """``Seat 2 (Yellow, Y)``: colour and letter together."""
    colour, letter = SEAT_COLOURS[seat]
    return f"Seat {seat} ({colour}, {letter})"


def _owner_and_pos(geo: Geometry, text: str, mover: int, board: WorkBoard) -> tuple[int, int]:
    """The seat whose peg stands on ``text`` now (``board``: the move's earlier steps done)."""
    name, _, owner = text.partition("@")
    pos = geo.parse(name)
    if owner:
        return int(owner), pos
    if 0 <= pos < geo.ring_size and board.occ[pos] != -1:
        return board.occ[pos], pos
    return mover, pos


def _distance(geo: Geometry, seat: int, src: int, dst: int, op: str) -> int:
    ring = geo.ring_size
    if op == "<":
        return (src - dst) % ring
    if src >= ring:
        return dst - src
    if dst >= ring:
        return (geo.door[seat] - src) % ring + dst - ring + 1
    return (dst - src) % ring


def _step_words(geo: Geometry, step: Step, owner: int, src: int, dst: int, split: bool) -> str:
    a, b = geo.pegoo_number(src), geo.pegoo_number(dst)
    if step.op == "~":
        return f"{a} swaps with {b}"
    if split:
        n = NUMBER_WORDS[_distance(geo, owner, src, dst, step.op)]
        direction = "back" if step.op == "<" else "forward"
        return f"{a} {direction} {n} to {b}"
    return f"{a} back to {b}" if step.op == "<" else f"{a} to {b}"


def step_pegs(state: GameState, action: Action) -> list[tuple[int, int, int, int]]:
    """Per step of ``action``: (owner of the moved peg, from, the seat the target belongs
    to or -1, to), with positions as ints; the target belongs to the seat whose peg stands
    on it (a ring hole) or whose start or home it is (``@q``).  Each step is judged on the
    board left by the steps before it, so a peg that an earlier hit sent to its door is
    found."""
    geo = state.geo
    mover = state.turn
    board = WorkBoard(geo, state.pegs, mover)
    out: list[tuple[int, int, int, int]] = []
    for step in action.steps:
        owner, src = _owner_and_pos(geo, step.src, mover, board)
        dst_owner, dst = _owner_and_pos(geo, step.dst, -1, board)
        out.append((owner, src, dst_owner, dst))
        if step.op != "~":
            board.land(owner, src, dst)
    return out


def announce(state: GameState, action: Action) -> str:
    """What ``action`` does, said the Pegoo way (the state is the one before the action)."""
    geo = state.geo
    if action.decision:
        return _decision_words(state, action)
    card = CARD_WORDS[action.card]
    if action.declared:
        card = f"{CARD_WORDS[action.declared]}, face down"
    if action.discard and not action.steps:
        return f"{card}. Can't play; discards."
    after = state.result_of(action)
    parts: list[str] = []
    explained: list[tuple[int, int, int]] = []
    for step, (owner, src, dst_owner, dst) in zip(action.steps, step_pegs(state, action),
                                                  strict=True):
        if step.op == "~":
            explained += [(owner, src, dst), (dst_owner, dst, src)]
        else:
            explained.append((owner, src, dst))
        parts.append(_step_words(geo, step, owner, src, dst, len(action.steps) > 1))
    text = f"{card}. " + " and ".join(parts) + "."
    if action.discard:
        text = f"{card}. Discards; " + " and ".join(parts) + " free."
    for _seat, src, dst in peg_hits(state.pegs, after, explained):
        where = "back to START" if dst == START else f"to {geo.pegoo_number(dst)}"
        text += f" {geo.pegoo_number(src)} {where}."
    return text


def _decision_words(state: GameState, action: Action) -> str:
    """Bluffing Joker decisions: a doubt, a pass, or the peg sent back to start."""
    word = action.decision.split()[0]
    if word == "doubt":
        pending = state.pending
        truth = ""
        if pending is not None:
            real = CARD_WORDS[pending.action.card]
            card = f"an {real}" if real[0] in "AEIOU" else f"a {real}"
            truth = (f" The card is {card}: a bluff!" if pending.bluff
                     else f" The card is {card}: it was true.")
        return "Doubt!" + truth
    if word == "pass":
        return "No doubt."
    hole = state.geo.parse(action.decision.split()[1])
    return f"{state.geo.pegoo_number(hole)} back to START."


def peg_hits(
    before: tuple[tuple[int, ...], ...],
    after: tuple[tuple[int, ...], ...],
    explained: list[tuple[int, int, int]],
) -> list[tuple[int, int, int]]:
    """Pegs that moved without a step of their own: (seat, from, to) for each hit peg."""
    out: list[tuple[int, int, int]] = []
    for seat, (b, a) in enumerate(zip(before, after, strict=True)):
        if a == b:
            continue
        left = Counter(b) - Counter(a)
        came = Counter(a) - Counter(b)
        for q, src, dst in explained:
            if q == seat:
                if left[src]:
                    left[src] -= 1
                else:
                    came[src] += 1
                if came[dst]:
                    came[dst] -= 1
                else:
                    left[dst] += 1
        froms = sorted((+left).elements())
        tos = sorted((+came).elements())
        out += [(seat, f, t) for f, t in zip(froms, tos, strict=False)]
    return out
