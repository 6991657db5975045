"""Reading JSON the user hands us: one error with a plain message for every way it fails.

A file that cannot be read, is not UTF-8, is not JSON, or nests too deeply for the parser
(``[`` repeated 200,000 times) raises :class:`JsonError`; callers turn it into their own
error type, so a bad file is always one line, never a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


class JsonError(ValueError):
    """JSON that cannot be read or parsed, saying why in plain words."""


def parse_json(text: str, where: str, what: str = "JSON") -> Any:
    """``text`` parsed; ``where`` names it in the message (a file, or a file and line) and
    ``what`` says what it should be (``a JSON game record``)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise JsonError(f"{where} is not {what} ({e.msg}: line {e.lineno} column "
                        f"{e.colno})") from e
    except RecursionError:
        raise JsonError(f"{where} nests lists or objects too deeply to be read") from None


def read_json(path: str | Path, what: str = "JSON") -> Any:
    """The JSON data of the file at ``path`` (``what`` as for :func:`parse_json`); a
    byte-order mark at its start (as Notepad saves UTF-8) is skipped."""
    if not str(path).strip():
        raise JsonError(f"the file name is empty: name the file of {what}")
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except OSError as e:
        raise JsonError(f"cannot read {path}: {e.strerror or e}") from e
    except UnicodeDecodeError as e:
        raise JsonError(f"{path} is not a text file (UTF-8): {e.reason}") from e
    return parse_json(text, str(path), what)
