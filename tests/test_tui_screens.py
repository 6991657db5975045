"""The pages shown over the game: long lines wrapped under their text."""

from __future__ import annotations

import pytest

from pegs.cue import cue_card
from pegs.rules import PRESETS, Rules
from pegs.tui.screens import hang


@pytest.mark.parametrize("preset", PRESETS)
def test_the_cue_card_wraps_under_its_labels_at_80_columns(preset: str) -> None:
    card = cue_card(Rules.preset(preset))
    wrapped = hang(card, 70)
    lines = wrapped.splitlines()
    assert all(len(line) <= 70 for line in lines)
    assert wrapped.split() == card.split()  # the same words in the same order
    joker = next(i for i, line in enumerate(lines) if line.startswith("  Joker  "))
    if len(lines[joker]) > 60:  # a long row goes on under its text, not under its label
        assert lines[joker + 1].startswith(" " * len("  Joker  ")) and lines[joker + 1][9] != " "
