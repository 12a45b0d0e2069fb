"""Table ids and seat tokens: how they are made, what an id looks like, and how a token is kept (hashed)."""

from __future__ import annotations

import hashlib
import re
import secrets

from dicetable.engine import TABLE_SEED_MAX


def hash_token(token: str) -> str:
    """The hex SHA-256 of a seat token (what the store keeps)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    """A fresh seat token: 128 random bits from ``secrets``, URL-safe text (22 characters)."""
    return secrets.token_urlsafe(16)


#: Largest seed a table accepts (2**64-1: every game seed): the engine's one bound, which the terminal's
#: ``play --seed`` takes too.
MAX_SEED = TABLE_SEED_MAX

TABLE_ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"
#: What any table id looks like (older servers made URL-safe base64 ids): anything else is no table.
TABLE_ID_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,32}")


def new_table_id() -> str:
    """A fresh table id: 14 characters from ``TABLE_ID_ALPHABET`` (about 72 random bits).

    Letters and digits only, so an id is safe wherever it is typed: a URL-safe base64 id could
    start with ``-`` and then read as an option on the command line (``dicetable export -W...``).
    """
    return "".join(secrets.choice(TABLE_ID_ALPHABET) for _ in range(14))
