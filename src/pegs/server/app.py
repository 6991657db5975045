"""The application factory: FastAPI with the HTTP API, the WebSocket and the page."""

from __future__ import annotations

import asyncio
import logging
import mimetypes
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import platformdirs
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import api, chat_route, health, house_api, rematch, summary, ws
from .database import migrate, open_engine
from .doors import DoorBudget, unbudgeted
from .expiry import cutoff, delete_waiting
from .forwarded import AddressCheck
from .hub import Hub
from .limits import Limits
from .rooms import TableError
from .store import Store
from .store_errors import StoreError

log = logging.getLogger("pegs.server")

#: The browser page's files, served at ``/`` when present.
STATIC = Path(__file__).resolve().parent.parent / "web" / "static"


def data_dir() -> Path:
    """Where the embedded database lives: ``PEGS_DATA_DIR`` or the user's data folder."""
    folder = os.environ.get("PEGS_DATA_DIR") or platformdirs.user_data_dir("pegs", False)
    return Path(folder)


def default_database_url() -> str:
    """``PEGS_DATABASE_URL``, else a SQLite file in :func:`data_dir` (created if needed;
    a ``PEGS_DATA_DIR`` whose parent folder does not exist is refused, as ``--database-url``
    in a missing folder is, with :class:`StoreError`)."""
    url = os.environ.get("PEGS_DATABASE_URL")
    if url:
        return url
    folder = data_dir()
    if os.environ.get("PEGS_DATA_DIR") and not folder.absolute().parent.is_dir():
        raise StoreError(f"PEGS_DATA_DIR={folder}: no such folder "
                         f"{folder.absolute().parent} (the data folder is made only in an "
                         "existing one)")
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'pegs.db'}"


class BodyTooLarge(HTTPException):
    """A request body went over the limit while it was being read (an HTTP error, so the
    body parser passes it on as it is)."""

    def __init__(self) -> None:
        super().__init__(413)


class BodyLimit:
    """Refuses request bodies over ``max_body`` bytes: at once by their Content-Length, and
    by counting the bytes as they arrive (a chunked body announces no length)."""

    def __init__(self, app: ASGIApp, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length", b"0")
        if not length.isdigit() or int(length) > self.max_body:
            response = _error(413, "too_large",
                              f"request bodies are at most {self.max_body} bytes")
            await response(scope, receive, send)
            return
        received = 0

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    raise BodyTooLarge
            return message

        await self.app(scope, counted, send)


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def _validation_message(e: RequestValidationError) -> str:
    parts = []
    for err in e.errors()[:5]:
        if err.get("type") == "json_invalid":
            return "the body is not valid JSON"
        where = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
        parts.append(f"{where}: {err.get('msg', 'invalid')}" if where else err.get("msg", ""))
    return "; ".join(parts) or "invalid request"


def create_app(
    database_url: str | None = None,
    *,
    bot_delay: float = 0.5,
    hint_seconds: float = 1.0,
    limits: Limits | None = None,
    static_dir: Path | None = STATIC,
    full_gc_seconds: float | None = None,
) -> FastAPI:
    """The server.  The database is migrated and every unfinished game resumed at start.
    ``full_gc_seconds``: collect all cyclic garbage this often (for a process that has
    raised its garbage-collection thresholds)."""
    url = database_url or default_database_url()
    engine = open_engine(url)
    bounds = limits or Limits()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        migrate(engine)
        store = Store(engine, lease_seconds=bounds.lease_seconds)
        hub = Hub(store, bounds, bot_delay, hint_seconds, full_gc_seconds)
        app.state.hub = hub
        expired = await hub.run_db(delete_waiting, store, cutoff(hub.services))
        if expired:
            log.info("%d waiting tables expired while the server was down", len(expired))
        await hub.resume()
        try:
            yield
        finally:
            await hub.close()
            engine.dispose()

    app = FastAPI(
        title="Pegs & Jokers server",
        description="Tables, seats and live play; the WebSocket protocol is in "
                    "docs/PROTOCOL.md.",
        lifespan=lifespan,
    )
    app.state.creating = asyncio.Lock()

    max_body = bounds.max_body_bytes
    app.add_middleware(BodyLimit, max_body=max_body)
    app.add_middleware(DoorBudget)  # counted before the body is read
    app.add_middleware(AddressCheck)

    @app.exception_handler(BodyTooLarge)
    async def too_large(_request: Request, _e: BodyTooLarge) -> JSONResponse:
        return _error(413, "too_large", f"request bodies are at most {max_body} bytes")

    @app.exception_handler(TableError)
    async def table_error(_request: Request, e: TableError) -> JSONResponse:
        response = _error(e.status, e.code, e.message)
        if isinstance(e, api.RateLimited):
            response.headers["Retry-After"] = str(e.retry_after)
        return response

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, e: RequestValidationError) -> JSONResponse:
        return _error(422, "invalid", _validation_message(e))

    @app.exception_handler(HTTPException)
    async def http_error(_request: Request, e: HTTPException) -> JSONResponse:
        if e.status_code == 400 and e.__cause__ is not None:  # the body parser gave up
            return _error(400, "malformed", "the body is JSON nested too deeply"
                          if isinstance(e.__cause__, RecursionError)
                          else "the body is not JSON this server can read")
        code = {404: "not_found", 405: "method_not_allowed"}.get(e.status_code, "http_error")
        return _error(e.status_code, code, str(e.detail))

    @app.exception_handler(Exception)
    async def crashed(_request: Request, e: Exception) -> JSONResponse:
        log.exception("request failed", exc_info=e)
        return _error(500, "internal", "the server could not handle that request")

    app.include_router(health.router)
    app.include_router(api.router)
    app.include_router(house_api.router)
    app.include_router(rematch.router)
    app.include_router(summary.router)
    app.include_router(chat_route.router)
    app.include_router(ws.router)
    if static_dir is not None and (static_dir / "index.html").is_file():
        mimetypes.add_type("text/javascript", ".js")  # whatever the system's table says
        index = static_dir / "index.html"

        @app.get("/t/{code}", include_in_schema=False)
        async def share_link(code: str) -> FileResponse:
            return FileResponse(index)

        app.mount("/", StaticFiles(directory=static_dir, html=True), name="page")
    missing = unbudgeted(app.routes)
    if missing:
        raise RuntimeError(f"routes without a budget in pegs.server.doors: {missing}")
    return app
