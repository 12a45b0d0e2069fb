"""Table chat (the logic is in :mod:`dicetable.server.chat`).

=========================================  ====================================================
``POST /api/tables/{id}/chat``              ``{"text"}``: post a message (a seat with its token,
                                            or a spectator without one); the stored message
``GET  /api/tables/{id}/chat?after=N``      the messages with an id above N, oldest first
=========================================  ====================================================

Every live connection of the table gets each new message as ``{"type": "chat",
"message"}`` (docs/web.md, "Table chat").
"""

from __future__ import annotations

import threading
from typing import Annotated, Optional

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from ..chat import MAX_CHARS, Chat
from .common import Auth, bearer_token, client_address, errors

router = APIRouter()

#: Statuses each chat route may refuse with.
POST_REFUSALS = (400, 401, 403, 404, 409, 413, 415, 422, 429)
READ_REFUSALS = (400, 404, 422)

_LOCK = threading.Lock()


class ChatIn(BaseModel):
    """``POST /api/tables/{id}/chat``: the message (one line, 1 to 300 characters once trimmed)."""

    model_config = ConfigDict(extra="forbid")
    # no max_length here: a schema bound would answer long messages with its own limit, not MAX_CHARS
    # (clean_text refuses them, naming the limit; the body limit bounds what is read at all)
    text: StrictStr = Field(description=f"one line of 1 to {MAX_CHARS} characters")


class ChatMessage(BaseModel):
    """One chat message as stored and pushed."""

    id: int = Field(description="orders the messages (larger is newer)")
    seat: Optional[int] = Field(description="the poster's seat; null for a spectator")
    name: str = Field(description="the seat's name, or 'Spectator'")
    spectator: bool
    account: bool = Field(default=False, description="true when 'name' is the name of the account holding the "
                                                      "seat (pages mark it apart from free seat names)")
    text: str = Field(description="plain text: show it as text, never as HTML")
    at: str = Field(description="when it was posted, ISO 8601 UTC")


class ChatPage(BaseModel):
    """``GET /api/tables/{id}/chat``: messages oldest first, and the longest message allowed."""

    messages: list[ChatMessage]
    max_chars: int


def chat_of(request: Request) -> Chat:
    """The app's :class:`Chat` (made on first use, over the app's table manager)."""
    state = request.app.state
    with _LOCK:
        chat = getattr(state, "chat", None)
        if chat is None or chat.manager is not state.manager:
            chat = state.chat = Chat(state.manager)
        return chat


@router.post("/api/tables/{table_id}/chat", responses=errors(POST_REFUSALS))
def post_chat(table_id: str, body: ChatIn, request: Request, authorization: Auth = None) -> ChatMessage:
    """Post a chat message at the table: as the token's seat, or without a token as a spectator
    (marked so). One line of 1 to 300 characters; at most 5 messages per 10 s per poster (429)."""
    chat = chat_of(request)
    lt = chat.manager.get(table_id)
    seat = chat.manager.seat_of(lt, bearer_token(authorization))
    return ChatMessage(**chat.post(table_id, seat, body.text, client_address(request.client)))


@router.get("/api/tables/{table_id}/chat", responses=errors(READ_REFUSALS))
def get_chat(table_id: str, request: Request, after: Annotated[int, Query(ge=0, le=2**62)] = 0) -> ChatPage:
    """The table's chat messages with an id above ``after``, oldest first (the newest 200 of them)."""
    messages = chat_of(request).messages(table_id, after)
    return ChatPage(messages=[ChatMessage(**m) for m in messages], max_chars=MAX_CHARS)
