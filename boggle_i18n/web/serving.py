"""How `serve` holds its connections: a bounded number, each with a deadline for its request's headers.

uvicorn (with h11) answers any number of connections and waits forever for a
request's headers, so slow clients ("slowloris": connections that send half a
request and wait) pile up until the process runs out of file descriptors. There
asyncio's accept loop logs a traceback for every retry (95 MB of them in 25 s).
This module bounds all three:

- `GuardedH11Protocol`: uvicorn's h11 protocol with a deadline (`HEADER_SECONDS`)
  from the moment a connection waits for a request until its headers are complete,
  and a cap on open connections: a new connection over the cap closes the oldest
  one that is not in a request (idle, or still sending headers), so a slow client
  can never lock out a normal one; if every connection is busy, the new one gets 503.
- `connection_limit`: the cap, below the file descriptor limit (raised to its hard
  limit first), so accept never fails for want of descriptors.
- `LogOnce`: the event loop's error handler and a filter on uvicorn's error log:
  each kind of error is written once, as one line; repeats are only counted.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import time
from collections import Counter
from typing import Any, TextIO

from uvicorn.protocols.http.h11_impl import H11Protocol

MAX_CONNECTIONS = 128  # open connections at most (a page uses a few; every tab one more for a job's events)
HEADER_SECONDS = 5.0  # from waiting for a request to its complete headers (a browser sends them at once)
FD_MARGIN = 64  # descriptors kept free beyond those open at start: lexicon files, and connections accepted in
# the ticks before the cap closes them (BACKLOG at a time)
BACKLOG = 16  # connections asyncio accepts in one go (its `backlog`), before the cap can act on them
LISTEN_QUEUE = 256  # connections the kernel queues for accept (listen's backlog, set again after asyncio's)

_BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nconnection: close\r\n"
    b'content-length: 58\r\n\r\n{"error": "the server is busy: too many open connections"}'
)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a header deadline and a connection cap (module docstring)."""

    limit: int = MAX_CONNECTIONS
    header_seconds: float = HEADER_SECONDS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._deadline: asyncio.TimerHandle | None = None
        self._waiting_since = time.monotonic()
        super().connection_made(transport)
        self._arm()
        self._make_room()

    def data_received(self, data: bytes) -> None:
        cycle = self.cycle
        super().data_received(data)
        if self.cycle is not cycle and not self._waiting():
            self._disarm()  # a request's headers are complete: the app has it now

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self._waiting() and not self.transport.is_closing():
            self._waiting_since = time.monotonic()
            self._arm()  # waiting for the next request on this connection: the same deadline for its headers

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def handle_websocket_upgrade(self, event: Any) -> None:
        """A room's WebSocket: the connection is the WebSocket protocol's from now on (it counts towards the
        cap as one of `connections`); the header deadline must not close it."""
        self._disarm()
        super().handle_websocket_upgrade(event)

    def _waiting(self) -> bool:
        """Not in a request: waiting for (the rest of) a request's headers, or idle between requests."""
        return self.cycle is None or self.cycle.response_complete

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.header_seconds, self._expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self) -> None:
        self._deadline = None
        if self._waiting() and not self.transport.is_closing():
            self.transport.close()  # headers not complete in time (or idle that long): the connection goes

    def _make_room(self) -> None:
        """Over the cap: close the connections waiting longest for a request; if none waits, refuse this one."""
        excess = len(self.connections) - self.limit
        if excess <= 0:
            return
        waiting = sorted(
            (c for c in self.connections if c is not self and isinstance(c, GuardedH11Protocol) and c._waiting()),
            key=lambda c: c._waiting_since,
        )
        for other in waiting[:excess]:
            other._disarm()
            other.transport.close()
        if excess > len(waiting):
            self.transport.write(_BUSY)
            self.transport.close()


def guarded_protocol(limit: int, header_seconds: float = HEADER_SECONDS) -> type[GuardedH11Protocol]:
    """The protocol class uvicorn is given (`Config(http=...)`), with this server's cap and deadline."""
    return type("GuardedH11Protocol", (GuardedH11Protocol,), {"limit": limit, "header_seconds": header_seconds})


def connection_limit(wanted: int = MAX_CONNECTIONS) -> int:
    """Raise the soft file descriptor limit to the hard one, then the connection cap that stays below it."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard == resource.RLIM_INFINITY or soft < hard:
            target = 65536 if hard == resource.RLIM_INFINITY else hard
            try:
                resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
                soft = target
            except (ValueError, OSError):
                pass
    except ImportError:  # pragma: no cover - not on POSIX
        return wanted
    try:
        in_use = len(os.listdir("/proc/self/fd"))
    except OSError:
        in_use = 64
    return max(4, min(wanted, soft - in_use - FD_MARGIN))


class LogOnce(logging.Filter):
    """Each kind of server error written once, as one line (no traceback); repeats are counted for the summary."""

    def __init__(self, stream: TextIO | None = None) -> None:
        super().__init__()
        self.stream = stream
        self.counts: Counter[str] = Counter()

    def _first(self, key: str) -> bool:
        self.counts[key] += 1
        return self.counts[key] == 1

    def loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """The event loop's exception handler (an accept that failed, a callback that raised)."""
        exc = context.get("exception")
        message = str(context.get("message") or "error in the event loop")
        key = f"{message}: {type(exc).__name__}" if exc is not None else message
        if self._first(key):
            said = f"{message}: {exc}" if exc is not None else message
            stream = self.stream or sys.stderr
            print(f"boggle-i18n serve: {said} (shown once; repeats are counted)", file=stream, flush=True)

    def filter(self, record: logging.LogRecord) -> bool:
        """uvicorn's error log: the first record of each message, without its traceback."""
        if not self._first(str(record.msg)):
            return False
        record.exc_info = None
        record.exc_text = None
        return True

    def summary(self) -> list[str]:
        """One line per error that repeated: how many times in all."""
        return [f"{key}: {n:,} times in all" for key, n in self.counts.items() if n > 1]
