"""HTTP routes under ``/api``: presets, create/list/join tables, bots, start, leave, stand-in
bots, and game records.  Errors answer ``{"error": {"code", "message"}}``."""

from __future__ import annotations

import asyncio
import functools
import gzip
import json
import secrets
from dataclasses import replace
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..cue import cue_card
from ..house import LONGEST_DESCRIPTION, LONGEST_TITLE
from ..rules import PRESETS, Rules, RulesError
from ..rules.settings import CONTROLS, HELP_ORDERS, JOKER_RULES, STUCK_RULES, TURN_ORDERS
from ..text import clean_text
from . import table_settings
from .expiry import created_by, live_cap_check
from .hub import Hub
from .limits import new_code, new_token, token_hash
from .rooms import BOT_KINDS, Room, TableError, bot_label
from .store import SeatRow, TableRow

router = APIRouter(prefix="/api")
bearer = HTTPBearer(auto_error=False, description="the seat token from create or join")

#: The longest display name, once cleaned (:func:`pegs.text.clean_text`).
LONGEST_NAME = 40
Name = Annotated[str, Field(min_length=1, max_length=LONGEST_NAME, description="display name")]
BotKind = Literal["random", "heuristic", "ismcts"]
Strength = Literal["easy", "normal", "strong"]

#: Allowed values of the settings a table may override (the engine checks them again).
ALLOWED: dict[str, Any] = {
    "players": {"min": 2, "max": 10},
    "teams": "0 (no teams) or a divisor of players giving teams of two or more",
    "sides": {"min": "max(3, players)", "max": 12},
    "holes_per_side": {"min": 18, "max": 25},
    "pegs": {"min": 3, "max": 6},
    "home_holes": {"min": "pegs", "max": 8},
    "decks": {"min": 1, "max": 8},
    "jokers_per_deck": {"min": 0, "max": 4},
    "extra_jokers": {"min": 0, "max": 8},
    "hand_size": {"min": 1, "max": 8},
    "turn_order": list(TURN_ORDERS),
    "control": list(CONTROLS),
    "help_order": list(HELP_ORDERS),
    "stuck_rule": list(STUCK_RULES),
    "joker_rule": list(JOKER_RULES),
    "split_finish_with_partner": "a list of some of the ranks 7 and 9",
    "may_pass_own": "true or false",
    "must_turn_in_at_door": "true or false",
    "joker_comes_out": "true or false",
    "joker_obligatory": "true or false",
    "bluffing": "true or false",
}


def _clean_name(value: str) -> str:
    return clean_text(value, longest=LONGEST_NAME, what="a name")


def _clean_title(value: str) -> str:
    return clean_text(value, longest=LONGEST_TITLE, what="the house rules' title")


def _clean_description(value: str) -> str:
    """The house rules' description; white space alone is no description."""
    return clean_text(value, longest=LONGEST_DESCRIPTION, what="the house rules' description",
                      multiline=True) if value.strip() else ""


#: Bounds of the table options (seconds); the clocks are at least the server's
#: ``Limits.min_timer_seconds`` too (``pegs serve --shortest-clock``, default 10).
TURN_SECONDS = (1.0, 3600.0)
AWAY_SECONDS = (1.0, 3600.0)
BOT_DELAY = (0.0, 5.0)
#: Open tables per page of ``GET /api/tables``: default and most.
PAGE, MOST_PAGE = 20, 50


def _seconds(low: float, high: float) -> Any:
    return Field(strict=True, ge=low, le=high, allow_inf_nan=False)


class HouseLabel(BaseModel):
    """The house rules a table plays, shown with it (their powers are in ``settings``)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    title: str = Field(min_length=1, max_length=LONGEST_TITLE)
    description: str = Field("", max_length=LONGEST_DESCRIPTION)
    code: str | None = Field(None, max_length=32, pattern=r"^[A-Za-z0-9_-]+$",
                             description="the saved house rules' code, if saved")

    _title = field_validator("title")(_clean_title)
    _description = field_validator("description")(_clean_description)


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    preset: str = Field(description="one of the presets of GET /api/presets")
    name: Name
    players: int | None = Field(None, description="seats, 2-10 (default 4)")
    teams: int | None = Field(None, description="teams (0: everyone for themselves)")
    settings: dict[str, Any] = Field(default_factory=dict, description="setting overrides, "
                                     'and changed card powers: "powers": {"4": ["-4"]}')
    hints: bool = Field(True, description="may players ask for hints")
    public: bool = Field(False, description="listed by GET /api/tables for anyone to join "
                         "(default: only those given the code)")
    turn_seconds: Annotated[float, _seconds(*TURN_SECONDS)] | None = Field(
        120.0, description="seconds a human has for a turn before the stand-in bot plays it "
        "(10-3600, default 120; null: no timer)")
    away_seconds: Annotated[float, _seconds(*AWAY_SECONDS)] | None = Field(
        120.0, description="seconds a seat may have no connection before a stand-in bot "
        "covers it (10-3600, default 120; null: never)")
    bot_delay: Annotated[float, _seconds(*BOT_DELAY)] | None = Field(
        None, description="the bots' pause before a move (0-5; default: the server's)")
    teaching: bool = Field(False, description="a teaching table: a team channel, moves "
                           "suggested to a partner (hints as `hints` says)")
    spectators_chat: bool = Field(False, description="spectators may write in the chat")
    house: HouseLabel | None = Field(None, description="house rules' title (and description) "
                                     "shown with the table")

    _name = field_validator("name")(_clean_name)


class Join(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: Name
    seat: int | None = Field(None, description="a free seat (default: the first free one)")

    _name = field_validator("name")(_clean_name)


class Bots(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seats: list[int] | None = Field(None, max_length=10,
                                    description="seats to fill (default: every empty)")
    bot: BotKind = "heuristic"
    strength: Strength | None = Field(None, description="ismcts search time: easy/normal/strong")


class StandIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    bot: BotKind = "heuristic"
    strength: Strength | None = None


def hub_of(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


HubDep = Annotated[Hub, Depends(hub_of)]
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def seat_by_token(room: Room, credentials: HTTPAuthorizationCredentials | None) -> int:
    if credentials is None or not credentials.credentials:
        raise TableError(401, "bad_token", "send your seat token: Authorization: Bearer TOKEN")
    seat = room.seat_of(credentials.credentials)
    if seat is None:
        raise TableError(401, "bad_token", "that token holds no seat at this table")
    return seat


def host_check(room: Room, credentials: HTTPAuthorizationCredentials | None) -> None:
    if seat_by_token(room, credentials) != room.host:
        raise TableError(403, "not_host", "only the table's host may do this")


def waiting_check(room: Room) -> None:
    if room.status != "waiting":
        raise TableError(409, "started", "the game has already started")


def seat_check(room: Room, seat: int) -> None:
    if not 0 <= seat < len(room.seats):
        raise TableError(400, "bad_seat", f"seats are 0 to {len(room.seats) - 1}")


@functools.cache
def presets_json() -> bytes:
    """``GET /api/presets``'s answer, made once (it builds every preset at every size)."""
    out = []
    for name in PRESETS:
        rules = Rules.preset(name)
        players = []
        for n in range(2, 11):
            for teams in ({}, {"teams": 0}):
                try:
                    Rules.preset(name, players=n, **teams)
                except RulesError:
                    continue
                players.append(n)
                break
        out.append({"name": name, "title": PRESETS[name].title, "defaults": rules.settings(),
                    "players": players, "cue": cue_card(rules),
                    "cards": {rank: list(tokens) for rank, tokens in rules.powers}})
    answer = {"presets": out, "allowed": ALLOWED, "bots": list(BOT_KINDS)}
    return json.dumps(answer, separators=(",", ":"), ensure_ascii=False).encode()


@router.get("/presets", response_class=Response, responses={200: {
    "content": {"application/json": {}}, "description": "JSON"}},
    summary="Presets, their default settings, allowed values, cue cards")
async def presets() -> Response:
    return Response(presets_json(), media_type="application/json")


class RateLimited(TableError):
    """429 ``rate_limited``, with the seconds to wait before trying again."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(429, "rate_limited", message)
        self.retry_after = retry_after


def client_address(request: Request) -> str:
    """The client's address as the server sees it (a proxy's, behind one)."""
    return request.client.host if request.client else "unknown"


async def waiting_cap_check(hub: Hub, address: str) -> None:
    """Refuse a new table to an address with as many waiting tables as it may have
    (counted in the database: through every process)."""
    cap = hub.limits.max_waiting_per_address
    if cap and await created_by(hub.services, address, ("waiting",)) >= cap:
        hours = hub.limits.waiting_seconds / 3600
        raise RateLimited(f"you have {cap} tables waiting for players, the most one address "
                          f"may have: start one of them, or wait until one expires "
                          f"({hours:g} hours after its creation)", 60)


async def creation_check(hub: Hub, address: str) -> None:
    """Refuse a new table to an address over its caps (waiting, unfinished tables; its
    creation rate is the door's budget)."""
    await waiting_cap_check(hub, address)
    await live_cap_check(hub.services, address)


@router.post("/tables", status_code=201, summary="Create a table; the creator is host at seat 0")
async def create_table(body: CreateTable, hub: HubDep, request: Request) -> dict[str, Any]:
    address = client_address(request)
    await creation_check(hub, address)
    overrides: dict[str, Any] = dict(body.settings)
    if body.players is not None:
        overrides["players"] = body.players
    if body.teams is not None:
        overrides["teams"] = body.teams
    try:
        rules = table_settings.rules(body.preset, overrides)
    except table_settings.SettingsError as e:
        raise TableError(400, "bad_settings", str(e)) from None
    shortest = hub.limits.min_timer_seconds
    for field, value in (("turn_seconds", body.turn_seconds),
                         ("away_seconds", body.away_seconds)):
        if value is not None and value < shortest:
            raise TableError(400, "bad_settings", f"{field}: at least {shortest:g} seconds "
                             "on this server (or null for no clock)")
    token = new_token()
    seats = [SeatRow(0, body.name, "human", token_hash(token))]
    seats += [SeatRow(s) for s in range(1, rules.players)]
    row = TableRow(new_code(), rules.settings(), secrets.randbits(62),
                   body.hints, "waiting", 0, 0, seats, public=body.public,
                   creator=address, created=datetime.now(UTC),
                   turn_seconds=body.turn_seconds, away_seconds=body.away_seconds,
                   bot_delay=body.bot_delay, teaching=body.teaching,
                   muted=[] if body.spectators_chat else [-1],
                   house=body.house.model_dump() if body.house else None)
    async with request.app.state.creating:  # the cap counts the tables being stored too
        await waiting_cap_check(hub, address)
        room = await hub.add(row)
    return {"code": room.code, "seat": 0, "token": token, "table": room.table_json()}


@router.get("/tables", summary="Public tables to join: not started, with a free seat, "
            "newest first, a page at a time")
async def open_tables(hub: HubDep,
                      limit: Annotated[int, Query(ge=1, le=MOST_PAGE)] = PAGE,
                      offset: Annotated[int, Query(ge=0)] = 0) -> dict[str, Any]:
    """Read from the database, so every process lists every table (a table loaded here
    shows its seats' presence)."""
    rows, total = await hub.run_db(hub.store.open_tables, limit, offset)
    listed = [(hub.rooms.get(row.code) or Room(hub.services, row)).table_json() for row in rows]
    return {"tables": listed, "total": total, "limit": limit, "offset": offset}


@router.get("/tables/{code}", summary="A table: settings, seats, status, version")
async def get_table(code: str, hub: HubDep) -> dict[str, Any]:
    return (await hub.room(code)).table_json()


@router.post("/tables/{code}/join", summary="Take a seat with a display name; answers a token")
async def join(code: str, body: Join, hub: HubDep) -> dict[str, Any]:
    room = await hub.room(code)
    token = new_token()
    async with room.lock:
        while True:  # another process may take the free seat first: then the next one
            waiting_check(room)
            free = [s.seat for s in room.seats if s.kind == "empty"]
            if body.seat is not None:
                seat_check(room, body.seat)
                if body.seat not in free:
                    raise TableError(409, "seat_taken", f"seat {body.seat} is taken; free: "
                                     + (", ".join(map(str, free)) or "none"))
            elif not free:
                raise TableError(409, "full", "every seat is taken")
            seat = body.seat if body.seat is not None else free[0]
            if await room.take_seat(SeatRow(seat, body.name, "human", token_hash(token))):
                return {"seat": seat, "token": token, "table": room.table_json()}


@router.post("/tables/{code}/bots", summary="Host: fill seats with bots")
async def add_bots(code: str, body: Bots, hub: HubDep, credentials: Credentials,
                   ) -> dict[str, Any]:
    room = await hub.room(code)
    host_check(room, credentials)
    async with room.lock:
        waiting_check(room)
        wanted = body.seats if body.seats is not None else [
            s.seat for s in room.seats if s.kind == "empty"]
        if not wanted:
            raise TableError(409, "full", "there is no empty seat to fill")
        for seat in wanted:
            seat_check(room, seat)
            if room.seats[seat].kind == "human":
                raise TableError(409, "seat_taken", f"seat {seat} is taken by a player")
        for seat in sorted(set(wanted)):
            name = bot_label(seat, body.bot, body.strength)
            if not await room.take_seat(SeatRow(seat, name, "bot", None, body.bot,
                                                body.strength), ("empty", "bot")):
                waiting_check(room)
                raise TableError(409, "seat_taken", f"seat {seat} is taken by a player")
    return room.table_json()


@router.post("/tables/{code}/start", summary="Host: deal and start")
async def start(code: str, hub: HubDep, credentials: Credentials) -> dict[str, Any]:
    room = await hub.room(code)
    host_check(room, credentials)
    async with room.lock:
        waiting_check(room)
        await room.start()
    return room.table_json()


@router.post("/tables/{code}/leave", summary="Leave your seat before the start")
async def leave(code: str, hub: HubDep, credentials: Credentials) -> dict[str, Any]:
    room = await hub.room(code)
    seat = seat_by_token(room, credentials)
    async with room.lock:
        if room.status != "waiting":
            raise TableError(409, "started", "the game has started: your seat stays yours "
                             "(the host may give it to a bot while you are away)")
        if seat == room.host:
            raise TableError(409, "host_cannot_leave", "the host cannot leave the table")
        if not await room.take_seat(SeatRow(seat), ("human",)):
            waiting_check(room)
            raise TableError(409, "seat_empty", "the host has emptied your seat already")
    return room.table_json()


@router.post("/tables/{code}/seats/{seat}/remove",
             summary="Host: empty a seat before the start (a player or a bot)")
async def remove(code: str, seat: int, hub: HubDep, credentials: Credentials,
                 ) -> dict[str, Any]:
    room = await hub.room(code)
    host_check(room, credentials)
    async with room.lock:
        waiting_check(room)
        seat_check(room, seat)
        if seat == room.host:
            raise TableError(409, "host_cannot_leave", "the host cannot leave the table")
        if room.seats[seat].kind == "empty" or not await room.take_seat(SeatRow(seat),
                                                                         ("human", "bot")):
            waiting_check(room)
            raise TableError(409, "seat_empty", f"seat {seat} is already empty")
        drop_seat_connections(room, seat)
    return room.table_json()


def drop_seat_connections(room: Room, seat: int) -> None:
    """Tell and disconnect a removed seat's connections (the room's own way when it has
    one)."""
    if hasattr(room, "drop_seat_connections"):
        room.drop_seat_connections(seat)
        return
    for conn in [c for c in room.conns if c.seat == seat]:
        room.detach(conn)


@router.post("/tables/{code}/seats/{seat}/bot",
             summary="Host: a bot plays a disconnected player's seat until reclaimed")
async def stand_in(code: str, seat: int, hub: HubDep, credentials: Credentials,
                   body: StandIn | None = None) -> dict[str, Any]:
    room = await hub.room(code)
    host_check(room, credentials)
    body = body or StandIn()
    async with room.lock:
        if room.status != "playing":
            raise TableError(409, "not_playing", "only a game in play has seats to hand over")
        seat_check(room, seat)
        row = room.seats[seat]
        if row.kind != "human" or row.standin:
            raise TableError(409, "not_human", f"seat {seat} is already played by a bot")
        if room.present(seat):
            raise TableError(409, "connected", f"seat {seat}'s player is connected")
        await room.save_seat(replace(row, standin=True, bot=body.bot, strength=body.strength))
    room.kick_bots()
    return room.table_json()


@router.post("/tables/{code}/seats/{seat}/reclaim", summary="Take your seat back from its bot")
async def reclaim(code: str, seat: int, hub: HubDep, credentials: Credentials,
                  ) -> dict[str, Any]:
    room = await hub.room(code)
    if seat_by_token(room, credentials) != seat:
        raise TableError(403, "bad_token", f"that token is not seat {seat}'s")
    async with room.lock:
        row = room.seats[seat]
        if not row.standin:
            raise TableError(409, "not_standin", f"seat {seat} is not played by a bot")
        await room.save_seat(replace(row, standin=False, bot=None, strength=None))
    return room.table_json()


JSON_ANSWER: dict[int | str, dict[str, Any]] = {
    200: {"content": {"application/json": {}}, "description": "JSON"}}


@router.get("/tables/{code}/record", response_class=Response, responses=JSON_ANSWER,
            summary="The game record (full after the end; a seat's own record during play)")
async def record(code: str, hub: HubDep, credentials: Credentials,
                 request: Request) -> Response:
    room = await hub.room(code)
    if room.status == "waiting":
        raise TableError(409, "not_started", "the game has not started yet")
    if room.status == "finished":
        return await gzipped(await hub.archive.record(room), request)
    if credentials is None:
        raise TableError(401, "bad_token", "the record of a game in play is for its seats: "
                         "send your seat token")
    return await gzipped(await hub.archive.seat_record(room, seat_by_token(room, credentials)),
                   request)


@router.get("/tables/{code}/log", response_class=Response, responses=JSON_ANSWER,
            summary="The public move log so far (as spectators saw it)")
async def move_log(code: str, hub: HubDep, request: Request) -> Response:
    room = await hub.room(code)
    if room.status == "waiting":
        raise TableError(409, "not_started", "the game has not started yet")
    return await gzipped(await room.log_gzipped(), request)


@router.get("/tables/{code}/replay", response_class=Response,
            summary="A finished game: the spectator's state after every action",
            responses={200: {"content": {"application/json": {}},
                             "description": '{"states": [state, ...]}'}})
async def replay(code: str, hub: HubDep, request: Request) -> Response:
    room = await hub.room(code)
    if room.status != "finished":
        raise TableError(409, "not_finished", "the replay is there once the game is over")
    return await gzipped(await hub.archive.replay(room), request)


async def gzipped(body: bytes, request: Request) -> Response:
    """A gzipped JSON document as it is to a client that accepts gzip (every browser),
    else unpacked off the event loop."""
    if "gzip" in request.headers.get("accept-encoding", "").lower():
        return Response(body, media_type="application/json",
                        headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"})
    return Response(await asyncio.to_thread(gzip.decompress, body),
                    media_type="application/json", headers={"Vary": "Accept-Encoding"})
