"""The text policy of everything a person types (issue 47): control, format and direction
characters refused or removed, blank-only text refused, marks bounded, real words of many
scripts and emoji kept as typed."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pegs.text import MOST_MARKS, TextError, TextTooLong, clean_text

ZWJ, ZWNJ = "\u200d", "\u200c"
FLAG = re.compile("\U0001f3f4[\U000e0030-\U000e0039\U000e0061-\U000e007a]+\U000e007f")
#: "I want" in Persian, written with a zero-width non-joiner (ruff finds its letters
#: ambiguous: they are spelled out).
PERSIAN = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"
SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
#: Characters the policy treats specially, drawn often so that their contexts occur.
SPECIAL = ["\u200d", "\u200c", "\u200b", "\ufeff", "\u00ad", "\u200f", "\u202e", "\u2066",
           "\u0301", "\u0302", "\u094d", "\ufe0f", "\u20e3", "\U0001f3fd", "\U0001f468",
           "\u2764", "\U0001f3f4", "\U000e0067", "\U000e007f", "\U000e0041", "\u3164",
           "\u2800", "\u115f", "\x00", "\x1b", "\n", "\r", " ", "\t", "\u2028", "\ud800",
           "\ue000", "\u0378", "\U0001fae8", "e", "\u0915", "\u0645", "1"]
texts = st.text(st.one_of(st.characters(exclude_categories=[]), st.sampled_from(SPECIAL)),
                max_size=40)


def category(ch: str) -> str:
    """The Unicode category, the emoji blocks' unassigned code points taken as symbols."""
    found = unicodedata.category(ch)
    return "So" if found == "Cn" and 0x1F000 <= ord(ch) < 0x1FB00 else found


def clean(value: str, multiline: bool = False, longest: int = 1000) -> str:
    return clean_text(value, longest=longest, what="the text", multiline=multiline)


@given(texts, st.booleans(), st.integers(1, 60))
def test_any_text_is_kept_under_the_policy_or_refused_in_one_sentence(
        value: str, multiline: bool, longest: int) -> None:
    try:
        kept = clean(value, multiline, longest)
    except TextError as e:
        assert str(e).startswith("the text ") and "\n" not in str(e)
        return
    assert 0 < len(kept) <= longest
    assert kept == unicodedata.normalize("NFC", kept) == clean(kept, multiline, longest)
    assert any(category(ch)[0] in "LNPS" and ch not in "\u3164\u2800" for ch in kept)
    allowed = {ZWJ, ZWNJ, "\n"} if multiline else {ZWJ, ZWNJ}
    assert all(category(ch)[0] != "C" or ch in allowed for ch in FLAG.sub("", kept)), kept
    for line in kept.split("\n"):
        assert line and line == line.strip() and "  " not in line
        assert not set(line) & {"\t", "\r", "\u2028", "\u3164", "\u2800", "\u115f"}
    marks = 0
    for ch in kept:
        if category(ch)[0] == "M":
            marks += 1
            assert marks <= MOST_MARKS
        elif ch not in (ZWJ, ZWNJ):
            marks = 0


words = st.text(st.characters(categories=["L", "N", "P", "S"],
                              exclude_characters="\u115f\u1160\u3164\uffa0\u2800"),
                min_size=1, max_size=12)


@given(st.lists(words, min_size=1, max_size=6))
def test_words_of_letters_digits_punctuation_and_symbols_are_kept_as_typed(
        typed: list[str]) -> None:
    value = " ".join(typed)
    assert clean(value) == unicodedata.normalize("NFC", value)


@pytest.mark.parametrize("word", [
    "José", "Zoë", "Nguyễn", "Nguye\u0302\u0303n", "हिन्दी", "日本語", "Ελληνικά", "Ольга",
    "محمد", "שָׁלוֹם", "בְּרֵאשִׁ֖ית", "བསྒྲུབས", "ภาษาไทย", "한국어", PERSIAN,
    "क्\u200dष", "👋🏽", "👨\u200d👩\u200d👧", "👩🏽\u200d💻", "🏳️\u200d🌈", "🏴\u200d☠️", "❤️",
    "1️⃣", SCOTLAND, "\U0001fae8", "<b>Gran</b> & co",
])
def test_real_words_and_emoji_are_kept(word: str) -> None:
    assert clean(word) == unicodedata.normalize("NFC", word)
    assert unicodedata.normalize("NFC", "Nguye\u0302\u0303n") == "Nguyễn"


@pytest.mark.parametrize(("value", "words"), [
    ("Gran\u202eyas", "change the direction of text (U+202E)"),
    ("\u2066Gran", "change the direction of text (U+2066)"),
    ("Gran\x1b[2J", "control characters (U+001B)"),
    ("Gran\x00", "control characters (U+0000)"),
    ("Gran\x7f", "control characters (U+007F)"),
    ("Gran\U000e0069\U000e0067\U000e006e", "invisible tag characters (U+E0069)"),
    ("\U0001f3f4\U000e0041\U000e007f", "invisible tag characters (U+E0041)"),
    ("Gran\ud800", "unpaired surrogates (U+D800)"),
    ("Gran\ue000", "private-use characters (U+E000)"),
    ("Gran\u0378", "unassigned characters (U+0378)"),
    ("Gran\ufff9", "invisible formatting characters (U+FFF9)"),
    ("\u200b" * 200, "needs a visible character"),
    ("\U000e0067\U000e0072\U000e0061\U000e006e", "invisible tag characters"),
    ("\ufeff", "needs a visible character"),
    ("\u3164", "needs a visible character"),
    ("\u115f\u1160\uffa0", "needs a visible character"),
    ("\u2800\u2800", "needs a visible character"),
    (ZWJ, "needs a visible character"),
    ("\u0301\u0301", "needs a visible character"),
    ("\ufe0f", "needs a visible character"),
    ("", "is empty"), (" \n\t", "is empty"),
    ("e" + "\u0301" * 199, f"more than {MOST_MARKS} marks"),
    ("x" + "\u0301\u200b" * 5, f"more than {MOST_MARKS} marks"),
])
def test_attacks_are_refused_naming_the_text(value: str, words: str) -> None:
    with pytest.raises(TextError) as refused:
        clean(value, multiline=True)
    assert str(refused.value).startswith("the text ") and words in str(refused.value)


@pytest.mark.parametrize(("value", "one_line", "lines"), [
    ("a\u200bb\u2060c\ufeff", "abc", "abc"),
    ("\u00adsoft\u00adhyphen", "softhyphen", "softhyphen"),
    ("\u200fRLM mark\u200e", "RLM mark", "RLM mark"),
    ("  Gran \t and\u00a0\u3000Pop  ", "Gran and Pop", "Gran and Pop"),
    ("Gran\u3164Pop\u2800!", "Gran Pop !", "Gran Pop !"),
    ("first line \r\n\r\n\n  second\u2028third", "first line second third",
     "first line\nsecond\nthird"),
    ("a\u200db \u200c1 \U0001f468\u200d", "ab 1 \U0001f468", "ab 1 \U0001f468"),
    ("\U0001f468\u200d\u200d\U0001f469", "\U0001f468\u200d\U0001f469",
     "\U0001f468\u200d\U0001f469"),
    ("e\u200b\u0301", "\u00e9", "\u00e9"),
])
def test_invisible_characters_go_and_white_space_collapses(value: str, one_line: str,
                                                             lines: str) -> None:
    assert clean(value) == one_line and clean(value, multiline=True) == lines


def test_the_length_is_counted_once_cleaned() -> None:
    assert clean("  " + "x" * 10 + "\u200b" * 50 + "  ", longest=10) == "x" * 10
    with pytest.raises(TextTooLong, match="the text is at most 10 characters, not 11"):
        clean("x" * 11, longest=10)
    # a character NFC spells as two (DEVANAGARI LETTER QA) counts twice
    with pytest.raises(TextTooLong, match="not 20"):
        clean("\u0958" * 10, longest=10)
    assert clean("e\u0301" * 10, longest=10) == "\u00e9" * 10
