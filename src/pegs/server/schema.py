"""The database's tables (SQLAlchemy Core), as the migrations in ``migrations/`` make them."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

tables = Table(
    "pegs_tables", metadata,
    Column("code", String(32), primary_key=True),
    Column("settings", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("hints", Boolean, nullable=False),
    Column("status", String(16), nullable=False),
    Column("version", Integer, nullable=False),
    Column("host", Integer, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("public", Boolean, nullable=False),
    Column("creator", String(64), nullable=True),
    Column("turn_seconds", Float, nullable=True),
    Column("away_seconds", Float, nullable=True),
    Column("bot_delay", Float, nullable=True),
    #: the process that runs the table's bots and clocks, and until when (PostgreSQL)
    Column("owner", String(32), nullable=True),
    Column("lease_until", DateTime(timezone=True), nullable=True),
    #: after the end: the seats that agreed to play again ("0,2") and the rematch's code
    Column("rematch_seats", String(32), nullable=True),
    Column("next_code", String(32), nullable=True),
    #: when the clock of the human seat to act at ``version`` ends (Unix time; null: none)
    Column("turn_ends", Float, nullable=True),
    #: the lease's fencing token: raised whenever a process takes the table, checked by
    #: every write its owner makes on the table's behalf
    Column("epoch", Integer, nullable=False, server_default="0"),
    #: table talk: a teaching table (team channel, suggestions), and the seats the host
    #: muted as JSON (-1: spectators, who may not write unless the host lets them)
    Column("teaching", Boolean, nullable=False),
    Column("muted", Text, nullable=False),
    #: a table of house rules: their title, description and saved code (JSON; null: none)
    Column("house", Text, nullable=True),
    #: the number of the table's latest log entry (:data:`entries`)
    Column("log_seq", Integer, nullable=False, server_default="0"),
)

#: the live server processes (PostgreSQL): each renews its row with its leases
servers = Table(
    "pegs_servers", metadata,
    Column("origin", String(32), primary_key=True),
    Column("seen_until", DateTime(timezone=True), nullable=False),
)

#: one row: the oldest release (its newest migration) that may run on this schema
schema = Table(
    "pegs_schema", metadata,
    Column("compatible_from", String(32), nullable=False),
)

seats = Table(
    "pegs_seats", metadata,
    Column("code", String(32), ForeignKey("pegs_tables.code"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("name", String(64), nullable=False),
    Column("kind", String(8), nullable=False),
    Column("token_hash", String(64), nullable=True),
    Column("bot", String(16), nullable=True),
    Column("strength", String(8), nullable=True),
    Column("standin", Boolean, nullable=False),
)

actions = Table(
    "pegs_actions", metadata,
    Column("code", String(32), ForeignKey("pegs_tables.code"), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    #: the stand-in's move for a human whose turn clock ran out
    Column("timed_out", Boolean, nullable=True),
)


#: The release before's chat (now in :data:`entries`; kept while that release may still run).
chat = Table(
    "pegs_chat", metadata,
    Column("code", String(32), ForeignKey("pegs_tables.code"), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, nullable=False),
    Column("channel", String(8), nullable=False),
    Column("name", String(64), nullable=False),
    Column("text", Text, nullable=False),
    Column("phrase", String(16), nullable=True),
    Column("at", DateTime(timezone=True), nullable=False),
)

#: The table log: everything a table says that every process must hear the same, but its
#: moves (those are ``actions``, numbered by version): chat, suggestions, hints given,
#: seats, the start, mutes and the rematch's agreements, numbered in one sequence per table
#: (``pegs_tables.log_seq``), each with the table's version when it was stored.
entries = Table(
    "pegs_log", metadata,
    Column("code", String(32), ForeignKey("pegs_tables.code"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("version", Integer, nullable=False),
    Column("kind", String(16), nullable=False),
    Column("seat", Integer, nullable=True),
    #: a chat's channel: "table", or "team" plus the team's number ("team0")
    Column("channel", String(8), nullable=True),
    Column("body", Text, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
)
