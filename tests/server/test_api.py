"""The HTTP API: create (validated), list, join, bots, start, leave, stand-in bots,
records, and the error format."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.exceptions import ConnectionClosed

from pegs.server import create_app
from pegs.server.limits import Limits

from .helpers import SHORT, Client, LiveServer, auth, new_table, run, start


def error_of(response: httpx.Response) -> tuple[int, str, str]:
    """(status, code, message) of an error answer, checking its shape."""
    body = response.json()
    assert set(body) == {"error"}, body
    return response.status_code, body["error"]["code"], body["error"]["message"]


def test_create_answers_code_seat_token_and_table(client: TestClient) -> None:
    r = client.post("/api/tables", json={"preset": "basic", "name": "  Ann  ", "players": 6,
                                         "teams": 3, "settings": {"holes_per_side": 20},
                                         "hints": False})
    assert r.status_code == 201
    body = r.json()
    assert body["seat"] == 0 and len(body["token"]) >= 32
    assert re.fullmatch(r"[A-Za-z0-9_-]{10,}", body["code"])
    table = body["table"]
    assert table["status"] == "waiting" and table["host"] == 0 and table["hints"] is False
    assert table["settings"]["holes_per_side"] == 20 and table["settings"]["teams"] == 3
    assert [s["kind"] for s in table["seats"]] == ["human"] + ["empty"] * 5
    assert table["seats"][0]["name"] == "Ann"
    assert client.get(f"/api/tables/{body['code']}").json() == table


@pytest.mark.parametrize(("body", "status", "code", "words"), [
    ({"preset": "nope", "name": "A"}, 400, "bad_settings", "unknown preset"),
    ({"preset": "pegoo", "name": "A", "players": 11}, 400, "bad_settings", "players"),
    ({"preset": "pegoo", "name": "A", "players": 6, "teams": 4}, 400, "bad_settings",
     "allowed values: 0, 2, 3"),
    ({"preset": "pegoo", "name": "A", "settings": {"pegs": 9}}, 400, "bad_settings",
     "pegs must be a whole number from 3 to 6"),
    ({"preset": "pegoo", "name": "A", "settings": {"colour": "red"}}, 400, "bad_settings",
     "unknown setting 'colour'"),
    ({"preset": "pegoo", "name": "A", "settings": {"powers": []}}, 400, "bad_settings",
     "powers must map card ranks to lists of powers"),
    ({"preset": "pegoo", "name": "A", "settings": {"name": "basic"}}, 400, "bad_settings",
     "'name' is not a setting a table may change"),
    ({"preset": "pegoo", "name": "A", "settings": {"turn_order": "sideways"}}, 400,
     "bad_settings", "turn_order must be one of"),
    ({"preset": "pegoo", "name": ""}, 422, "invalid", "name"),
    ({"preset": "pegoo", "name": "\x07"}, 422, "invalid", "control characters"),
    ({"preset": "pegoo", "name": "Ann\x00"}, 422, "invalid", "control characters (U+0000)"),
    ({"preset": "pegoo", "name": "Ann\u202e"}, 422, "invalid", "direction of text"),
    ({"preset": "pegoo", "name": "\u3164"}, 422, "invalid", "a name needs a visible character"),
    ({"preset": "pegoo", "name": "A", "house": {"title": "\u200b\u2800"}}, 422, "invalid",
     "the house rules' title needs a visible character"),
    ({"preset": "pegoo", "name": "A", "house": {"title": "A", "description": "\x1b[2J"}}, 422,
     "invalid", "the house rules' description may not hold control characters"),
    ({"preset": "pegoo"}, 422, "invalid", "name: Field required"),
    ({"preset": "pegoo", "name": "A", "colour": 1}, 422, "invalid", "colour"),
])
def test_bad_tables_are_refused_clearly(client: TestClient, body: dict[str, object],
                                        status: int, code: str, words: str) -> None:
    got = error_of(client.post("/api/tables", json=body))
    assert got[:2] == (status, code) and words in got[2], got
    assert client.get("/api/tables").json()["total"] == 0


RANKS_16000 = ["7"] * 16000


@pytest.mark.parametrize(("settings", "words"), [
    ({"split_finish_with_partner": RANKS_16000}, "at most 14 card ranks"),
    ({"split_finish_with_partner": ["7", "7"]}, "split_finish_with_partner lists '7' twice"),
    ({"split_finish_with_partner": [[]]}, 'split_finish_with_partner must list card ranks'),
    ({"split_finish_with_partner": "79"}, "split_finish_with_partner must be a list"),
    ({"split_finish_with_partner": ["8"]}, "some of the ranks 7 and 9"),
    ({"pegs": "4"}, "pegs must be a whole number"), ({"pegs": 4.0}, "pegs must be a whole"),
    ({"pegs": True}, "pegs must be a whole number"), ({"decks": 10**30}, "decks is out of range"),
    ({"bluffing": 1}, "bluffing must be true or false"),
    ({"turn_order": ["x"]}, "turn_order must be one of the words"),
    ({"turn_order": "x" * 5000}, "turn_order must be one of the words"),
    ({"k" * 5000: 1}, "unknown setting 'kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk...'"),
    ({"teams": {}}, "teams must be a whole number"),
])
def test_every_setting_is_checked_with_a_plain_message_naming_it(
        client: TestClient, settings: dict[str, object], words: str,
        caplog: pytest.LogCaptureFixture) -> None:
    r = client.post("/api/tables", json={**SHORT, "name": "A", "settings": settings})
    status, code, message = error_of(r)
    assert (status, code) == (400, "bad_settings") and words in message, message
    assert len(message) < 400 and "unhashable" not in message
    assert not [rec for rec in caplog.records if rec.exc_info]


@pytest.mark.parametrize("body", [b"[" * 2000, b"[" * 200_000, b"{\"a\": " * 2000,
                                  b'{"preset": "pegoo", "name": "A", "settings": {"pegs": '
                                  + b"[" * 5000 + b"]" * 5000 + b"}}"])
def test_deeply_nested_json_is_malformed_without_a_traceback(
        tmp_path: Path, body: bytes, caplog: pytest.LogCaptureFixture) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'pegs.db'}", limits=Limits(max_body_bytes=1 << 20))
    with TestClient(app) as c:
        r = c.post("/api/tables", content=body, headers={"content-type": "application/json"})
        assert error_of(r) == (400, "malformed", "the body is JSON nested too deeply")
        r = c.post("/api/tables", content=b'{"players": ' + b"9" * 5000 + b"}",
                   headers={"content-type": "application/json"})
        assert error_of(r)[:2] == (400, "malformed")
    assert not [rec for rec in caplog.records if rec.exc_info or rec.levelname == "ERROR"]


def test_bad_json_and_unknown_paths_answer_json_errors(client: TestClient) -> None:
    r = client.post("/api/tables", content=b"{bad", headers={"content-type": "application/json"})
    assert error_of(r) == (422, "invalid", "the body is not valid JSON")
    assert error_of(client.get("/api/tables/nosuchtable"))[:2] == (404, "no_table")
    assert error_of(client.get("/api/nothing-here"))[:2] == (404, "not_found")
    huge = {"preset": "pegoo", "name": "A", "settings": {"x": "y" * 70000}}
    assert error_of(client.post("/api/tables", json=huge))[:2] == (413, "too_large")

    def chunks() -> Iterator[bytes]:  # sent chunked: no Content-Length to go by
        yield b'{"preset": "pegoo", "name": "A", "settings": {"x": "'
        yield from (b"y" * 1000 for _ in range(70))
        yield b'"}}'

    r = client.post("/api/tables", content=chunks(),
                    headers={"content-type": "application/json"})
    assert "content-length" not in r.request.headers
    assert error_of(r)[:2] == (413, "too_large")
    assert client.get("/api/tables").json()["total"] == 0


def test_open_tables_list_only_public_waiting_tables_with_a_free_seat(
        client: TestClient) -> None:
    open_code, _ = new_table(client, humans=1, public=True)
    private, _ = new_table(client, humans=1)
    new_table(client, humans=4, public=True)
    started, tokens = new_table(client, humans=2, bots=2, public=True)
    start(client, started, tokens[0])
    body = client.get("/api/tables").json()
    assert [t["code"] for t in body["tables"]] == [open_code] and body["total"] == 1
    assert body["tables"][0]["public"] is True
    assert client.get(f"/api/tables/{private}").json()["public"] is False


def test_open_tables_come_a_bounded_page_at_a_time(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'pegs.db'}",
                     limits=Limits(creates_per_minute=0, max_waiting_per_address=0))
    with TestClient(app) as c:
        made = [new_table(c, humans=1, public=True)[0] for _ in range(7)]
        newest_first = made[::-1]
        pages = [c.get("/api/tables", params={"limit": 3, "offset": o}).json()
                 for o in (0, 3, 6, 9)]
        assert [[t["code"] for t in p["tables"]] for p in pages] == [
            newest_first[:3], newest_first[3:6], newest_first[6:], []]
        assert {(p["total"], p["limit"]) for p in pages} == {(7, 3)}
        assert len(c.get("/api/tables").json()["tables"]) == 7
        for params in ({"limit": 51}, {"limit": 0}, {"offset": -1}, {"limit": "many"}):
            assert error_of(c.get("/api/tables", params=params))[:2] == (422, "invalid")


def test_table_options_are_stored_bounded_and_shown(client: TestClient) -> None:
    code, _ = new_table(client, humans=1)
    table = client.get(f"/api/tables/{code}").json()
    assert (table["public"], table["turn_seconds"], table["away_seconds"],
            table["bot_delay"]) == (False, 120, 120, None)
    options = {"public": True, "turn_seconds": None, "away_seconds": 30, "bot_delay": 0}
    r = client.post("/api/tables", json={**SHORT, "name": "Bo", **options})
    assert r.status_code == 201
    assert {k: r.json()["table"][k] for k in options} == options
    hub = client.app.state.hub  # type: ignore[attr-defined]
    [row] = hub.store.load(None, r.json()["code"])
    assert (row.public, row.turn_seconds, row.away_seconds, row.bot_delay) == (
        True, None, 30, 0)
    # under the server's shortest clock (10 s unless pegs serve --shortest-clock says less)
    got = error_of(client.post("/api/tables", json={**SHORT, "name": "Cy", "away_seconds": 5}))
    assert got[:2] == (400, "bad_settings") and "away_seconds: at least 10 seconds" in got[2]
    for bad, words in [({"turn_seconds": 0.5}, "turn_seconds"), ({"turn_seconds": 4000}, "turn"),
                       ({"away_seconds": "60"}, "away_seconds"), ({"bot_delay": 6}, "bot_delay"),
                       ({"bot_delay": -1}, "bot_delay"), ({"public": "yes"}, "public"),
                       ({"public": 1}, "public"), ({"hints": "no"}, "hints")]:
        got = error_of(client.post("/api/tables", json={**SHORT, "name": "Cy", **bad}))
        assert got[:2] == (422, "invalid") and words in got[2], got


def test_host_removes_anyone_from_a_seat_before_the_start(live: LiveServer) -> None:
    http = live.http
    code, tokens = new_table(http, humans=3)
    http.post(f"/api/tables/{code}/bots", json={}, headers=auth(tokens[0]))
    seat1 = auth(tokens[1])
    for seat, headers, expected in [(1, {}, (401, "bad_token")), (2, seat1, (403, "not_host")),
                                    (0, auth(tokens[0]), (409, "host_cannot_leave")),
                                    (4, auth(tokens[0]), (400, "bad_seat"))]:
        assert error_of(http.post(f"/api/tables/{code}/seats/{seat}/remove",
                                  headers=headers))[:2] == expected

    async def removed() -> None:
        watcher = await Client.open(live.ws, code, tokens[1])
        await watcher.until("state")
        r = http.post(f"/api/tables/{code}/seats/1/remove", headers=auth(tokens[0]))
        assert r.status_code == 200 and r.json()["seats"][1]["kind"] == "empty"
        with pytest.raises(ConnectionClosed):  # told and disconnected
            await asyncio.wait_for(watcher.until("nothing"), 10)

    run(removed())
    r = http.post(f"/api/tables/{code}/seats/3/remove", headers=auth(tokens[0]))
    assert [s["kind"] for s in r.json()["seats"]] == ["human", "empty", "human", "empty"]
    assert error_of(http.post(f"/api/tables/{code}/seats/3/remove", headers=auth(tokens[0]))
                    )[:2] == (409, "seat_empty")
    assert error_of(http.post(f"/api/tables/{code}/leave", headers=seat1))[:2] == (
        401, "bad_token")  # the removed token holds no seat
    http.post(f"/api/tables/{code}/bots", json={}, headers=auth(tokens[0]))
    start(http, code, tokens[0])
    assert error_of(http.post(f"/api/tables/{code}/seats/2/remove", headers=auth(tokens[0]))
                    )[:2] == (409, "started")


def test_join_takes_free_seats_and_refuses_clearly(client: TestClient) -> None:
    code, _ = new_table(client, humans=1)
    r = client.post(f"/api/tables/{code}/join", json={"name": "Cy", "seat": 2})
    assert r.status_code == 200 and r.json()["seat"] == 2
    assert client.post(f"/api/tables/{code}/join", json={"name": "Di"}).json()["seat"] == 1
    assert error_of(client.post(f"/api/tables/{code}/join", json={"name": "E", "seat": 2})
                    )[:2] == (409, "seat_taken")
    assert error_of(client.post(f"/api/tables/{code}/join", json={"name": "E", "seat": 7})
                    )[:2] == (400, "bad_seat")
    assert client.post(f"/api/tables/{code}/join", json={"name": "Ed"}).json()["seat"] == 3
    assert error_of(client.post(f"/api/tables/{code}/join", json={"name": "Fi"})) == (
        409, "full", "every seat is taken")
    seats = client.get(f"/api/tables/{code}").json()["seats"]
    assert [s["name"] for s in seats] == ["Ann", "Di", "Cy", "Ed"]


def test_names_follow_the_text_policy(client: TestClient) -> None:
    """Names typed by people are cleaned by :func:`pegs.text.clean_text` (issue 47)."""
    code, _ = new_table(client, humans=1)
    for name, words in (("\u3164", "a name needs a visible character"),
                        ("\u115f\u1160\u2800", "a name needs a visible character"),
                        ("\u200b" * 30, "a name needs a visible character"),
                        ("Bob\u202e", "direction of text (U+202E)"),
                        ("Bob\U000e0041", "tag characters"),
                        ("Bob\x1b[31m", "control characters (U+001B)"),
                        ("B" + "\u0301" * 30, "marks on one character")):
        got = error_of(client.post(f"/api/tables/{code}/join", json={"name": name}))
        assert got[:2] == (422, "invalid") and words in got[2], (name, got)
    name = " Zo\u00eb\u200b  Nguye\u0302\u0303n \U0001f469\U0001f3fd\u200d\U0001f4bb "
    assert client.post(f"/api/tables/{code}/join", json={"name": name}).status_code == 200
    seats = client.get(f"/api/tables/{code}").json()["seats"]
    assert seats[1]["name"] == "Zo\u00eb Nguy\u1ec5n \U0001f469\U0001f3fd\u200d\U0001f4bb"


def test_only_the_host_fills_bots_and_starts(client: TestClient) -> None:
    code, tokens = new_table(client, humans=2)
    for headers, expected in [({}, (401, "bad_token")),
                              (auth("not-a-token"), (401, "bad_token")),
                              (auth(tokens[1]), (403, "not_host"))]:
        assert error_of(client.post(f"/api/tables/{code}/bots", json={}, headers=headers)
                        )[:2] == expected
        assert error_of(client.post(f"/api/tables/{code}/start", headers=headers)
                        )[:2] == expected
    assert error_of(client.post(f"/api/tables/{code}/start", headers=auth(tokens[0]))) == (
        409, "seats_empty", "seats 2, 3 are empty: fill them with bots or wait for players")
    assert error_of(client.post(f"/api/tables/{code}/bots", json={"seats": [1]},
                                headers=auth(tokens[0])))[:2] == (409, "seat_taken")
    assert error_of(client.post(f"/api/tables/{code}/bots", json={"bot": "genius"},
                                headers=auth(tokens[0])))[:2] == (422, "invalid")
    r = client.post(f"/api/tables/{code}/bots", json={"bot": "ismcts", "strength": "easy",
                                                       "seats": [3]}, headers=auth(tokens[0]))
    assert r.status_code == 200
    r = client.post(f"/api/tables/{code}/bots", json={"bot": "random"}, headers=auth(tokens[0]))
    seats = r.json()["seats"]
    assert [(s["kind"], s["bot"]) for s in seats] == [
        ("human", None), ("human", None), ("bot", "random"), ("bot", "ismcts")]
    assert [s["name"] for s in seats[2:]] == ["Yellow bot, beginner", "Green bot, expert, quick"]
    start(client, code, tokens[0])
    table = client.get(f"/api/tables/{code}").json()
    assert table["status"] == "playing" and table["version"] == 0
    assert error_of(client.post(f"/api/tables/{code}/start", headers=auth(tokens[0])))[:2] == (
        409, "started")
    assert error_of(client.post(f"/api/tables/{code}/join", json={"name": "Late"}))[:2] == (
        409, "started")


def test_leave_frees_a_seat_before_the_start_only(client: TestClient) -> None:
    code, tokens = new_table(client, humans=3)
    assert error_of(client.post(f"/api/tables/{code}/leave", headers=auth(tokens[0])))[:2] == (
        409, "host_cannot_leave")
    r = client.post(f"/api/tables/{code}/leave", headers=auth(tokens[1]))
    assert r.status_code == 200 and r.json()["seats"][1]["kind"] == "empty"
    assert error_of(client.post(f"/api/tables/{code}/leave", headers=auth(tokens[1])))[:2] == (
        401, "bad_token")
    client.post(f"/api/tables/{code}/bots", json={}, headers=auth(tokens[0]))
    start(client, code, tokens[0])
    assert error_of(client.post(f"/api/tables/{code}/leave", headers=auth(tokens[2])))[:2] == (
        409, "started")


def test_presets_list_defaults_allowed_values_and_cue_cards(client: TestClient) -> None:
    body = client.get("/api/presets").json()
    names = [p["name"] for p in body["presets"]]
    assert "pegoo" in names and "bluffing-joker" in names
    pegoo = body["presets"][names.index("pegoo")]
    assert pegoo["defaults"]["holes_per_side"] == 20 and "Cards" in pegoo["cue"]
    assert pegoo["players"] == list(range(2, 11))
    assert body["allowed"]["turn_order"] == ["draw_then_play", "play_then_draw"]


def test_openapi_documents_every_route(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in ["/api/presets", "/api/tables", "/api/tables/{code}",
                 "/api/tables/{code}/join", "/api/tables/{code}/bots",
                 "/api/tables/{code}/start", "/api/tables/{code}/leave",
                 "/api/tables/{code}/seats/{seat}/remove",
                 "/api/tables/{code}/seats/{seat}/bot",
                 "/api/tables/{code}/seats/{seat}/reclaim", "/api/tables/{code}/record"]:
        assert path in paths
    assert client.get("/docs").status_code == 200


def test_the_page_is_served_at_the_root_and_at_share_links(tmp_path: Path) -> None:
    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>pegs</title>")
    (static / "app.js").write_text("export {};")
    app = create_app(f"sqlite:///{tmp_path / 'pegs.db'}", static_dir=static)
    with TestClient(app) as c:
        for path in ("/", "/t/AbCdEf123456"):
            r = c.get(path)
            assert r.status_code == 200 and "<title>pegs</title>" in r.text
        r = c.get("/app.js")
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
        assert c.get("/api/tables").json()["total"] == 0
