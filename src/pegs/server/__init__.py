"""The online game server: ``pegs serve`` (FastAPI, WebSockets, SQLAlchemy, Alembic).

The server is the only authority over its games; the protocol is ``docs/PROTOCOL.md``.
"""

from .app import create_app

__all__ = ["create_app"]
