"""A game at the terminal without the screen: seats, bots, the state and its saved record.

Who sits where (``human`` or a bot kind) is kept in the record file next to the usual
record fields, so ``pegs play --resume FILE`` continues with the same seats.  The record
is rewritten after every action (into a temporary file, then renamed), so quitting or a
crash loses nothing.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import platformdirs

from ..bots import Bot, make_bot
from ..house import HouseName, game_name
from ..notation import announce_line, seat_name
from ..record import Record, RecordError, clip, from_json, read_data
from ..rules import Action, GameState, Rules, View, view

HUMAN = "human"
#: Bot strength words and the bots they stand for.
STRENGTHS = {"easy": "random", "normal": "heuristic", "strong": "ismcts"}
KINDS = (HUMAN, "random", "heuristic", "ismcts")
DATA_ENV = "PEGS_DATA_DIR"
DEFAULT_THINK = 1.0
RECENT = 8


class SetupError(ValueError):
    """A game that cannot be set up as asked (bad seats, unreadable record, no folder)."""


def seat_kind(word: str) -> str:
    """``human``/``you``, a bot name, or a strength word, as a seat kind."""
    w = word.strip().lower()
    if w == "you":
        return HUMAN
    w = STRENGTHS.get(w, w)
    if w not in KINDS:
        raise SetupError(f"unknown seat {word.strip()!r}: use human (or you), easy, normal, "
                         "strong, or a bot name: random, heuristic, ismcts")
    return w


def parse_seats(text: str | None, players: int, strength: str = "normal") -> tuple[str, ...]:
    """Seat kinds from ``--seats`` (one per seat, comma-separated); without it, a human in
    seat 0 and bots of ``strength`` everywhere else."""
    if not text:
        bot = seat_kind(strength)
        if bot == HUMAN:
            raise SetupError("--strength names a bot: easy, normal or strong")
        return (HUMAN,) + (bot,) * (players - 1)
    words = text.split(",")
    if len(words) != players:
        raise SetupError(f"--seats needs one entry per seat: {players} for this table, "
                         f"not {len(words)} ({text})")
    return tuple(seat_kind(w) for w in words)


def saved_seats(path: Path, saved: Any, players: int) -> tuple[str, ...]:
    """The seat kinds a record lists in ``seats``; :class:`SetupError` blaming the record
    (not ``--seats``) when they are not one known kind per seat."""
    fix = "give --seats to say who plays each seat"
    if not isinstance(saved, list) or len(saved) != players:
        count = f"{len(saved)} listed" if isinstance(saved, list) else "not a list"
        raise SetupError(f"the record {path} has bad 'seats' ({count} for {players} "
                         f"players): {fix}")
    try:
        return tuple(seat_kind(str(s)) for s in saved)
    except SetupError:
        shown = clip(repr(saved))
        raise SetupError(f"the record {path} has an unknown seat in 'seats' {shown}: "
                         f"{fix}") from None


def games_dir() -> Path:
    """Where games are saved: ``$PEGS_DATA_DIR/games``, else the user's data folder."""
    base = os.environ.get(DATA_ENV)
    root = Path(base) if base else platformdirs.user_data_path("pegs")
    return root / "games"


def default_path(rules: Rules, seed: int) -> Path:
    """A new file in the games folder, named by date, preset, table size and seed."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    name = f"{stamp}-{rules.name}-{rules.players}p-{seed}"
    path = games_dir() / f"{name}.json"
    count = 1
    while path.exists():
        count += 1
        path = games_dir() / f"{name}-{count}.json"
    return path


class Session:
    """One game: the state, who sits in each seat, and the file it is saved to; ``house``
    names the house rules played (their powers and settings are in ``rules``)."""

    def __init__(self, rules: Rules, seed: int, seats: Sequence[str], path: Path,
                 actions: Sequence[Action] = (), think: float = DEFAULT_THINK,
                 house: HouseName | None = None) -> None:
        if len(seats) != rules.players:
            raise SetupError(f"{len(seats)} seats given for {rules.players} players")
        self.rules = rules
        self.seed = seed
        self.seats = tuple(seat_kind(s) for s in seats)
        self.path = path
        self.think = think
        self.house = house
        self.state = GameState.new(rules, seed)
        self.actions: list[Action] = []
        #: Announcements of the latest actions (kept from a resumed record too).
        self.recent: list[str] = []
        for i, action in enumerate(actions):
            if i >= len(actions) - RECENT:
                self.play(action)
            else:
                self.state = self.state.apply(action)
                self.actions.append(action)
        self._bots: dict[int, Bot] = {}

    # --- resuming ---------------------------------------------------------------------------
    @classmethod
    def resume(cls, path: Path, seats: str | None = None, save_to: Path | None = None,
               think: float = DEFAULT_THINK) -> Session:
        """The game saved in ``path``; its seats are those saved with it unless ``seats``
        (``--seats`` text) is given, and a record without seats gets a human in seat 0."""
        try:
            data = read_data(path)
            record = from_json(data)
        except RecordError as e:
            raise SetupError(str(e)) from e
        players = record.rules.players
        saved = data.get("seats")
        if seats is not None or saved is None:
            kinds = parse_seats(seats, players)
        else:
            kinds = saved_seats(path, saved, players)
        return cls(record.rules, record.seed, kinds, save_to or path, record.actions, think,
                   record.house)

    # --- reading ----------------------------------------------------------------------------
    @property
    def name(self) -> str:
        """The game's name: the preset's, or the house rules' title (see
        :func:`pegs.house.game_name`)."""
        return game_name(self.rules, self.house)

    @property
    def to_act(self) -> int:
        return self.state.current_player

    def is_human(self, seat: int) -> bool:
        return 0 <= seat < len(self.seats) and self.seats[seat] == HUMAN

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(s for s, kind in enumerate(self.seats) if kind == HUMAN)

    def view_for(self, seat: int) -> View:
        return view(self.state, seat)

    def names(self) -> list[str]:
        return [f"{seat_name(s)}, {kind}" for s, kind in enumerate(self.seats)]

    # --- acting -----------------------------------------------------------------------------
    def bot(self, seat: int) -> Bot:
        if seat not in self._bots:
            kind = self.seats[seat]
            options: dict[str, Any] = {"seconds": self.think} if kind == "ismcts" else {}
            self._bots[seat] = make_bot(kind, self.seed * 1000 + seat, **options)
        return self._bots[seat]

    def bot_choice(self) -> Action:
        """The move of the bot whose turn it is (from its seat's view only)."""
        seat = self.to_act
        return self.bot(seat).choose(view(self.state, seat), self.state.legal_actions())

    def play(self, action: Action) -> str:
        """Play ``action`` for the seat to act and return its announcement (``save`` writes it).

        Raises :class:`~pegs.rules.IllegalActionError` (nothing changed) if it is not legal.
        """
        before = self.state
        action = before.canonical(action)
        # the table's words, shared with the page and the replay (a doubt's outcome included)
        words = announce_line(before, action)
        self.state = before.apply(action)
        self.actions.append(action)
        self.recent = [*self.recent[1 - RECENT:], words]
        return words

    # --- saving -----------------------------------------------------------------------------
    def record_json(self) -> dict[str, Any]:
        """The record (the format ``pegs replay`` reads) with the seats added."""
        out = Record(self.rules, self.seed, self.actions, self.names(),
                     self.house).to_json(self.state)
        out["seats"] = list(self.seats)
        return out

    def save(self) -> None:
        """Write the record (atomically: a half-written file never replaces a good one)."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(self.path.name + ".tmp")
            tmp.write_text(json.dumps(self.record_json(), indent=1) + "\n", encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as e:
            raise SetupError(f"cannot save the game to {self.path}: {e.strerror or e}") from e
