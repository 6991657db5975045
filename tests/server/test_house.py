"""House rules online (issue 42): saved and shared by a code, listed when published (a
page at a time, rate limited per address), their cue card written live, bad card powers
refused in one plain line, and a table of house powers that plays and replays."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from pegs.cli import main
from pegs.house import load
from pegs.record import from_json
from pegs.rules import RANKS, Rules
from pegs.server import table_settings

from .helpers import Player, auth, free_port, new_table, run, serve, serving, start

GRANDMA: dict[str, Any] = {
    "title": "Grandma's rules", "description": "Fours go back, twenty holes a side.",
    "base": "basic", "settings": {"holes_per_side": 20, "split_finish_with_partner": ["7"]},
    "cards": {"4": ["-4"], "9": ["+9", "split9"]},
}


@contextmanager
def served(database_url: str, folder: Path, *options: str) -> Iterator[httpx.Client]:
    port = free_port()
    with (serve(database_url, folder / "data", port, *options),
          httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=20) as http):
        yield http


def test_saved_house_rules_are_shared_by_code_and_listed_once_published(
        database_url: str, tmp_path: Path) -> None:
    with served(database_url, tmp_path) as http:
        r = http.post("/api/house", json={**GRANDMA, "publish": True})
        assert r.status_code == 201, r.text
        saved = r.json()
        code = saved["code"]
        assert saved["link"] == f"/?house={code}" and saved["published"] is True
        private = http.post("/api/house", json={**GRANDMA, "title": "Just us"}).json()

        got = http.get(f"/api/house/{code}").json()
        assert {k: got[k] for k in GRANDMA} == GRANDMA
        assert "\n  4*     move a peg back 4\n" in got["cue"] and got["cue"].startswith(
            "Grandma's rules\nFours go back")
        # the download is a house-rules file that reads back as the same rules
        (tmp_path / "grandma.toml").write_text(got["toml"])
        house = load(tmp_path / "grandma.toml")
        assert house.mapping() == GRANDMA
        assert http.get(f"/api/house/{private['code']}").json()["title"] == "Just us"

        listed = http.get("/api/house").json()
        assert [h["code"] for h in listed["houses"]] == [code] and listed["total"] == 1
        assert listed["houses"][0]["title"] == "Grandma's rules"
        for missing in ("nope", "x" * 5000):
            r = http.get(f"/api/house/{missing}")
            assert r.status_code == 404 and r.json()["error"]["code"] == "no_house"


def test_only_the_author_changes_or_deletes_saved_house_rules(
        database_url: str, tmp_path: Path) -> None:
    with served(database_url, tmp_path, "--rate", "house=0") as http:
        saved = http.post("/api/house", json={**GRANDMA, "publish": True}).json()
        code, owner = saved["code"], saved["owner_token"]
        assert len(owner) >= 40 and "owner_token" not in http.get(f"/api/house/{code}").json()
        other = http.post("/api/house", json={**GRANDMA, "title": "Other"}).json()
        changed = {**GRANDMA, "title": "Grandma's new rules", "cards": {"4": ["-4", "+4"]}}
        for token in (None, other["owner_token"], "x" * 43):  # nobody else may
            headers = auth(token) if token else {}
            for r in (http.put(f"/api/house/{code}", json=changed, headers=headers),
                      http.delete(f"/api/house/{code}", headers=headers)):
                assert r.status_code == 403 and r.json()["error"]["code"] == "not_owner"
        assert http.get(f"/api/house/{code}").json()["title"] == "Grandma's rules"
        # the author: the same code and link, the new rules, unpublished when asked
        r = http.put(f"/api/house/{code}", json={**changed, "publish": False},
                     headers=auth(owner))
        assert r.status_code == 200, r.text
        got = http.get(f"/api/house/{code}").json()
        assert {k: got[k] for k in GRANDMA} == {**changed, "settings": GRANDMA["settings"]}
        assert got["published"] is False and got["created"] == saved["created"]
        assert http.get("/api/house").json()["total"] == 0
        bad = http.put(f"/api/house/{code}", json={**changed, "cards": {"4": ["fly"]}},
                       headers=auth(owner))
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_settings"
        r = http.delete(f"/api/house/{code}", headers=auth(owner))
        assert r.status_code == 200 and r.json() == {"deleted": code}
        for r in (http.get(f"/api/house/{code}"),
                  http.put(f"/api/house/{code}", json=changed, headers=auth(owner)),
                  http.delete(f"/api/house/{code}", headers=auth(owner))):
            assert r.status_code == 404 and r.json()["error"]["code"] == "no_house"
            # the one who follows an old link learns why it finds nothing
            assert "may have deleted them" in r.json()["error"]["message"]
        assert http.get(f"/api/house/{other['code']}").json()["title"] == "Other"


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[httpx.Client, str]]:
    """One real ``pegs serve`` for the tests below (no limit on saving)."""
    with serving(tmp_path_factory.mktemp("house"), "--rate", "house=0",
                 "--rate", "fixed=0", "--creates-per-minute", "0") as running:
        yield running


def test_the_published_list_is_paged_newest_first_and_bounded(
        shared: tuple[httpx.Client, str]) -> None:
    http, _ws = shared
    before = http.get("/api/house").json()["total"]
    codes = [http.post("/api/house", json={**GRANDMA, "title": f"Rules {i}",
                                           "publish": True}).json()["code"]
             for i in range(3)]
    first = http.get("/api/house", params={"limit": 2}).json()
    second = http.get("/api/house", params={"limit": 1, "offset": 2}).json()
    assert (first["total"], second["total"]) == (before + 3, before + 3)
    assert [h["code"] for h in first["houses"] + second["houses"]] == codes[::-1]
    for params in ({"limit": 51}, {"limit": 0}, {"offset": -1}):
        assert http.get("/api/house", params=params).status_code == 422


def test_saving_and_reading_are_rate_limited_per_address(tmp_path: Path) -> None:
    with serving(tmp_path, "--rate", "house=2",
                 "--lobby-reads-per-minute", "3") as (http, _ws):
        for _ in range(2):
            assert http.post("/api/house", json=GRANDMA).status_code == 201
        r = http.post("/api/house", json=GRANDMA)
        assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
        assert "changes to saved house rules" in r.json()["error"]["message"]
        # saving house rules is counted apart from creating tables
        assert http.post("/api/tables", json={"preset": "basic", "name": "Ann"}
                         ).status_code == 201
        for _ in range(3):
            assert http.get("/api/house").status_code == 200
        assert http.get("/api/house").status_code == 429


BAD_POWERS = [
    ({"4": ["back4"]}, "card 4: unknown power 'back4': use out, +n or -n"),
    ({"4": ["+4", "split7", "split9"]}, "card 4: one split at most"),
    ({"4": ["+21"]}, "card 4: a move of +21 is out of range"),
    ({"7": ["joker"]}, "card 7: joker is the Joker's own power"),
    ({"Z": ["+1"]}, "card 'Z' is not a rank"),
    ({"4": "-4"}, "card 4: give its powers as a non-empty list"),
    ({"4": []}, "card 4: give its powers as a non-empty list"),
    ({"4": ["x" * 10000]}, "card 4: at most 12 powers, each a short word"),
    ({"4": ["-4", "-4"]}, "card 4: a power is listed twice"),
]


def test_bad_card_powers_are_refused_in_one_plain_line(
        shared: tuple[httpx.Client, str]) -> None:
    http, _ws = shared
    before = http.get("/api/house").json()["total"]
    for cards, message in BAD_POWERS:
        for path, body in (
                ("/api/house", {**GRANDMA, "cards": cards}),
                ("/api/cue", {"base": "basic", "cards": cards}),
                ("/api/tables", {"preset": "basic", "name": "Ann",
                                 "settings": {"powers": cards}})):
            r = http.post(path, json=body)
            assert r.status_code == 400, (path, cards, r.text)
            error = r.json()["error"]
            assert error["code"] == "bad_settings" and error["message"].startswith(
                message), (path, error)
            assert "\n" not in error["message"] and len(error["message"]) < 300
    for body, message in (
            ({**GRANDMA, "settings": {"powers": {"4": ["-4"]}}}, "settings.powers: set it"),
            ({**GRANDMA, "settings": {"holes_per_side": 99}}, "holes_per_side must be"),
            ({**GRANDMA, "base": "nowhere"}, "base: 'nowhere' is not a preset"),
            ({**GRANDMA, "title": " "}, "title: give it as text")):
        r = http.post("/api/house", json=body)
        assert r.status_code == 400 and r.json()["error"]["message"].startswith(message), (
            r.text)
    assert http.post("/api/house", json={**GRANDMA, "rules": 1}).status_code == 422
    for label in ({"title": ""}, {"title": "x" * 81}, {"title": "A", "code": "no/way"},
                  {"title": "A", "colour": "red"}):
        r = http.post("/api/tables", json={"preset": "basic", "name": "Ann", "house": label})
        assert r.status_code == 422 and r.json()["error"]["code"] == "invalid", r.text
    assert http.get("/api/house").json()["total"] == before  # nothing refused kept


#: Titles and descriptions once saved, shown as saved (issue 47): each is refused.
TEXT_ATTACKS = [("Gran\x00", "control characters (U+0000)"),
                ("Gran\u202eselur", "direction of text (U+202E)"),
                ("\x1b[2JGran", "control characters (U+001B)"),
                ("Gran\U000e0069\U000e0067", "tag characters (U+E0069)"),
                ("Gran\ue000", "private-use characters"),
                ("\u200b\ufeff", "a visible character"),
                ("\u3164\u2800", "a visible character"), ("G" + "\u0301" * 9, "marks")]


def test_house_titles_and_descriptions_follow_the_text_policy_on_each_database(
        client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    for text, words in TEXT_ATTACKS:
        for key in ("title", "description"):
            for method, path in (("POST", "/api/house"), ("PUT", "/api/house/nope"),
                                 ("POST", "/api/cue")):
                r = client.request(method, path, json={**GRANDMA, key: text})
                assert r.status_code == 400, (method, path, key, text, r.text)
                error = r.json()["error"]
                assert error["code"] == "bad_settings" and error["message"].startswith(
                    f"{key}: the text ") and words in error["message"], error
            r = client.post("/api/tables", json={"preset": "basic", "name": "Ann",
                                                 "house": {"title": "Gran", key: text}})
            assert r.status_code == 422 and words in r.json()["error"]["message"], r.text
    saved = client.post("/api/house", json={
        **GRANDMA, "title": " Grandma's\u200b  rules\u200f ", "publish": True,
        "description": "Fours go back.\r\n\n  Twenty\u00a0holes a side. "})
    assert saved.status_code == 201, saved.text
    listed = client.get("/api/house").json()["houses"]
    assert [(h["title"], h["description"]) for h in listed] == [
        ("Grandma's rules", "Fours go back.\nTwenty holes a side.")]
    cue = client.post("/api/cue", json={**GRANDMA, "title": "\ufeffGran "}).json()["cue"]
    assert cue.startswith("Gran\nFours go back")
    assert not [record for record in caplog.records if record.exc_info]


def test_the_cue_card_follows_a_draft(shared: tuple[httpx.Client, str]) -> None:
    http, _ws = shared
    plain = http.post("/api/cue", json={"base": "basic"}).json()
    assert plain["cue"].startswith("Pegs and Jokers, basic rules") and plain["changed"] == {}
    draft = http.post("/api/cue", json={"base": "basic", "cards": {"4": ["-4", "swap"]},
                                        "settings": {"players": 6}}).json()
    assert draft["changed"] == {"4": ["-4", "swap"]}
    assert "\n  4*     move a peg back 4; or swap one of your ring pegs" in draft["cue"]
    assert "Players  6: 2 teams of 3" in draft["cue"]


def test_a_table_of_house_powers_plays_shows_its_title_and_replays(
        shared: tuple[httpx.Client, str], tmp_path: Path) -> None:
    powers = {"4": ["-4"], "9": ["+9", "split9"], "2": ["+2", "swap"]}
    house = {"title": "Grandma's rules", "description": "Fours go back.", "code": "abc"}
    http, ws = shared
    code, tokens = new_table(http, humans=1, bots=3, house=house, preset="basic",
                             settings={"pegs": 3, "powers": powers})
    table = http.get(f"/api/tables/{code}").json()
    assert table["house"] == house and {r: table["settings"]["powers"][r] for r in powers} == (
        powers)
    start(http, code, tokens[0])
    player = Player(ws, code, tokens[0], pace=0.05)  # under the message rate
    run(player.play())
    assert player.states[0]["table"]["house"]["title"] == "Grandma's rules"
    r = http.get(f"/api/tables/{code}/record")
    assert r.status_code == 200
    # the rematch plays the same house rules under the same title
    again = http.post(f"/api/tables/{code}/rematch", headers=auth(tokens[0])).json()
    rematch = http.get(f"/api/tables/{again['next']}").json()
    assert rematch["house"] == house and rematch["settings"]["powers"] == table["settings"][
        "powers"]
    record = from_json(r.json())
    assert record.rules.changed_powers() == powers
    saved = tmp_path / "game.json"
    saved.write_text(json.dumps(r.json()))
    assert main(["replay", "--quiet", str(saved)]) == 0


TOKENS = st.one_of(
    st.sampled_from(["out", "swap", "joker", "split7", "split9!", "split10", "+4", "-4", "+20",
                     "-21", "+0", "split7!!", "back4", ""]),
    st.text(max_size=60), st.integers(), st.none())
POWERS = st.dictionaries(st.one_of(st.sampled_from(RANKS), st.text(max_size=50)),
                         st.one_of(st.lists(TOKENS, max_size=14), TOKENS), max_size=5)


@given(POWERS)
def test_any_powers_are_taken_as_the_engine_takes_them_or_refused_in_a_line(
        powers: dict[str, Any]) -> None:
    try:
        checked = table_settings.powers(powers)
    except table_settings.SettingsError as e:
        message = str(e)
        assert message.startswith("card ") and "\n" not in message and len(message) < 300
        return
    rules = Rules.preset("basic", powers=checked)
    assert all(rules.power(rank) == tuple(tokens) for rank, tokens in powers.items())
