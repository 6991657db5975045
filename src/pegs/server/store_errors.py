"""The errors of the table store (kept apart so the modules that open the database and
those that store in it share them without importing each other)."""

from __future__ import annotations

from sqlalchemy.exc import DBAPIError, OperationalError, SQLAlchemyError


class StoreError(RuntimeError):
    """The database cannot be opened or refused a write."""


class VersionConflict(StoreError):
    """An append found the table at another version (another process stored first)."""


class LeaseLost(StoreError):
    """An owner's write found that this process no longer holds the table's lease at its
    epoch (another process took it, or it ran out): nothing was written."""


class Unavailable(StoreError):
    """The database did not answer or failed (a lost connection, a restart): try again."""


class Refused(StoreError):
    """This process may not write: the schema is not one this release can run on (a later
    release contracted it), or the database refuses its writes (read-only, privileges)."""


def refusal(e: SQLAlchemyError) -> bool:
    """Whether the database answered ``e`` as a refusal (not a lost connection)."""
    return (isinstance(e, DBAPIError) and not isinstance(e, OperationalError)
            and not e.connection_invalidated)
