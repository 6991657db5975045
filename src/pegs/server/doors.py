"""Every door of the server and the budget it spends: one table for all of them.

Each HTTP route spends one named per-address budget, counted by :class:`DoorBudget`
before anything else is done for the request (before its body is read or checked), in
the counters every process shares (:mod:`.counters`).  Each WebSocket message kind is
listed in :data:`MESSAGE_KINDS` with the budgets it spends.  ``create_app`` refuses to
build an app with a route this table does not name, and a test walks both tables; the
figures are listed for operators in docs/DEPLOY.md ("Every door's budget").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from fastapi.routing import APIWebSocketRoute
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Mount, WebSocketRoute
from starlette.types import ASGIApp, Receive, Scope, Send

try:  # FastAPI 0.165 and later keep included routers whole
    from fastapi.routing import iter_route_contexts as _contexts
except ImportError:  # earlier ones copy their routes into the app's
    _contexts = None  # type: ignore[assignment]


@dataclass(frozen=True)
class Budget:
    """Requests one address may make a minute through the doors that spend it: the
    :class:`~.limits.Limits` field holding the count, and what a refusal calls them."""

    field: str
    words: str


#: The per-address budgets of HTTP requests, by name.
BUDGETS: dict[str, Budget] = {
    "page": Budget("page_reads_per_minute", "page requests"),
    "fixed": Budget("fixed_reads_per_minute", "preset and cue-card requests"),
    "creates": Budget("creates_per_minute", "new tables"),
    "lobby": Budget("lobby_reads_per_minute", "lobby reads"),
    "table": Budget("table_reads_per_minute", "table reads"),
    "joins": Budget("joins_per_minute", "joins"),
    "changes": Budget("table_changes_per_minute", "table changes"),
    "reads": Budget("record_reads_per_minute", "reads of game records and chat"),
    "house": Budget("house_saves_per_minute", "changes to saved house rules"),
}

#: The budgets ``pegs serve --rate NAME=N`` sets, by name: the HTTP ones and the chat's.
RATES: dict[str, str] = {**{name: budget.field for name, budget in BUDGETS.items()},
                         "connects": "connects_per_minute", "chat": "chat_per_minute",
                         "table-chat": "table_chat_per_minute"}


def rates(given: list[str]) -> dict[str, int]:
    """The :class:`~.limits.Limits` fields of ``--rate NAME=N`` options; ValueError in
    one line naming a wrong one."""
    out = {}
    for item in given:
        name, _, count = item.partition("=")
        if name not in RATES or not count.isdigit():
            raise ValueError(f"--rate takes NAME=N with N a whole number of requests a "
                             f"minute (0: no limit) and NAME one of {', '.join(RATES)}, "
                             f"not {item[:60]!r}")
        out[RATES[name]] = int(count)
    return out


#: Every route of the app ("METHOD /path", "WS /path", "MOUNT /path") and its budget.
ROUTES: dict[str, str] = {
    "GET /health": "page",
    "GET /ready": "page",
    "GET /openapi.json": "page",
    "GET /docs": "page",
    "GET /docs/oauth2-redirect": "page",
    "GET /redoc": "page",
    "GET /t/{code}": "page",
    "MOUNT ": "page",
    "GET /api/presets": "fixed",
    "POST /api/cue": "fixed",
    "POST /api/tables": "creates",
    "GET /api/tables": "lobby",
    "GET /api/house": "lobby",
    "GET /api/house/{code}": "lobby",
    "GET /api/tables/{code}": "table",
    "POST /api/tables/{code}/join": "joins",
    "POST /api/tables/{code}/bots": "changes",
    "POST /api/tables/{code}/start": "changes",
    "POST /api/tables/{code}/leave": "changes",
    "POST /api/tables/{code}/seats/{seat}/remove": "changes",
    "POST /api/tables/{code}/seats/{seat}/bot": "changes",
    "POST /api/tables/{code}/seats/{seat}/reclaim": "changes",
    "POST /api/tables/{code}/rematch": "changes",
    "POST /api/tables/{code}/rematch/seats/{seat}/bot": "changes",
    "GET /api/tables/{code}/record": "reads",
    "GET /api/tables/{code}/log": "reads",
    "GET /api/tables/{code}/replay": "reads",
    "GET /api/tables/{code}/summary": "reads",
    "GET /api/tables/{code}/chat": "reads",
    "POST /api/house": "house",
    "PUT /api/house/{code}": "house",
    "DELETE /api/house/{code}": "house",
    # the connects a minute and open connections of an address, counted at the hello
    "WS /ws/{code}": "connects",
}

#: Requests that match no route (404s) spend this budget.
UNMATCHED = "page"

#: Every WebSocket message kind and the budgets it spends (all of them spend the
#: connection's message rate; a connection that keeps sending over it is closed).
MESSAGE_KINDS: dict[str, str] = {
    "hello": "connects a minute per address; open connections per address, per seat and "
             "spectators per table",
    "ping": "messages",
    "act": "messages; illegal actions (the connection is closed past them)",
    "hint": "messages; one a seat and turn, searched in the table creator's share of the "
            "hint lane",
    "explain": "messages; at most a few actions each",
    "chat": "messages; chat per connection, per address at the table and per table",
    "suggest": "messages; chat per connection, per address at the table and per table",
    "mute": "messages (the host only)",
}


def _doors(routes: list[BaseRoute]) -> Iterator[str]:
    """The names in :data:`ROUTES` of these routes (a FastAPI that keeps included routers
    whole is looked into)."""
    contexts: Iterable[Any] = routes if _contexts is None else _contexts(routes)
    for context in contexts:
        route = getattr(context, "original_route", context)
        path = context.path
        if isinstance(route, Mount):
            yield f"MOUNT {path}"
        elif isinstance(route, WebSocketRoute | APIWebSocketRoute):
            yield f"WS {path}"
        else:
            methods = sorted(set(context.methods or {"GET"}) - {"HEAD"})
            yield f"{methods[0]} {path}"


def unbudgeted(routes: list[BaseRoute]) -> list[str]:
    """The app's routes that :data:`ROUTES` does not name."""
    return [name for name in _doors(routes) if name not in ROUTES]


def budgeted(routes: list[BaseRoute]) -> list[str]:
    """The app's routes, by their names in :data:`ROUTES`."""
    return list(_doors(routes))


def _pattern(path: str) -> re.Pattern[str]:
    """A route's path template as a regular expression (a parameter is one segment)."""
    return re.compile("^" + re.sub(r"\\{[a-z_]+\\}", "[^/]+", re.escape(path)) + "$")


#: (method, path pattern, budget) of the HTTP routes, most specific first.
_MATCHERS = [(name.split(" ", 1)[0], _pattern(name.split(" ", 1)[1]), budget)
             for name, budget in ROUTES.items() if name.split(" ", 1)[0] not in ("WS", "MOUNT")]


def budget_of(method: str, path: str) -> str:
    """The budget a request spends: its route's, else (the page's files, 404s)
    :data:`UNMATCHED`."""
    method = "GET" if method == "HEAD" else method
    for wanted, pattern, budget in _MATCHERS:
        if wanted == method and pattern.match(path):
            return budget
    return UNMATCHED


def _refusal(budget: Budget, per_minute: int, wait: int) -> JSONResponse:
    message = (f"too many {budget.words} from your address (at most {per_minute} a minute): "
               f"try again in {wait} s")
    return JSONResponse({"error": {"code": "rate_limited", "message": message}},
                        status_code=429,
                        headers={"Retry-After": str(wait), "Connection": "close"})


class DoorBudget:
    """Counts each HTTP request against its route's budget before the app sees it; over
    the budget it answers 429 ``rate_limited`` with Retry-After and closes the
    connection (a client that keeps sending must connect again)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        counters = scope["app"].state.hub.counters  # .counters.Counters
        name = budget_of(scope["method"], scope["path"])
        rate = counters.doors[name]
        address = str(scope["client"][0]) if scope.get("client") else "unknown"
        if not await rate.hit(address):
            wait = await rate.retry_after(address)
            await _refusal(BUDGETS[name], rate.per_minute, wait)(scope, receive, send)
            return
        await self.app(scope, receive, send)
