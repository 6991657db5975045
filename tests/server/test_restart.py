"""A real ``pegs serve`` killed with SIGKILL mid-game and started again resumes every game
exactly: nothing a client saw is lost, bots and humans play on to the end."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import httpx

from pegs.cli import main

from .helpers import SHORT_LEASES, Player, auth, free_port, new_table, run, serve, start


def test_sigkill_mid_game_then_restart_resumes_the_game(database_url: str,
                                                        tmp_path: Path) -> None:
    data, port = tmp_path / "data", free_port()
    base, ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    # (PostgreSQL) the killed process's leases run out soon: the next one takes its tables
    with serve(database_url, data, port, *SHORT_LEASES) as process:
        http = httpx.Client(base_url=base, timeout=20)
        code, tokens = new_table(http, humans=2, bots=2)
        waiting, _ = new_table(http, humans=1, public=True)
        start(http, code, tokens[0])
        before = [Player(ws, code, token, seed=i, stop_at=30, pace=0.03)
                  for i, token in enumerate(tokens)]
        run(*(p.play() for p in before))
        process.send_signal(signal.SIGKILL)  # no shutdown, no flush: the hard way
        process.wait(10)
        http.close()
    if database_url.startswith("sqlite"):
        assert (data / "pegs.db").is_file()

    seen = max(before, key=lambda p: len(p.events)).events
    last_seen = {p.token: p.states[-1] for p in before}
    with serve(database_url, data, port, *SHORT_LEASES):
        http = httpx.Client(base_url=base, timeout=20)
        assert http.get(f"/api/tables/{waiting}").json()["status"] == "waiting"
        assert [t["code"] for t in http.get("/api/tables").json()["tables"]] == [waiting]
        mine = http.get(f"/api/tables/{code}/record", headers=auth(tokens[0])).json()
        # every action any client saw was stored before it was sent
        assert mine["actions"][:len(seen)] == [e["action"] for e in seen]
        after = [Player(ws, code, token, seed=10 + i, pace=0.03) for i, token in enumerate(tokens)]
        run(*(p.play() for p in after))
        for p in after:
            first, old = p.states[0], last_seen[p.token]
            if first["version"] == old["version"]:
                assert first["view"] == old["view"] and first["legal"] == old["legal"]
        full = http.get(f"/api/tables/{code}/record").json()
        assert full["result"] is not None and full["actions"][:len(seen)] == mine["actions"][
            :len(seen)]
        http.close()
    saved = tmp_path / "game.json"
    saved.write_text(json.dumps(full))
    assert main(["replay", "--quiet", str(saved)]) == 0
