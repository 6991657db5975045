"""Whole games over real WebSockets, on SQLite and PostgreSQL: two humans and two bots
play to the end; every client only ever sees what its seat may see."""

from __future__ import annotations

import json
from pathlib import Path

from pegs.cli import main
from pegs.notation import announce
from pegs.record import from_json
from pegs.rules import GameState, view
from pegs.server.protocol import legal_texts, view_json

from .helpers import Client, LiveServer, Player, auth, new_table, run, start


def test_two_humans_two_bots_play_a_whole_game(live: LiveServer, tmp_path: Path) -> None:
    code, tokens = new_table(live.http, humans=2, bots=2)
    start(live.http, code, tokens[0])
    players = [Player(live.ws, code, token, seed=i) for i, token in enumerate(tokens)]
    spectator = Player(live.ws, code, None)

    run(*(p.play() for p in [*players, spectator]))

    r = live.http.get(f"/api/tables/{code}/record")
    assert r.status_code == 200
    record = from_json(r.json())
    states = [s for s, _ in record.states()]
    final = states[-1]
    assert final.is_over() and r.json()["result"]["seats"] == list(final.outcome().seats)
    assert live.http.get(f"/api/tables/{code}").json()["status"] == "finished"

    for seat, client in [(0, players[0]), (1, players[1]), (-1, spectator)]:
        assert client.states[-1]["version"] == len(record.actions)
        for message in client.states:
            state = states[message["version"]]
            # the view is exactly pegs.rules.view for this seat: own hand only
            assert message["view"] == view_json(view(state, seat))
            assert message["seat"] == seat
            if seat >= 0 and state.current_player == seat and not state.is_over():
                texts = legal_texts(message["legal"])
                assert sorted(texts) == sorted(str(a) for a in state.legal_actions())
            else:
                assert message["legal"] is None
        # every action reached every client as an event, in order
        assert [e["action"] for e in client.events] == [str(a) for a in record.actions]
        assert [e["version"] for e in client.events] == list(range(1, len(record.actions) + 1))
    assert all(m["view"]["hand"] == [] for m in spectator.states)
    bot_seats = {e["seat"] for e in players[0].events} - {0, 1}
    assert bot_seats == {2, 3}

    log = live.http.get(f"/api/tables/{code}/log").json()["log"]
    assert log == [{k: e[k] for k in ("version", "seat", "action", "announcement")}
                   for e in spectator.events]
    replay = live.http.get(f"/api/tables/{code}/replay").json()["states"]
    assert len(replay) == len(record.actions) + 1 and replay[0]["last"] is None
    for message in spectator.states:
        again = replay[message["version"]]
        assert (again["view"], again["last"], again["seat"], again["legal"]) == (
            message["view"], message["last"], -1, None)

    saved = tmp_path / "game.json"
    saved.write_text(json.dumps(r.json()))
    assert main(["replay", "--quiet", str(saved)]) == 0

    async def after_the_end() -> None:
        late = await Client.open(live.ws, code, tokens[0])
        last = await late.until("state")
        assert last["view"]["outcome"] is not None and last["legal"] is None
        error = await late.refused({"type": "act", "id": "1", "version": last["version"],
                                    "action": "pass"})
        assert error["code"] == "game_over"
        await late.close()

    run(after_the_end())
    hub = live.server.config.app.state.hub
    hub.forget_finished()
    assert code not in hub.rooms  # finished and unwatched: left to the database
    assert live.http.get(f"/api/tables/{code}/record").json() == r.json()
    assert live.http.get(f"/api/tables/{code}/log").json()["log"] == log


def test_a_seat_gets_its_own_record_during_play(live: LiveServer) -> None:
    code, tokens = new_table(live.http, humans=2, bots=2)
    for what in ("record", "log"):
        r = live.http.get(f"/api/tables/{code}/{what}")
        assert r.status_code == 409 and r.json()["error"]["code"] == "not_started"
    start(live.http, code, tokens[0])
    run(*(Player(live.ws, code, token, stop_at=4).play() for token in tokens))
    mine = live.http.get(f"/api/tables/{code}/record", headers=auth(tokens[1]))
    assert mine.status_code == 200 and mine.json()["seat"] == 1 and "seed" not in mine.json()
    r = live.http.get(f"/api/tables/{code}/replay")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_finished"
    assert len(live.http.get(f"/api/tables/{code}/log").json()["log"]) >= 4
    anyone = live.http.get(f"/api/tables/{code}/record")
    assert anyone.status_code == 401 and anyone.json()["error"]["code"] == "bad_token"


def test_whole_bluffing_games_tell_every_seat_only_its_view(live: LiveServer) -> None:
    """Four players and a spectator play Bluffing Joker to the end.  Every state message
    is exactly the seat's view (proven to hide what it must in test_view_secrets), every
    event and record fetched during play shows another seat's undoubted face-down card
    as ``?``."""
    code, tokens = new_table(live.http, humans=4, bots=0, preset="bluffing-joker")
    start(live.http, code, tokens[0])
    clients: dict[int, list[Player]] = {seat: [] for seat in (-1, 0, 1, 2, 3)}
    records: dict[int, dict[str, object]] = {}
    for stop_at in (150, None):  # halfway the seats read their records, then play on
        players = [Player(live.ws, code, token, seed=i + (stop_at or 0), stop_at=stop_at,
                          doubt_rate=0.05) for i, token in enumerate(tokens)]
        spectator = Player(live.ws, code, None, stop_at=stop_at)
        # a game runs to 1,000-4,000 versions, each told to five clients in this process:
        # on a loaded machine that takes a minute or more
        run(*(p.play() for p in [*players, spectator]), timeout=240)
        for seat, client in enumerate([*players, spectator]):
            clients[seat if seat < 4 else -1].append(client)
        if stop_at is not None:
            for seat, token in enumerate(tokens):
                r = live.http.get(f"/api/tables/{code}/record", headers=auth(token))
                records[seat] = r.json()
    full = from_json(live.http.get(f"/api/tables/{code}/record").json())
    truth = list(full.actions)
    states = [s for s, _ in full.states()]
    assert states[-1].is_over() and sum(1 for a in truth if a.declared) > 10

    def undoubted_by_others(seat: int, upto: int) -> set[int]:
        """The face-down plays among the first ``upto`` that ``seat`` never saw turned."""
        hidden: set[int] = set()
        for i, action in enumerate(truth[:upto]):
            if not action.declared or states[i].turn == seat:
                continue
            after = truth[i + 1:upto]
            asked = after[:next((k for k, a in enumerate(after) if not a.decision), len(after))]
            if not any(a.decision == "doubt" for a in asked):
                hidden.add(i)
        return hidden

    for seat, parts in clients.items():
        for client in parts:
            for message in client.states:
                assert message["view"] == view_json(view(states[message["version"]], seat))
            for event in client.events:
                i = event["version"] - 1
                hidden = truth[i].declared and event["seat"] != seat
                assert event["action"] == str(truth[i]._replace(card="?") if hidden
                                              else truth[i])
    for seat, record in records.items():
        texts = record["actions"]
        assert isinstance(texts, list)
        secret = undoubted_by_others(seat, len(texts))
        for i, text in enumerate(texts):
            assert text == (str(truth[i]._replace(card="?")) if i in secret
                            else str(truth[i])), (seat, i)


def test_face_down_cards_stay_hidden_from_everyone_else(live: LiveServer) -> None:
    code, tokens = new_table(live.http, humans=2, bots=2, preset="bluffing-joker")
    start(live.http, code, tokens[0])
    players = [Player(live.ws, code, token, seed=i, stop_at=120)
               for i, token in enumerate(tokens)]
    spectator = Player(live.ws, code, None, stop_at=120)
    run(*(p.play() for p in [*players, spectator]))

    room = live.server.config.app.state.hub.rooms[code]
    truth = list(room.actions)
    states = [GameState.new(room.rules, room.seed)]
    for action in truth:
        states.append(states[-1].apply(action))
    assert any(a.declared for a in truth), "no card was played face down"
    for seat, client in [(0, players[0]), (1, players[1]), (-1, spectator)]:
        for event in client.events:
            action, actor = truth[event["version"] - 1], event["seat"]
            hidden = action.declared and actor != seat
            assert event["action"] == str(action._replace(card="?") if hidden else action)
            # the table hears the declared rank only, whoever played
            assert event["announcement"] == announce(states[event["version"] - 1], action)
        for message in client.states:
            assert message["view"] == view_json(view(states[message["version"]], seat))
            if message["last"] is not None:
                action = truth[message["version"] - 1]
                hidden = action.declared and message["last"]["seat"] != seat
                assert message["last"]["action"] == str(
                    action._replace(card="?") if hidden else action)
    log = live.http.get(f"/api/tables/{code}/log").json()["log"]
    assert all(e["action"].startswith("? as ") for e, a in zip(log, truth, strict=False)
               if a.declared)
