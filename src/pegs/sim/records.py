"""Game records of simulations and ladders (``--records FILE``).

Each game played appends one line to the records file: the game's record in the format
of :mod:`pegs.record` (``pegs replay`` verifies one line saved as a file), with the bots
of its seats as ``names`` (their spec texts) and ``game``, ``bot_options``,
``max_actions`` (and ``pair`` in a ladder), so that ``pegs ladder --verify`` can play the
game again with the same bots (:mod:`pegs.sim.verify`).  Games already in a results file
when a run resumes are not played again, so they get no new record; a game interrupted
after its record was written is recorded again, identically, when it is played again.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Generator
from pathlib import Path
from typing import Any

from ..jsonfile import JsonError, parse_json

Lines = Generator[dict[str, Any], None, None]


def keep_records(stream: Lines, records: Path | None) -> Lines:
    """The results of ``stream`` without their ``record``, which is appended to
    ``records`` (flushed, one JSON line per game) when given."""
    with contextlib.ExitStack() as stack:
        stack.callback(stream.close)
        f = stack.enter_context(records.open("a", encoding="utf-8")) if records else None
        for result in stream:
            game_record = result.pop("record", None)
            if f is not None and game_record is not None:
                f.write(json.dumps(game_record) + "\n")
                f.flush()
            yield result


def read_records(path: Path) -> list[dict[str, Any]]:
    """The records of a records file, the last of each ``(pair, game, seed)`` kept, in
    file order (ValueError for a file that is not UTF-8 text or a line that is not JSON;
    a byte-order mark is skipped)."""
    kept: dict[tuple[Any, ...], dict[str, Any]] = {}
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not a text file (UTF-8): not a records file") from None
    for number, raw in enumerate(text.split("\n"), 1):
        if not raw.strip():
            continue
        try:
            line = parse_json(raw, f"{path} line {number}")
        except JsonError as e:
            raise ValueError(str(e)) from None
        if not isinstance(line, dict):
            raise ValueError(f"{path} line {number} is not a game record")
        key = (json.dumps(line.get("pair")), line.get("game"), line.get("seed"),
               json.dumps(line.get("names")))
        kept.pop(key, None)
        kept[key] = line
    return list(kept.values())
