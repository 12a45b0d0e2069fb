"""The app's gzip middleware sends exactly what Starlette's GZipMiddleware sends, for every kind of answer.

``SmallFirstGZip`` only skips setting up Starlette's responder for a complete
answer under the minimum size; the ASGI messages the server sends must be the
same message for message (headers, bodies, compressed bytes) as with
Starlette's middleware, whatever the request accepts and the answer is.
"""

from __future__ import annotations

import gzip

from hypothesis import given, settings, strategies as st
from starlette.middleware.gzip import GZipMiddleware

from dicetable.server.app import GZIP_LEVEL, GZIP_MINIMUM
from dicetable.server.gzipping import SmallFirstGZip

from .helpers import in_fresh_loop


def _answer(messages: list[dict]):
    """An ASGI app that sends fresh copies of ``messages`` (the middlewares may change what they are given)."""
    async def app(scope, receive, send):
        for message in messages:
            copy = dict(message)
            if "headers" in copy:
                copy["headers"] = list(copy["headers"])
            await send(copy)
    return app


def _sent(middleware, messages: list[dict], accept: bytes | None) -> list[dict]:
    """What ``middleware`` (wrapping an app that sends ``messages``) sends for one GET."""
    out: list[dict] = []
    headers = [(b"accept-encoding", accept)] if accept is not None else []
    scope = {"type": "http", "method": "GET", "path": "/", "headers": headers}

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        out.append(message)

    app = middleware(_answer(messages), minimum_size=GZIP_MINIMUM, compresslevel=GZIP_LEVEL)
    in_fresh_loop(lambda: app(scope, receive, send))
    return out


def _start(content_type: bytes = b"application/json", status: int = 200, extra=(), trailers=False) -> dict:
    message = {"type": "http.response.start", "status": status,
               "headers": [(b"content-type", content_type), *extra]}
    if trailers:
        message["trailers"] = True
    return message


def _body(data: bytes, more: bool = False) -> dict:
    return {"type": "http.response.body", "body": data, "more_body": more}


ACCEPTS = [None, b"gzip", b"gzip, deflate, br", b"identity", b"deflate"]


@settings(max_examples=150, deadline=None)
@given(size=st.integers(0, 3 * GZIP_MINIMUM), accept=st.sampled_from(ACCEPTS),
       content_type=st.sampled_from([b"application/json", b"text/html; charset=utf-8", b"image/png"]),
       status=st.sampled_from([200, 206, 409]), encoded=st.booleans())
def test_one_body_answers_are_sent_as_starlette_sends_them(size, accept, content_type, status, encoded):
    extra = [(b"content-encoding", b"br")] if encoded else []
    messages = [_start(content_type, status, extra), _body(b'{"k":"' + b"ab" * (size // 2) + b'"}')]
    assert _sent(SmallFirstGZip, messages, accept) == _sent(GZipMiddleware, messages, accept)


@settings(max_examples=60, deadline=None)
@given(first=st.integers(0, 2 * GZIP_MINIMUM), rest=st.lists(st.integers(0, GZIP_MINIMUM), max_size=3),
       accept=st.sampled_from(ACCEPTS))
def test_streamed_answers_are_sent_as_starlette_sends_them(first, rest, accept):
    sizes = [first, *rest]
    messages = [_start(b"text/plain")] + [_body(b"x" * n, more=i < len(sizes) - 1) for i, n in enumerate(sizes)]
    assert _sent(SmallFirstGZip, messages, accept) == _sent(GZipMiddleware, messages, accept)


def test_answers_at_the_minimum_size_are_sent_as_starlette_sends_them():
    for size in (GZIP_MINIMUM - 1, GZIP_MINIMUM, GZIP_MINIMUM + 1):
        messages = [_start(), _body(b"q" * size)]
        for accept in (b"gzip", None):
            assert _sent(SmallFirstGZip, messages, accept) == _sent(GZipMiddleware, messages, accept)
    assert dict(_sent(SmallFirstGZip, [_start(), _body(b"q" * GZIP_MINIMUM)], b"gzip")[0]["headers"])[
        b"content-encoding"] == b"gzip"  # the minimum itself is compressed


def test_a_small_answer_is_sent_unchanged_and_a_large_one_gzipped():
    small = [_start(), _body(b'{"version":3,"undos":0}')]
    sent = _sent(SmallFirstGZip, small, b"gzip")
    assert [m["type"] for m in sent] == ["http.response.start", "http.response.body"]
    assert sent[0]["headers"] == [(b"content-type", b"application/json")]  # no Content-Encoding, no Vary
    assert sent[1]["body"] == b'{"version":3,"undos":0}'
    large = b'{"log":"' + b"a rolled 6. " * 100 + b'"}'
    sent = _sent(SmallFirstGZip, [_start(), _body(large)], b"gzip")
    headers = dict(sent[0]["headers"])
    assert headers[b"content-encoding"] == b"gzip" and headers[b"vary"] == b"Accept-Encoding"
    assert gzip.decompress(sent[1]["body"]) == large
    assert int(headers[b"content-length"]) == len(sent[1]["body"]) < len(large)


def test_trailers_and_early_hints_pass_as_with_starlette():
    trailers = {"type": "http.response.trailers", "headers": [(b"x-check", b"1")], "more_trailers": False}
    hint = {"type": "http.response.early_hint", "links": ["</static/web/table.css>; rel=preload"]}
    for messages in ([_start(trailers=True), _body(b"{}"), trailers],
                     [hint, _start(), _body(b"{}")],
                     [_start(trailers=True), _body(b"z" * 2000), trailers]):
        for accept in (b"gzip", None):
            assert _sent(SmallFirstGZip, messages, accept) == _sent(GZipMiddleware, messages, accept)


def test_other_scopes_pass_through():
    seen = []

    async def app(scope, receive, send):
        seen.append(scope["type"])

    async def nothing():
        return {}

    in_fresh_loop(lambda: SmallFirstGZip(app)({"type": "lifespan"}, nothing, nothing))
    assert seen == ["lifespan"]
