"""Human announcements in the Pegoo etiquette style, and seat names.

``announce(state, action)`` says what a move does the way players say it at the table,
card first, then holes: ``Nine. Home 3 forward one to home 4 and 5 back eight to Green's
17.``  Holes are numbered as on the boards: 1..H along each side.  A plain number is a
hole on the side of the seat that moves, in a step moving its own peg; every other hole
carries its side's colour (``Blue's 17``).  Home holes are ``home 1`` (next to the door)
onwards, the start area is ``START``.  A peg of another seat is named with its colour,
and so is every peg a move hits (``Blue's peg goes back to START``).  Bluffing Joker
decisions are sentences naming the seats, followed by what they reveal
(:func:`announce_outcome`).  :func:`option_words` says how an option reads to the seat
to act (a face-down card's real rank too, nothing a decision would reveal).  See
docs/RULES.md, "Announcements".
"""

from __future__ import annotations

from collections import Counter

from .rules import Action, GameState, Geometry, Step
from .rules.board import START
from .rules.board_work import Pegs, WorkBoard

CARD_WORDS = {
    "A": "Ace", "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six",
    "7": "Seven", "8": "Eight", "9": "Nine", "10": "Ten", "J": "Jack", "Q": "Queen",
    "K": "King", "Joker": "Joker",
}
NUMBER_WORDS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen",
)
ORDINAL_WORDS = ("", "", "second ", "third ", "fourth ", "fifth ", "sixth ", "seventh ",
                 "eighth ", "ninth ", "tenth ", "eleventh ")

#: Seat colours with a letter each, so that no one depends on colour alone.
SEAT_COLOURS = (
    ("Red", "R"), ("Blue", "B"), ("Yellow", "Y"), ("Green", "G"), ("Purple", "P"),
    ("Orange", "O"), ("White", "W"), ("Black", "K"), ("Pink", "N"), ("Teal", "T"),
)


def seat_name(seat: int) -> str:
    """``Seat 2 (Yellow, Y)``: colour and letter together."""
    colour, letter = SEAT_COLOURS[seat]
    return f"Seat {seat} ({colour}, {letter})"


#: Teams by letter, as the browser page names them (``Team A`` is team 0).
TEAM_LETTERS = "ABCDE"


def team_name(team: int) -> str:
    """``Team A`` for team 0: the name every screen gives a team."""
    return f"Team {TEAM_LETTERS[team] if 0 <= team < len(TEAM_LETTERS) else team + 1}"


def colour(seat: int) -> str:
    """The seat's colour, the name announcements give it: ``Blue``."""
    return SEAT_COLOURS[seat][0]


def acting_seat(state: GameState) -> int:
    """The seat whose action comes next: the seat whose turn it is, or during a Bluffing
    Joker declaration the seat asked to doubt or the seat choosing the peg to send back."""
    return state.current_player


def announce_line(state: GameState, action: Action) -> str:
    """``Seat 1 (Blue, B): Five. 10 to 15.``: a line of a game's log; a sentence that names
    the seat acting first (a decision) follows its name once: ``Seat 1 (Blue, B) doubts
    Red's face-down Five. ...``."""
    seat, said = acting_seat(state), announce(state, action)
    own = f"{colour(seat)} "
    if said.startswith(own):
        return f"{seat_name(seat)} {said[len(own):]}"
    return f"{seat_name(seat)}: {said}"


def hole_words(geo: Geometry, pos: int, plain_for: int = -1) -> str:
    """A hole as announced: ``START``, ``home 2``, a plain number on the side of seat
    ``plain_for`` (-1: none), else the number with its side's colour (``Blue's 12``); a
    side with no seat is named after the seat before it (``12 on the side after Red's``)."""
    if pos < 0:
        return "START"
    if pos >= geo.ring_size:
        return f"home {pos - geo.ring_size + 1}"
    side, hole = divmod(pos, geo.holes_per_side)
    if plain_for >= 0 and geo.side_of[plain_for] == side:
        return str(hole + 1)
    if side in geo.side_of:
        return f"{colour(geo.side_of.index(side))}'s {hole + 1}"
    before = max((s for s in range(geo.players) if geo.side_of[s] < side),
                 key=geo.side_of.__getitem__, default=geo.players - 1)
    gap = (side - geo.side_of[before]) % (geo.ring_size // geo.holes_per_side)
    return f"{hole + 1} on the {ORDINAL_WORDS[gap]}side after {colour(before)}'s"


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


def _step_words(geo: Geometry, step: Step, owner: int, src: int, dst: int, split: bool,
                mover: int | None = None, dst_owner: int = -1) -> str:
    """One step: ``5 back eight to 17`` for the mover's own peg (``mover`` defaults to the
    peg's owner), ``Blue's peg from Yellow's 7 back to START`` for another seat's peg, and
    for a swap ``20 swaps with Blue's peg on Yellow's 3`` (``dst_owner``: that peg's seat)."""
    mine = mover is None or owner == mover
    plain = owner if mine else -1
    a, b = hole_words(geo, src, plain), hole_words(geo, dst, plain)
    if step.op == "~":
        other = f"{colour(dst_owner)}'s peg" if dst_owner >= 0 else "the peg"
        head = a if mine else f"{colour(owner)}'s peg on {a}"
        return f"{head} swaps with {other} on {hole_words(geo, dst)}"
    head = a if mine else f"{colour(owner)}'s peg from {a}"
    if split:
        n = NUMBER_WORDS[_distance(geo, owner, src, dst, step.op)]
        direction = "back" if step.op == "<" else "forward"
        return f"{head} {direction} {n} to {b}"
    return f"{head} back to {b}" if step.op == "<" or dst == START else f"{head} to {b}"


class _Walk:
    """The steps of a move made one by one on a board: each step's pegs (as
    :func:`step_pegs`) and the pegs each step hits, in the order they are hit."""

    def __init__(self, geo: Geometry, pegs: Pegs, mover: int, steps: tuple[Step, ...]) -> None:
        board = WorkBoard(geo, pegs, mover)
        self.pegs: list[tuple[int, int, int, int]] = []
        self.hits: list[tuple[int, int, int]] = []
        for step in steps:
            owner, src = _owner_and_pos(geo, step.src, mover, board)
            dst_owner, dst = _owner_and_pos(geo, step.dst, -1, board)
            self.pegs.append((owner, src, dst_owner, dst))
            if step.op == "~":
                board.swap(owner, src, dst_owner, dst)
                continue
            before = board.snapshot()
            board.land(owner, src, dst)
            hit = peg_hits(before, board.snapshot(), [(owner, src, dst)])
            self.hits += sorted(hit, key=lambda h: h[1] != dst)  # the peg landed on first
        self.result = board.snapshot()


def step_pegs(state: GameState, action: Action) -> list[tuple[int, int, int, int]]:
    """Per step of ``action``: (owner of the moved peg, from, the seat the target belongs
    to or -1, to), with positions as ints; the target belongs to the seat whose peg stands
    on it (a ring hole) or whose start or home it is (``@q``).  Each step is judged on the
    board left by the steps before it, so a peg that an earlier hit sent to its door is
    found."""
    return _Walk(state.geo, state.pegs, state.turn, action.steps).pegs


def _move_words(geo: Geometry, before: Pegs, after: Pegs, mover: int,
                steps: tuple[Step, ...]) -> tuple[str, str]:
    """The steps (``5 to 8 and 12 to 16``) and the hits they cause (``Blue's peg goes back
    to START.``, empty when none) of a move from ``before`` to ``after``."""
    walk = _Walk(geo, before, mover, steps)
    split = len(steps) > 1
    parts = [_step_words(geo, step, owner, src, dst, split, mover, dst_owner)
             for step, (owner, src, dst_owner, dst) in zip(steps, walk.pegs, strict=True)]
    hits = walk.hits
    if walk.result != after:  # never seen; the layouts alone still tell who was hit
        explained = [(owner, src, dst) for owner, src, _, dst in walk.pegs]
        hits = peg_hits(before, after, explained)
    landed = {dst for step, (_, _, _, dst) in zip(steps, walk.pegs, strict=True)
              if step.op != "~"}
    return " and ".join(parts), _hit_words(geo, hits, landed)


def _hit_words(geo: Geometry, hits: list[tuple[int, int, int]], landed: set[int]) -> str:
    """``Yellow's peg goes to its door. Blue's peg on Green's 20 goes back to START.``: in
    the order they were hit, a hit peg's hole named unless a step landed there."""
    grouped: dict[tuple[int, int], list[int]] = {}
    for seat, src, dst in hits:
        grouped.setdefault((seat, dst), []).append(src)
    out = []
    for (seat, dst), srcs in grouped.items():
        where = ("back to START" if dst == START
                 else "to its door" if dst == geo.door[seat] else f"to {hole_words(geo, dst)}")
        if len(set(srcs)) < len(srcs):
            out.append(f"{NUMBER_WORDS[len(srcs)].capitalize()} of {colour(seat)}'s pegs go "
                       f"{where}.")
        elif len(srcs) > 1:
            holes = " and ".join(hole_words(geo, s) for s in srcs)
            out.append(f"{colour(seat)}'s pegs on {holes} go {where}.")
        elif srcs[0] in landed:
            out.append(f"{colour(seat)}'s peg goes {where}.")
        else:
            out.append(f"{colour(seat)}'s peg on {hole_words(geo, srcs[0])} goes {where}.")
    return " ".join(out)


def _with_article(word: str) -> str:
    return f"an {word}" if word[0] in "AEIOU" else f"a {word}"


def _card_move_words(state: GameState, action: Action, card: str) -> str:
    """A card play said with ``card`` as its first words."""
    if action.discard and not action.steps:
        if action.card == "Joker" and _joker_moves(state):
            return f"{card}. Discards it, keeping its move unused."
        return f"{card}. Can't play; discards."
    steps, hits = _move_words(state.geo, state.pegs, state.result_of(action), state.turn,
                              action.steps)
    steps = steps[0].upper() + steps[1:]
    if action.discard:  # North Carolina counting
        text = f"{card}. Discards and comes out free: {steps}."
    else:
        text = f"{card}. {steps}."
    return f"{text} {hits}" if hits else text


def _joker_moves(state: GameState) -> bool:
    """Whether a Joker of the seat to act has a move (its discard is then a choice).  A
    discard is offered only when no other card moves, so the listing is short."""
    return any(a.card == "Joker" and a.steps for a in state.legal_actions())


def announce(state: GameState, action: Action) -> str:
    """What ``action`` does, said the Pegoo way for the whole table once it is played (the
    state is the one before the action): :func:`action_words`, and after a Bluffing Joker
    decision what it reveals (:func:`announce_outcome`).  For logs, never for options."""
    words = action_words(state, action)
    if not action.decision:
        return words
    outcome = announce_outcome(state, action, state.apply(action))
    return f"{words} {outcome}" if outcome else words


def action_words(state: GameState, action: Action) -> str:
    """The words of the action itself, revealing nothing: a face-down card named as
    declared, a decision as a sentence naming the seats (``Blue doubts Red's face-down
    Five.``) without the card it turns over."""
    if action.decision:
        return _decision_words(state, action)
    if action.declared:
        return _card_move_words(state, action, f"{CARD_WORDS[action.declared]}, face down")
    return _card_move_words(state, action, CARD_WORDS[action.card])


def option_words(state: GameState, action: Action) -> str:
    """How one of its options reads to the seat to act: the announcement, with the real
    card of a face-down declaration (``Nine, face down as a Five. ...``), and a decision
    as what it does (``Doubt Red's face-down Five.``), revealing nothing."""
    if action.decision:
        return _decision_option(state, action)
    if action.declared:
        card = (f"{CARD_WORDS[action.card]}, face down as "
                f"{_with_article(CARD_WORDS[action.declared])}")
        return _card_move_words(state, action, card)
    return action_words(state, action)


def _declaration(state: GameState) -> str:
    """``Red's face-down Five``: the pending declaration."""
    p = state.pending
    assert p is not None
    return f"{colour(p.declarer)}'s face-down {CARD_WORDS[p.action.declared]}"


def _sent(state: GameState, action: Action) -> str:
    """``Blue's peg on Red's 18``: the peg a ``send`` decision names."""
    p = state.pending
    assert p is not None
    hole = hole_words(state.geo, state.geo.parse(action.decision[5:]))
    return f"{colour(p.victim)}'s peg on {hole}"


def _decision_option(state: GameState, action: Action) -> str:
    state.canonical(action)  # refuses a decision that is not legal here
    word = action.decision.split()[0]
    if word == "doubt":
        return f"Doubt {_declaration(state)}."
    if word == "pass":
        return f"Do not doubt {_declaration(state)}."
    return f"Send {_sent(state, action)} back to START."


def _decision_words(state: GameState, action: Action) -> str:
    """Bluffing Joker decisions: a doubt, a pass, or the peg sent back to start, as
    sentences naming the seats."""
    state.canonical(action)  # refuses a decision that is not legal here
    actor = colour(state.current_player)
    word = action.decision.split()[0]
    if word == "doubt":
        return f"{actor} doubts {_declaration(state)}."
    if word == "pass":
        return f"{actor} does not doubt {_declaration(state)}."
    return f"{actor} sends {_sent(state, action)} back to START."


def announce_outcome(before: GameState, action: Action, after: GameState) -> str:
    """What a Bluffing Joker decision leads to, for everyone (empty for other actions):
    after a doubt the real card, whether it was a bluff, who sends whose peg back or who
    earns an extra turn; after a peg is sent back whether the declared move is made; after
    the last pass that the declaration stands (the card stays hidden)."""
    p = before.pending
    if p is None or not action.decision:
        return ""
    declarer, said = colour(p.declarer), CARD_WORDS[p.action.declared]
    word = action.decision.split()[0]
    if word == "pass":
        return "" if after.pending is not None else f"No one doubts: {declarer}'s {said} stands."
    if word == "doubt":
        real = _with_article(CARD_WORDS[p.action.card])
        verdict = f"a bluff by {declarer}" if p.bluff else "no bluff"
        text = f"The card is {real}: {verdict}."
        winner, victim = ((p.asked, p.declarer) if p.bluff else (p.declarer, p.asked))
        if after.pending is not None:
            return (f"{text} {colour(winner)} chooses one of {colour(victim)}'s pegs to send "
                    "back to START.")
        made = "is not made" if p.bluff else "is made"
        return (f"{text} {declarer}'s move {made}. {colour(victim)} has no peg on the ring to "
                f"send back, so {colour(winner)} earns an extra turn.")
    if p.bluff:
        return f"{declarer}'s move is not made."
    sent = before.result_of(action)
    if after.pegs == sent:
        return (f"{declarer}'s {said} was no bluff, but with that peg gone it can no longer "
                f"be played there: {declarer}'s pegs stay where they are.")
    steps, hits = _move_words(before.geo, sent, after.pegs, p.declarer, p.action.steps)
    text = f"Then {declarer}'s {said} is played: {steps}."
    return f"{text} {hits}" if hits else text


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
