"""After the game: the rematch (same seats and tokens, a new deal, once every human agreed)
and the summary per team."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from pegs.bots import make_bot
from pegs.rules import Action, GameState, Rules, view
from pegs.rules.board import START
from pegs.server.records import game_summary

from .helpers import auth, new_table, start


def finish_by_bots(client: TestClient, code: str, tokens: list[str], humans: int) -> None:
    """Stand-in bots play every human seat until the game ends, then give the seats back."""
    for seat in range(humans):
        r = client.post(f"/api/tables/{code}/seats/{seat}/bot", headers=auth(tokens[0]))
        assert r.status_code == 200, r.text
    deadline = time.monotonic() + 60
    while client.get(f"/api/tables/{code}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.05)
    for seat in range(humans):
        r = client.post(f"/api/tables/{code}/seats/{seat}/reclaim", headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text


def test_rematch_starts_once_every_human_agreed(client: TestClient) -> None:
    code, tokens = new_table(client, humans=2, bots=2, players=4)
    start(client, code, tokens[0])
    r = client.post(f"/api/tables/{code}/rematch", headers=auth(tokens[1]))
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_finished"
    finish_by_bots(client, code, tokens, humans=2)
    old = client.get(f"/api/tables/{code}").json()
    assert old["next"] is None and old["rematch"] == []

    assert client.post(f"/api/tables/{code}/rematch").status_code == 401
    r = client.post(f"/api/tables/{code}/rematch", headers=auth(tokens[1]))
    assert r.status_code == 200
    assert r.json()["rematch"] == [1] and r.json()["next"] is None  # the host has not agreed
    r = client.post(f"/api/tables/{code}/rematch", headers=auth(tokens[0]))
    nxt = r.json()["next"]
    assert nxt and nxt != code and r.json()["rematch"] == [0, 1]
    assert client.get(f"/api/tables/{code}").json()["next"] == nxt
    # a late agreement changes nothing
    assert client.post(f"/api/tables/{code}/rematch", headers=auth(tokens[1])).json()["next"] == nxt

    new = client.get(f"/api/tables/{nxt}").json()
    assert new["status"] == "playing" and new["host"] == old["host"]
    assert [(s["name"], s["kind"], s["bot"]) for s in new["seats"]] == [
        (s["name"], s["kind"], s["bot"] if s["kind"] == "bot" else None) for s in old["seats"]]
    assert new["settings"] == old["settings"]
    # each player's token holds the same seat at the new table; the deal is new
    for seat, token in enumerate(tokens):
        r = client.get(f"/api/tables/{nxt}/record", headers=auth(token))
        assert r.status_code == 200, r.text
        assert r.json()["seat"] == seat
    store = client.app.state.hub.store  # type: ignore[attr-defined]
    assert store.load(None, nxt)[0].seed != store.load(None, code)[0].seed


def test_summary_after_the_end(client: TestClient) -> None:
    code, tokens = new_table(client, humans=1, bots=3, players=4)
    start(client, code, tokens[0])
    assert client.get(f"/api/tables/{code}/summary").json()["error"]["code"] == "not_finished"
    finish_by_bots(client, code, tokens, humans=1)
    teams = client.get(f"/api/tables/{code}/summary").json()["teams"]
    assert [t["seats"] for t in teams] == [[0, 2], [1, 3]]
    record = client.get(f"/api/tables/{code}/record").json()
    assert sum(t["turns"] for t in teams) == len(record["actions"])
    assert sum(t["jokers"] for t in teams) == sum(a.startswith("J*") for a in record["actions"])
    assert sum(t["hits_given"] for t in teams) == sum(t["hits_taken"] for t in teams)
    assert client.get("/api/tables/nothere/summary").status_code == 404


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**62), players=st.sampled_from([2, 3, 4]))
def test_summary_counts_every_peg_sent_back(seed: int, players: int) -> None:
    """Each peg another seat sends back to START is one hit given and one taken (in Pegoo
    only opponents go back to START), and every card play or discard is a turn."""
    rules = Rules.preset("pegoo", players=players, pegs=3)
    state = GameState.new(rules, seed)
    bots = [make_bot("random", seed + s) for s in range(players)]
    actions: list[Action] = []
    sent_back = 0
    while not state.is_over() and len(actions) < 400:
        seat = state.current_player
        action = bots[seat].choose(view(state, seat), state.legal_actions())
        before = [p.count(START) for p in state.pegs]
        state = state.apply(action)
        sent_back += sum(max(0, p.count(START) - before[q])
                         for q, p in enumerate(state.pegs) if q != seat)
        actions.append(action)
    teams = game_summary(rules, seed, actions)
    assert sum(t["hits_given"] for t in teams) == sent_back
    assert sum(t["hits_taken"] for t in teams) == sent_back
    assert sum(t["turns"] for t in teams) == len(actions)


def test_summary_turns_leave_out_decisions() -> None:
    """Bluffing Joker: doubting, passing and choosing a peg to send back are no turns."""
    rules = Rules.preset("bluffing-joker", players=2)
    state = GameState.new(rules, 5)
    bots = [make_bot("heuristic", s) for s in range(2)]
    actions: list[Action] = []
    while not state.is_over() and len(actions) < 300:
        seat = state.current_player
        action = bots[seat].choose(view(state, seat), state.legal_actions())
        state = state.apply(action)
        actions.append(action)
    assert any(a.decision for a in actions)
    teams = game_summary(rules, 5, actions)
    assert sum(t["turns"] for t in teams) == sum(not a.decision for a in actions)


def test_a_seat_that_has_not_agreed_is_handed_to_a_bot_for_the_rematch(
        client: TestClient) -> None:
    code, tokens = new_table(client, humans=3, bots=1, players=4)
    start(client, code, tokens[0])
    r = client.post(f"/api/tables/{code}/rematch/seats/2/bot", headers=auth(tokens[0]))
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_finished"
    finish_by_bots(client, code, tokens, humans=3)
    # only the host or a player who agreed may hand a seat over; a bot's seat agrees anyway
    r = client.post(f"/api/tables/{code}/rematch/seats/2/bot", headers=auth(tokens[1]))
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_host"
    assert client.post(f"/api/tables/{code}/rematch/seats/2/bot").status_code == 401
    r = client.post(f"/api/tables/{code}/rematch/seats/3/bot", headers=auth(tokens[0]))
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_human"
    assert client.post(f"/api/tables/{code}/rematch/seats/9/bot",
                       headers=auth(tokens[0])).status_code == 400

    assert client.post(f"/api/tables/{code}/rematch", headers=auth(tokens[1])).json()[
        "rematch"] == [1]
    # Bob agreed: he may hand Cleo's seat (gone to bed) to a bot
    r = client.post(f"/api/tables/{code}/rematch/seats/2/bot", headers=auth(tokens[1]))
    assert r.status_code == 200, r.text
    assert r.json()["rematch"] == [1, 2] and r.json()["rematch_bots"] == [2]
    assert r.json()["next"] is None  # the host has not agreed yet
    nxt = client.post(f"/api/tables/{code}/rematch", headers=auth(tokens[0])).json()["next"]
    assert nxt
    new = client.get(f"/api/tables/{nxt}").json()
    assert [(s["kind"], s["standin"]) for s in new["seats"]] == [
        ("human", False), ("human", False), ("human", True), ("bot", False)]
    # Cleo comes back later: her token holds the seat, and she takes it back from the bot
    r = client.post(f"/api/tables/{nxt}/seats/2/reclaim", headers=auth(tokens[2]))
    assert r.status_code == 200, r.text
    assert client.get(f"/api/tables/{nxt}").json()["seats"][2]["standin"] is False
    old = client.get(f"/api/tables/{code}").json()
    assert old["rematch_bots"] == [2] and old["next"] == nxt


def test_the_host_alone_hands_every_other_seat_to_a_bot(client: TestClient) -> None:
    code, tokens = new_table(client, humans=2, bots=2, players=4)
    start(client, code, tokens[0])
    finish_by_bots(client, code, tokens, humans=2)
    r = client.post(f"/api/tables/{code}/rematch/seats/1/bot", headers=auth(tokens[0]))
    assert r.json()["rematch"] == [1] and r.json()["next"] is None
    nxt = client.post(f"/api/tables/{code}/rematch", headers=auth(tokens[0])).json()["next"]
    assert client.get(f"/api/tables/{nxt}").json()["seats"][1]["standin"] is True
