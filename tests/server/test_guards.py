"""Guards: unguessable codes and tokens, hashed tokens compared in constant time."""

from __future__ import annotations

import hmac
import re

import pytest
from fastapi.testclient import TestClient

from pegs.server import limits
from pegs.server.limits import new_code, new_token, token_hash, token_matches

from .helpers import new_table


def test_codes_and_tokens_are_long_random_and_url_safe() -> None:
    codes = {new_code() for _ in range(500)}
    tokens = {new_token() for _ in range(500)}
    assert len(codes) == 500 and len(tokens) == 500
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{12}", c) for c in codes)
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{43}", t) for t in tokens)


def test_tokens_are_stored_hashed_and_compared_in_constant_time(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    code, tokens = new_table(client, humans=3)
    room = client.app.state.hub.rooms[code]  # type: ignore[attr-defined]
    assert all(s.token_hash != t for s, t in zip(room.seats, tokens, strict=False))
    assert room.seats[1].token_hash == token_hash(tokens[1])
    calls: list[tuple[str, str]] = []
    real = hmac.compare_digest

    def spy(a: str, b: str) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(limits.hmac, "compare_digest", spy)
    assert room.seat_of(tokens[1]) == 1
    assert len(calls) == 4  # every seat is compared, found or not (the empty one too)
    assert room.seat_of("guess") is None and len(calls) == 8
    assert not token_matches(tokens[0], None)
