"""The one text policy for everything a person types: names, chat, house rules' titles and
descriptions.  :func:`clean_text` answers the text to keep or raises :class:`TextError`.

The policy, in order:

- The text is put in Unicode normal form NFC (a letter and its accent typed apart become
  the one character most keyboards give).
- Refused, because they change how the text or the page around it reads, or break storage,
  and nobody types them on purpose: control characters (NUL, ESC, DEL, ...; but not white
  space), direction overrides, embeddings and isolates (U+202A-U+202E, U+2066-U+2069; one
  override reverses the page's own words after it), tag characters except in a flag's tag
  sequence (England, Scotland, Wales: they can also hide text), other formatting characters,
  unpaired surrogates, private-use and unassigned code points.  Refusing says what was
  wrong; removing them would silently store other text than was sent.
- Removed, because copy and paste brings them and the text reads the same without them:
  zero-width space, word joiner, byte-order mark, soft hyphen, the invisible operators,
  the Mongolian vowel separator and the direction marks (LRM, RLM, ALM).  The zero-width
  joiner stays after a virama (Indic half forms) and between emoji (a family, a profession
  with a skin tone); the zero-width non-joiner after a virama or between letters (Persian
  writes it).  Elsewhere they are removed too.
- Characters that show as a blank without being white space (the Hangul fillers, the
  braille blank) count as a space.
- White space is collapsed: runs become one space, none at either end; a ``multiline`` text
  keeps single line breaks (blank lines and spaces around breaks go).
- Marks are bounded: at most :data:`MOST_MARKS` in a row on one character.  Four holds
  pointed Hebrew with cantillation, Tibetan stacks, Vietnamese typed apart and emoji
  keycaps; it refuses the "zalgo" text whose marks pile up over the lines around it.
- The text needs a visible character (a letter, digit, punctuation or symbol).
- Its length, in code points after all this, is at most ``longest``.

Code points not yet assigned in the emoji blocks (U+1F000-U+1FAFF) count as symbols: phones
offer emoji newer than this Python's Unicode data.
"""

from __future__ import annotations

import re
import unicodedata

#: At most this many combining marks in a row (on one character).
MOST_MARKS = 4

_ZWJ, _ZWNJ = "\u200d", "\u200c"
#: Invisible characters removed wherever they are.
_REMOVED = frozenset("\u00ad\u061c\u180e\u200b\u200e\u200f\u2060\u2061\u2062\u2063\u2064"
                     "\ufeff")
#: Characters that make text read in another direction than it is written.
_DIRECTION = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: Letters and symbols that show as a blank.
_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: A subdivision flag: the black flag, a tag letter or digit or more, the cancel tag.
_FLAG = re.compile("\U0001f3f4[\U000e0030-\U000e0039\U000e0061-\U000e007a]{1,6}\U000e007f")
_TAGS = range(0xE0000, 0xE0080)
#: What may stand between an emoji and a zero-width joiner: skin tones, emoji presentation.
_EMOJI_TAIL = frozenset("\U0001f3fb\U0001f3fc\U0001f3fd\U0001f3fe\U0001f3ff\ufe0f")
_FUTURE_EMOJI = range(0x1F000, 0x1FB00)


class TextError(ValueError):
    """Text that the policy refuses, in one sentence naming it."""


class TextTooLong(TextError):
    """Text over its length once cleaned."""


def _category(ch: str) -> str:
    category = unicodedata.category(ch)
    return "So" if category == "Cn" and ord(ch) in _FUTURE_EMOJI else category


def _ahead(text: str, i: int) -> str:
    """The category of the first character from ``i`` that is kept as it is ("Zs" for a
    blank, "" at the end)."""
    while i < len(text) and text[i] in _REMOVED:
        i += 1
    if i == len(text):
        return ""
    return "Zs" if text[i] in _BLANKS else _category(text[i])


def _joins(ch: str, kept: list[str], text: str, i: int) -> bool:
    """Whether a zero-width (non-)joiner at ``text[i]`` joins what it stands between."""
    if not kept:
        return False
    if unicodedata.combining(kept[-1]) == 9:  # a virama
        return True
    after = _ahead(text, i + 1)
    if ch == _ZWNJ:
        return _category(kept[-1])[0] in "LM" and after[:1] == "L"
    before = len(kept) - 1
    while before > 0 and kept[before] in _EMOJI_TAIL:
        before -= 1
    return _category(kept[before]) == "So" and after == "So"


def _refusal(ch: str, category: str) -> str:
    if category == "Cc":
        return "control characters"
    if ch in _DIRECTION:
        return "characters that change the direction of text"
    if ord(ch) in _TAGS:
        return "invisible tag characters"
    return {"Cs": "unpaired surrogates", "Co": "private-use characters",
            "Cn": "unassigned characters"}.get(category, "invisible formatting characters")


def _filtered(text: str, what: str) -> str:
    kept: list[str] = []
    marks, i = 0, 0
    while i < len(text):
        ch = text[i]
        category = _category(ch)
        flag = _FLAG.match(text, i) if ch == "\U0001f3f4" else None
        if flag:
            kept.extend(flag.group())
            marks, i = 0, flag.end()
            continue
        if ch in (_ZWJ, _ZWNJ):
            if _joins(ch, kept, text, i):
                kept.append(ch)
        elif ch in _BLANKS:
            kept.append(" ")
            marks = 0
        elif category[0] == "C" and not ch.isspace() and ch not in _REMOVED:
            raise TextError(f"{what} may not hold {_refusal(ch, category)} "
                            f"(U+{ord(ch):04X})")
        elif category[0] == "M":
            marks += 1
            if marks > MOST_MARKS:
                raise TextError(f"{what} may not pile more than {MOST_MARKS} marks on one "
                                "character")
            kept.append(ch)
        elif ch not in _REMOVED:
            kept.append(ch)
            marks = 0
        i += 1
    return "".join(kept)


def clean_text(value: str, *, longest: int, what: str, multiline: bool = False) -> str:
    """``value`` under the module's policy, or :class:`TextError` (:class:`TextTooLong` for
    the length) in one sentence naming ``what`` ("the chat's text")."""
    text = unicodedata.normalize("NFC", _filtered(unicodedata.normalize("NFC", value), what))
    if multiline:
        lines = (" ".join(line.split()) for line in text.splitlines())
        text = "\n".join(line for line in lines if line)
    else:
        text = " ".join(text.split())
    if not any(_category(ch)[0] in "LNPS" for ch in text):
        raise TextError(f"{what} needs a visible character" if value.strip() else
                        f"{what} is empty")
    if len(text) > longest:
        raise TextTooLong(f"{what} is at most {longest} characters, not {len(text)}")
    return text
