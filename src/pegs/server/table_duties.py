"""The duties of the process that runs a table (its lease's holder; on SQLite, the one
process): the bots' moves, hints, the turn and away clocks, and the stand-ins, each
following the table as its log moves on."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import replace
from typing import Any

from ..hint import HintError
from ..rules import (
    Action,
)
from . import protocol, thinking
from .retry import Backoff
from .store_errors import LeaseLost, StoreError
from .table_base import TableBase
from .thinking import Dropped, Job

log = logging.getLogger("pegs.server")


class TableDuties(TableBase):
    """A table's bots, hints, clocks and stand-ins."""

    def _bot_to_act(self) -> int | None:
        state = self.state
        if self.status != "playing" or state is None or state.is_over():
            return None
        seat = state.current_player
        return seat if self.bot_controlled(seat) else None

    def kick_bots(self) -> None:
        """Start the bot loop if this process runs the table, a bot is to act and the loop
        is not running."""
        if (self.owned and (self.bot_task is None or self.bot_task.done())
                and self._bot_to_act() is not None):
            self.bot_task = asyncio.create_task(self._bot_loop())

    async def _bot_loop(self) -> None:
        """While this process runs the table and a bot is to act: play its move; after a
        database failure try again with growing pauses."""
        backoff = Backoff()
        while self.owned and (seat := self._bot_to_act()) is not None:
            try:
                failed = await self._bot_turn(seat)
            except Exception:
                log.exception("table %s: the bot of seat %d failed", self.code, seat)
                failed = True
            if failed:
                await backoff.wait()
            else:
                backoff.succeeded()

    async def _bot_turn(self, seat: int) -> bool:
        """Play the move of ``seat``'s bot; whether the database failed to store it."""
        version = self.version
        delay = self.env.bot_delay if self.bot_delay is None else self.bot_delay
        delay = max(delay, self.env.limits.min_bot_delay)
        if delay:
            await asyncio.sleep(delay)
            if self._bot_to_act() != seat or self.version != version:
                return False
        self._bot_job = job = self._bot_move(seat, version)
        action = await self._answer(job, seat)
        if action is None or self.version != version:
            return False
        refusal = await self._bot_act(seat, action, version, "bot")
        return refusal is not None and refusal["code"] == "unavailable"

    async def _bot_act(self, seat: int, action: Action, version: int,
                       actor: str) -> dict[str, Any] | None:
        """Play a bot's action; one the table refuses as illegal (a bug: the same seed would
        choose it again) is replaced by the first legal action. The refusal, if any."""
        refusal = await self.act(seat, action, version, actor)
        if refusal is not None and refusal["code"] == "illegal" and self.state is not None:
            log.error("table %s: the bot of seat %d chose %s: %s", self.code, seat, action,
                      refusal["message"])
            refusal = await self.act(seat, self.state.legal_actions()[0], version, actor)
        return refusal

    @property
    def owner(self) -> str:
        """Whose share of the worker lanes the table's searches take: its creator's
        address."""
        return self.creator or self.code

    def _bot_move(self, seat: int, version: int) -> Job:
        """Ask the bot lane for the move of ``seat``'s bot (or stand-in) at ``version``."""
        s = self.seats[seat]
        kind = s.bot or "heuristic"
        seconds = thinking.search_seconds(kind, s.strength, self.env.limits.max_bot_seconds)
        seed = self.bot_seeds.setdefault(seat, thinking.new_bot_seed())
        return self.env.bot_lane.submit(self.owner, self.code, thinking.bot_move,
                                        self.game(), seat, kind, seconds,
                                        thinking.move_seed(seed, version), seconds=seconds)

    async def _answer(self, job: Job, seat: int) -> Action | None:
        """The bot's action; None if no longer wanted; the first legal one if it failed."""
        state = self.state
        try:
            return Action.parse(await job.future)
        except Dropped:
            return None
        except Exception:
            log.exception("table %s: the bot of seat %d failed; it plays the first legal "
                          "action", self.code, seat)
            return state.legal_actions()[0] if state is not None else None

    async def hint(self, seat: int) -> dict[str, Any]:
        """A hint for the seat to act, searched by a worker: one per seat and turn; a hint
        still searching when the turn passes is dropped."""
        state = self.state
        if not self.hints:
            return protocol.error("no_hints", "hints are off at this table")
        if state is None or self.status == "waiting":
            return protocol.error("not_started", "the game has not started yet")
        if state.is_over():
            return protocol.error("game_over", "the game is over")
        if seat < 0 or state.current_player != seat:
            return protocol.error("not_your_turn", "hints are for the seat to act")
        async with self.lock:  # counted on the table's log: one a turn, whichever process
            version = self.version
            try:
                given = await self.env.run_db(self.env.store.give_hint, self.code, seat,
                                              version)
            except StoreError as e:
                log.warning("table %s: cannot store a hint: %s", self.code, e)
                return protocol.error("unavailable", "the database did not answer: ask "
                                      "again in a moment")
            if given is None:
                return protocol.error("rate_limited", "one hint a turn: this turn's hint "
                                      "was already asked for")
            await self.take(given)
            if self.version != version:
                return protocol.error("not_your_turn", "the turn passed")
        seconds = self.env.hint_seconds
        job = self.env.hint_lane.submit(self.owner, self.code, thinking.hint, self.game(),
                                        seat, seconds, seconds=seconds)
        self._hints[seat] = (version, job)
        try:
            action, said, reason = await job.future
        except asyncio.CancelledError:  # the asker left
            job.drop()
            raise
        except Dropped:
            return protocol.error("not_your_turn", "the turn passed before the hint was ready")
        except HintError as e:
            return protocol.error("not_your_turn", str(e))
        return {"type": "hint", "action": action, "announcement": said, "reason": reason}

    def _turn_passed(self) -> None:
        """Hints still searching, and a stand-in's move for a timed-out turn, are no longer
        wanted."""
        for _, job in self._hints.values():
            job.drop()
        if self._turn_job is not None:
            self._turn_job.drop()

    def _seconds(self, value: float | None) -> float | None:
        return None if value is None else max(value, self.env.limits.min_timer_seconds)

    def start_clocks(self) -> None:
        """Start the turn clock and the away clocks (on start, and again on resume after a
        restart or when this process takes the table over: the clocks begin afresh)."""
        if self.owned:
            self._deadline = (self.version, None)
        self._turn_clock()
        for s in self.seats:
            self._away_clock(s.seat)

    def _stop_clocks(self) -> None:
        if self._turn_timer is not None:
            self._turn_timer.cancel()
        self._turn_timer = self.turn_ends = self._clock_for = None
        for timer in self._away.values():
            timer.cancel()
        self._away.clear()
        if self._away_ends:
            self._away_ends.clear()
            self._table = None

    def _clocked(self) -> bool:
        """Whether the human seat to act at this version has a turn clock."""
        state = self.state
        return (state is not None and self._seconds(self.turn_seconds) is not None
                and self._to_act(state.current_player)
                and self._deadline[0] <= self.version)  # else a later turn is stored

    def _clock_shown(self) -> float | None:
        """The end of this turn's clock as stored, if the turn has a clock."""
        version, ends = self._deadline
        return ends if version == self.version and self._clocked() else None

    def _turn_clock(self) -> None:
        """Show the clock of the human seat to act as stored with the table; in the owner,
        also run it: when none is stored for this turn (the start, a take-over, a seat
        given back mid-turn), start one and store it; when the turn has no clock any more,
        store that (a clock already running for this seat and version runs on)."""
        seconds = self._seconds(self.turn_seconds)
        state = self.state
        turn = ((state.current_player, self.version)
                if self._clocked() and state is not None else None)
        if self.owned:
            version, ends = self._deadline
            if turn is None and version == self.version and ends is not None:
                self._store_deadline(None)
            elif turn is not None and seconds is not None and (
                    version != self.version or ends is None):
                self._store_deadline(round(time.time() + seconds, 3))
        self.turn_ends = self._clock_shown()
        if turn is not None and turn == self._clock_for and self._turn_timer is not None:
            return
        if self._turn_timer is not None:
            self._turn_timer.cancel()
        self._turn_timer = self._clock_for = None
        if turn is None or not self.owned or self.turn_ends is None:
            return
        self._clock_for = turn
        self._turn_timer = asyncio.get_running_loop().call_later(
            max(0.0, self.turn_ends - time.time()), self._time_out, *turn)

    def _store_deadline(self, ends: float | None) -> None:
        """The owner sets this turn's clock: kept with the table, so the other processes
        show it too (one write at a time, the latest last)."""
        self._deadline = (self.version, ends)
        if self._deadline_writer is None or self._deadline_writer.done():
            self._deadline_writer = self._spawn(self._write_deadlines())

    async def _write_deadlines(self) -> None:
        written = None
        while self._deadline != written and self.owned:
            written = self._deadline
            try:
                await self.env.run_db(self.env.store.set_turn_ends, self.code, *written,
                                      self._fence())
            except StoreError as e:  # the timer still runs here; the others show no clock
                log.warning("table %s: cannot store the turn clock: %s", self.code, e)
                return

    def _time_out(self, seat: int, version: int) -> None:
        self._turn_timer = self._clock_for = None
        if self.version == version and self._to_act(seat):
            self._spawn(self._play_for(seat, version))

    async def _play_for(self, seat: int, version: int) -> None:
        """The human's time ran out: the stand-in plays this turn; the seat stays theirs
        (after a database failure it tries again, with growing pauses)."""
        backoff = Backoff()
        while self.owned and self.version == version and self._to_act(seat):
            self._turn_job = job = self._bot_move(seat, version)
            action = await self._answer(job, seat)
            if action is None or self.version != version:
                return
            refusal = await self._bot_act(seat, action, version, "timer")
            if refusal is None or refusal["code"] != "unavailable":
                return
            await backoff.wait()

    def _away_clock(self, seat: int) -> None:
        """Start the away clock of a human seat that has no connection (stop it when it has
        one)."""
        timer = self._away.pop(seat, None)
        if timer is not None:
            timer.cancel()
        seconds = self._seconds(self.away_seconds)
        s = self.seats[seat]
        away = (seconds is not None and self.status == "playing" and s.kind == "human"
                and not s.standin and not self.present(seat))
        ends = round(time.time() + seconds, 3) if away and seconds is not None else None
        if self._away_ends.get(seat) != ends:  # every process shows when the stand-in comes
            self._table = None
            if ends is None:
                del self._away_ends[seat]
            else:
                self._away_ends[seat] = ends
        if away and self.owned and seconds is not None:
            self._away[seat] = asyncio.get_running_loop().call_later(
                seconds, lambda: self._spawn(self._cover(seat)))

    async def _cover(self, seat: int) -> None:
        """Nobody connected for the seat in time: a stand-in bot plays it until they come
        back."""
        self._away.pop(seat, None)
        async with self.lock:
            s = self.seats[seat]
            if not self.owned or self.status != "playing" or s.kind != "human" or s.standin:
                return
            if self.present(seat):  # connected to another process: look again later
                self._away_clock(seat)
                return
            try:
                await self.save_seat(replace(s, standin=True, bot=s.bot or "heuristic"),
                                     fenced=True)
            except LeaseLost:
                self.let_go()
                return
            except StoreError:  # the database is away: look again later
                log.warning("table %s: cannot store seat %d's stand-in", self.code, seat)
                self._away_clock(seat)
                return
        self.kick_bots()

    def _stand_down(self, seat: int) -> None:
        """A seat played by a stand-in has its player connected (to this process or,
        lately, another): the seat is the human's again, stored by the table's owner or
        by a process the player is connected to."""
        s = self.seats[seat]
        if (s.kind == "human" and s.standin and self.status == "playing"
                and (self.connected(seat) or (self.owned and self.present(seat)))):
            self._spawn(self._reclaim(seat))

    async def _reclaim(self, seat: int) -> None:
        async with self.lock:
            s = self.seats[seat]
            if s.kind == "human" and s.standin and self.present(seat):
                await self.save_seat(replace(s, standin=False, bot=None, strength=None))
