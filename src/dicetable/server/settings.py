"""The server's protective settings: limits, allowed hosts, the API docs page (docs/security.md).

Every setting is read from the server's environment when the app is built
(``Settings.from_env()``); ``dicetable serve`` options set the same
variables. Per-client limits (rates and caps counted per client address) are
switched off all at once by ``DICETABLE_LIMITS=off`` (a WEB.md contract: load
checks on one machine rely on it; the server warns at start). The other
limits (body size, WebSocket frames, connections per table, one pending hint
per seat) always hold.

==============================  =======  ====================================================
variable                        default  meaning
==============================  =======  ====================================================
``DICETABLE_LIMITS``            ``on``   ``off``: no per-client limit (benchmarks only)
``DICETABLE_CREATE_RATE``       30       table creations per client address per minute
``DICETABLE_RUNNING_TABLES``    100      running tables one client address may have created
``DICETABLE_WS_PER_ADDRESS``    32       live connections per client address
``DICETABLE_WS_PER_TABLE``      64       live connections per table (not per client)
``DICETABLE_MAX_BODY``          16384    largest request body, bytes
``DICETABLE_MAX_FRAME``         4096     largest inbound WebSocket frame, bytes
``DICETABLE_SEND_QUEUE``        64       messages a live connection may be owed; past that (or
                                         the bytes below) its backlog is dropped and it gets
                                         one full view once it has caught up
``DICETABLE_SEND_QUEUE_BYTES``  1048576  bytes a live connection may be owed (1 MiB)
``DICETABLE_ALLOWED_HOSTS``     (none)   more ``host[:port]`` names a browser may come from
``DICETABLE_API_DOCS``          ``off``  ``on``: serve Swagger UI at /api/docs (it loads from a CDN)
``DICETABLE_TELEMETRY``         ``off``  ``on``: FastAPI's OpenTelemetry spans, metrics and logs for
                                         every request (when a provider is configured); off, the
                                         request path never asks OpenTelemetry for its providers
``DICETABLE_ABANDON_AFTER``     1209600  seconds without an action after which a running table is
                                         finished as abandoned (14 days; at least 60)
``DICETABLE_STAND_IN_PACE_MS``  1000     milliseconds a person's seat handed to its bot waits before
                                         each of its moves, so the person can follow it and take the
                                         seat back (0: at once; bot seats always move at once)
==============================  =======  ====================================================
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Mapping

#: The value of ``DICETABLE_LIMITS`` that switches the per-client limits off.
LIMITS_OFF = "off"

#: The warning the server prints at start when the per-client limits are off.
LIMITS_OFF_WARNING = ("WARNING: DICETABLE_LIMITS=off: the per-client limits (table creations per minute, "
                      "running tables and live connections per address) are OFF; use this for load "
                      "benchmarks on one machine only, never on a server others can reach")


class SettingsError(ValueError):
    """An environment variable holds a value the server cannot use; the message names it and what is allowed."""


@dataclass(frozen=True)
class Settings:
    """The protective settings of one server (see the module's table for names and defaults).

    ``per_client`` False means ``DICETABLE_LIMITS=off``. Counts are per
    client address (the TCP peer's address); sizes are in bytes.
    """

    per_client: bool = True
    create_rate: int = 30
    running_tables: int = 100
    ws_per_address: int = 32
    ws_per_table: int = 64
    max_body: int = 16 * 1024
    max_frame: int = 4096
    send_queue: int = 64
    send_queue_bytes: int = 1 << 20
    allowed_hosts: tuple[str, ...] = ()
    api_docs: bool = False
    telemetry: bool = False
    abandon_after: int = 14 * 24 * 3600
    stand_in_pace_ms: int = 1000

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "Settings":
        """The settings given by ``env`` (default ``os.environ``); SettingsError for an unusable value."""
        env = os.environ if env is None else env

        def number(name: str, default: int, low: int = 1) -> int:
            text = env.get(name, "").strip()
            if not text:
                return default
            try:
                value = int(text)
            except ValueError:
                raise SettingsError(f"{name} must be a whole number, got {text!r}") from None
            if value < low:
                raise SettingsError(f"{name} must be {low} or more, got {value}")
            return value

        def switch(name: str, default: bool) -> bool:
            text = env.get(name, "").strip().lower()
            if not text:
                return default
            if text in ("on", "off"):
                return text == "on"
            raise SettingsError(f"{name} is 'on' or 'off', got {text!r}")

        hosts = tuple(h.strip().lower() for h in env.get("DICETABLE_ALLOWED_HOSTS", "").split(",") if h.strip())
        limits = env.get("DICETABLE_LIMITS", "").strip()
        if limits not in ("", "on", LIMITS_OFF):
            raise SettingsError(f"DICETABLE_LIMITS is 'on' (the default) or 'off' (load benchmarks only), "
                                f"got {limits!r}")
        return cls(
            per_client=limits != LIMITS_OFF,
            create_rate=number("DICETABLE_CREATE_RATE", cls.create_rate),
            running_tables=number("DICETABLE_RUNNING_TABLES", cls.running_tables),
            ws_per_address=number("DICETABLE_WS_PER_ADDRESS", cls.ws_per_address),
            ws_per_table=number("DICETABLE_WS_PER_TABLE", cls.ws_per_table),
            max_body=number("DICETABLE_MAX_BODY", cls.max_body, low=1024),
            max_frame=number("DICETABLE_MAX_FRAME", cls.max_frame, low=256),
            send_queue=number("DICETABLE_SEND_QUEUE", cls.send_queue, low=2),
            send_queue_bytes=number("DICETABLE_SEND_QUEUE_BYTES", cls.send_queue_bytes, low=16 * 1024),
            allowed_hosts=hosts,
            api_docs=switch("DICETABLE_API_DOCS", False),
            telemetry=switch("DICETABLE_TELEMETRY", False),
            abandon_after=number("DICETABLE_ABANDON_AFTER", cls.abandon_after, low=60),
            stand_in_pace_ms=number("DICETABLE_STAND_IN_PACE_MS", cls.stand_in_pace_ms, low=0),
        )
