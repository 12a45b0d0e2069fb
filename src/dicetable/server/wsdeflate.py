"""The live WebSocket's permessage-deflate at zlib level :data:`DEFLATE_LEVEL` (``dicetable serve`` uses it).

uvicorn's sans-I/O WebSocket protocol offers permessage-deflate with a
12-bit window and ``memLevel`` 5 at zlib's default level (6). Every change
message is compressed once per connection (each keeps its own context), so
at a busy table deflate is one of the server's largest costs per action.

Level 4 keeps the window, the memory level and everything the client sees
(the extension's parameters), and compresses this project's messages with
12-21% less CPU for 3-5% more bytes (docs/load.md, "Server CPU per
action"): a change message's median stays near one kilobyte, within one TCP
segment, so a phone on a slow network gets its messages as fast, and its
inflate work does not depend on the level. Level 1 (zlib's fastest
strategy) would save a third of the CPU for 17-40% more bytes.
"""

from __future__ import annotations

import logging
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol

#: zlib level of the live WebSocket's permessage-deflate (uvicorn's default: zlib's 6).
DEFLATE_LEVEL = 4

#: What ``dicetable serve`` passes as uvicorn's ``ws`` (an import string, so worker processes load it too).
PROTOCOL = "dicetable.server.wsdeflate:LeveledDeflateProtocol"


class LeveledDeflateProtocol(WebSocketsSansIOProtocol):
    """uvicorn's ``websockets-sansio`` protocol with permessage-deflate at :data:`DEFLATE_LEVEL`; the
    window (12 bits each way) and ``memLevel`` (5) are uvicorn's, and so is everything else."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:
            factory = ServerPerMessageDeflateFactory(server_max_window_bits=12, client_max_window_bits=12,
                                                     compress_settings={"memLevel": 5, "level": DEFLATE_LEVEL})
            self.conn = ServerProtocol(extensions=[factory], max_size=self.config.ws_max_size,
                                       logger=logging.getLogger("uvicorn.error"))
