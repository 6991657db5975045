"""Screens shown over the game: the hot-seat cover and the cue card / help pages."""

from __future__ import annotations

import re
import textwrap
import time

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Center, Middle, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static


class CoverScreen(Screen[None]):
    """Hides the whole table between two human players' turns (hot seat).

    Keys in the first ``GUARD`` seconds are ignored, so that a player who presses one key
    too many after a move does not uncover the next player's hand.
    """

    GUARD = 0.5

    DEFAULT_CSS = """
    CoverScreen { align: center middle; background: $surface; }
    CoverScreen Static { width: auto; padding: 1 4; border: heavy $accent; }
    """

    def __init__(self, who: str) -> None:
        super().__init__()
        self.who = who
        self.shown_at = time.monotonic()

    def compose(self) -> ComposeResult:
        with Middle(), Center():
            yield Static(f"{self.who}, it is your turn.\n\n"
                         "Everyone else: look away.\n\n"
                         "Press any key to show your hand.", id="cover")

    def on_mount(self) -> None:
        self.shown_at = time.monotonic()

    def on_key(self, event: events.Key) -> None:
        event.stop()
        if time.monotonic() - self.shown_at >= self.GUARD:
            self.dismiss()


#: A line's label column: ``  Ace    ``, ``  Players  `` (two spaces or more after a word).
LABEL = re.compile(r"\s*\S+(?: \S+)?\s{2,}(?=\S)")


def hang(text: str, width: int) -> str:
    """``text`` wrapped to ``width`` columns, each wrapped line's continuation indented
    under the line's text (after its label, if it has one), so that a cue card's rows
    stay readable in a narrow window."""
    out: list[str] = []
    for line in text.splitlines():
        label = LABEL.match(line)
        indent = len(label.group()) if label else len(line) - len(line.lstrip()) + 2
        out.append(textwrap.fill(line, width, subsequent_indent=" " * min(indent, width // 2),
                                 break_on_hyphens=False) if len(line) > width else line)
    return "\n".join(out)


class TextScreen(ModalScreen[None]):
    """A page of text (the cue card, the keys, the whole log) under a title; the arrows
    and Page Up/Down scroll it, any other key closes it.  ``at_end`` opens it at its end
    (the log's latest lines); ``hanging`` wraps long lines under their text (see
    :func:`hang`)."""

    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen VerticalScroll { width: 100; max-width: 95%; height: auto; max-height: 90%;
                                border: round $accent; background: $panel; padding: 0 1; }
    """

    def __init__(self, text: str | Text, title: str = "", at_end: bool = False,
                 hanging: bool = False) -> None:
        super().__init__()
        self.text = Text(text) if isinstance(text, str) else text
        self.heading = title
        self.at_end = at_end
        self.hanging = hanging

    def compose(self) -> ComposeResult:
        if self.hanging:
            # the page's width (see the CSS) less its border, padding and a scroll bar
            width = min(100, self.app.size.width * 95 // 100) - 6
            self.text = Text(hang(self.text.plain, max(width, 20)))
        page = VerticalScroll()
        page.border_title = self.heading
        page.border_subtitle = "any other key closes"
        with page:
            yield Static(self.text)

    def on_mount(self) -> None:
        if self.at_end:
            page = self.query_one(VerticalScroll)
            self.call_after_refresh(page.scroll_end, animate=False, immediate=True)

    def on_key(self, event: events.Key) -> None:
        if event.key in ("up", "down", "pageup", "pagedown", "home", "end"):
            return
        event.stop()
        self.dismiss()
