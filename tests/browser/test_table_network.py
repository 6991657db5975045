"""A silent network freeze (traffic held, nothing closed: a phone in a tunnel) while a move
is on its way: the page notices within seconds, says "Reconnecting…", and once the link is
back the move is played exactly once, or the page says plainly that it was not played."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_support import Server, free_port, seat_script, to_confirm
from playwright.sync_api import Browser, Locator, Page, expect
from test_play_online import PHONE, Watched


class Relay:
    """A TCP relay between the browser and `pegs serve` that can hold all traffic, both
    ways and on new connections too, without closing anything, then let it flow again."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.ready.wait(10)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.flowing = asyncio.Event()
        self.flowing.set()
        self.server = self.loop.run_until_complete(
            asyncio.start_server(self._connection, "127.0.0.1", self.port))
        self.ready.set()
        self.loop.run_forever()

    async def _connection(self, reader: asyncio.StreamReader,
                          writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.close()
            return

        async def pump(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            try:
                while data := await source.read(65536):
                    await self.flowing.wait()
                    sink.write(data)
                    await sink.drain()
            except OSError:
                pass
            finally:
                sink.close()

        await asyncio.gather(pump(reader, up_writer), pump(up_reader, writer),
                             return_exceptions=True)

    def pause(self) -> None:
        self.loop.call_soon_threadsafe(self.flowing.clear)

    def resume(self) -> None:
        self.loop.call_soon_threadsafe(self.flowing.set)

    async def _shut(self) -> None:
        self.server.close()
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self._shut(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()


@pytest.fixture
def relay(server: Server) -> Iterator[Relay]:
    running = Relay(server.port)
    yield running
    running.close()


def choose_a_move(page: Page) -> Locator:
    """Tap a card, then pegs and targets in the panel, up to the "Confirm move" button."""
    page.locator("#hand .card.playable").first.click()
    to_confirm(page)
    return page.locator(".confirm-btn").first


def seat_moves(server: Server, code: str, seat: int, after: int) -> list[dict[str, object]]:
    log = server.api("GET", f"/api/tables/{code}/log")["log"]
    return [e for e in log if e["seat"] == seat and e["version"] > after]


def open_table(chromium: Browser, relay: Relay, made: dict[str, str], name: str) -> Watched:
    context = chromium.new_context(**PHONE)
    context.add_init_script(seat_script(made["code"], made["token"], 0, name))
    w = Watched(context)
    w.page.goto(f"{relay.base}/t/{made['code']}")
    expect(w.page.locator("body")).to_have_attribute("data-my-turn", "1", timeout=15_000)
    return w


def test_a_move_confirmed_in_a_silent_freeze_is_played_once(chromium: Browser, server: Server,
                                                            relay: Relay,
                                                            artifacts: Path) -> None:
    made = server.table_with_bots("basic", 4, name="Dana")
    w = open_table(chromium, relay, made, "Dana")
    confirm = choose_a_move(w.page)
    action = confirm.get_attribute("data-action")
    before = w.version()
    relay.pause()
    frozen = time.monotonic()
    confirm.click()
    expect(w.page.locator("#sending")).to_be_visible()
    expect(w.page.locator("#banner")).to_contain_text("Reconnecting", timeout=8_000)
    assert time.monotonic() - frozen < 8
    expect(w.page.locator("#sending")).to_contain_text("sent again once reconnected")
    expect(w.page.locator(".confirm-btn")).to_have_count(0)
    w.page.screenshot(path=str(artifacts / "freeze-reconnecting-phone.png"))
    time.sleep(3)  # still in the tunnel
    assert seat_moves(server, made["code"], 0, before) == []
    relay.resume()
    expect(w.page.locator("#banner")).to_be_hidden(timeout=15_000)
    w.page.wait_for_function(f"+document.body.dataset.version > {before}", timeout=15_000)
    expect(w.page.locator("body")).to_have_attribute("data-my-turn", "1", timeout=15_000)
    w.page.screenshot(path=str(artifacts / "freeze-after-phone.png"))
    mine = seat_moves(server, made["code"], 0, before)
    assert [(e["version"], e["action"]) for e in mine] == [(before + 1, action)]
    assert "version" not in (w.page.locator("#notice").text_content() if
                             w.page.locator("#notice").count() else "")
    assert w.errors == []
    w.context.close()


def test_a_move_lost_in_a_freeze_while_a_bot_played_is_said_not_played(
        chromium: Browser, server: Server, relay: Relay, artifacts: Path) -> None:
    made = server.table_with_bots("basic", 4, name="Eve", turn_seconds=12)
    w = open_table(chromium, relay, made, "Eve")
    confirm = choose_a_move(w.page)
    before = w.version()
    relay.pause()
    confirm.click()
    expect(w.page.locator("#banner")).to_contain_text("Reconnecting", timeout=8_000)
    # the turn's time runs out in the tunnel: the stand-in plays it
    deadline = time.monotonic() + 30
    while not seat_moves(server, made["code"], 0, before):
        assert time.monotonic() < deadline, "the turn's time did not run out"
        time.sleep(0.2)
    relay.resume()
    expect(w.page.locator("#banner")).to_be_hidden(timeout=15_000)
    expect(w.page.locator("#notice")).to_contain_text("your move was not played", timeout=10_000)
    # the moves missed in the tunnel are fetched: the stand-in's, told as for everyone
    expect(w.page.locator("#notice")).to_contain_text("a bot made 1 move for you")
    entry = w.page.locator("#log li", has=w.page.locator(".who", has_text="Eve's stand-in bot"))
    expect(entry).to_contain_text("(Eve ran out of time)")
    w.page.screenshot(path=str(artifacts / "freeze-not-played-phone.png"))
    assert len(seat_moves(server, made["code"], 0, before)) == 1
    assert w.errors == []
    w.context.close()
