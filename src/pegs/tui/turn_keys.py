"""The two widgets a player chooses a move with, guarded against keys typed ahead.

Keys are time-stamped when they are typed; a choice key (a number, Enter, Space) typed
before the player's turn began is dropped when it arrives later, so what a player types
while the bots move never becomes a choice.  Number keys are the option list's own: they
choose only while the list has focus.
"""

from __future__ import annotations

import math
import time
from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Input, OptionList

NUMBERS = tuple(str(n) for n in range(1, 10))
LIST_TITLE = "1-9, or arrows and Enter"
BOX_TITLE = "Enter plays the move, Escape goes back"


class TurnClock:
    """When the current turn was offered to the player (infinity: not the player's turn)."""

    def __init__(self) -> None:
        self.since = math.inf

    def open(self) -> None:
        self.since = time.monotonic()

    def close(self) -> None:
        self.since = math.inf

    def early(self, event: events.Key) -> bool:
        """Whether ``event`` was typed before the turn was offered."""
        return event.time < self.since


class ChoiceList(OptionList):
    """The options of the current choice; 1-9 pick one while the list has focus."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(n, f"number({n})", show=False) for n in NUMBERS
    ]

    class Numbered(Message):
        """A number key chose option ``number`` (1-based)."""

        def __init__(self, number: int) -> None:
            super().__init__()
            self.number = number

    def __init__(self, clock: TurnClock, id: str) -> None:
        super().__init__(id=id)
        self.clock = clock

    def on_key(self, event: events.Key) -> None:
        if event.key in (*NUMBERS, "enter", "space") and self.clock.early(event):
            event.prevent_default()
            event.stop()

    def action_number(self, number: int) -> None:
        self.post_message(self.Numbered(number))

    def on_focus(self) -> None:
        self.border_title = LIST_TITLE

    def on_blur(self) -> None:
        self.border_title = ""


class MoveBox(Input):
    """The box a move is typed into in the engine's notation; it plays only on Enter, and
    an Enter typed before the turn plays nothing."""

    def __init__(self, clock: TurnClock, id: str, placeholder: str) -> None:
        super().__init__(id=id, placeholder=placeholder)
        self.clock = clock

    class Early(Message):
        """Enter was pressed in the box before the player's turn."""

    def on_key(self, event: events.Key) -> None:
        if event.key == "enter" and self.clock.early(event):
            event.prevent_default()
            event.stop()
            self.post_message(self.Early())

    def on_focus(self) -> None:
        self.border_title = BOX_TITLE

    def on_blur(self) -> None:
        self.border_title = ""
