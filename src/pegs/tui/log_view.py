"""The log under the game: the latest announcements that fit, each one whole."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.widgets import Static


class LatestLines(Static):
    """The last entries of the log that fit in the widget, each shown whole: an
    announcement wrapped over several rows is never cut at the top, as it would be in a
    log scrolled to its last row.  ``entries`` keeps every line (``l`` shows them all)."""

    def __init__(self, id: str) -> None:
        super().__init__(id=id)
        self.entries: list[Text] = []

    def add(self, line: Text) -> None:
        self.entries.append(line)
        self.show_latest()

    def on_resize(self, event: events.Resize) -> None:
        self.show_latest()

    def show_latest(self) -> None:
        width, height = self.content_size
        if width <= 0 or height <= 0:  # not laid out yet: the first resize shows them
            return
        shown: list[Text] = []
        rows = 0
        for entry in reversed(self.entries):
            taken = len(entry.wrap(self.app.console, width))
            if shown and rows + taken > height:
                break
            shown.append(entry)
            rows += taken
        self.update(Text("\n").join(reversed(shown)))
