"""The online game server: ``pegs serve`` (FastAPI, WebSockets, SQLAlchemy, Alembic).

The server is the only authority over its games; the protocol is ``docs/PROTOCOL.md``.
The web stack is imported when ``create_app`` is first asked for, so a light module of
the package (``limits``, for the command line's defaults) loads alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
