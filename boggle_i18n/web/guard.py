"""Who may drive the local server: only its own page (and a user's own tools), never another web site.

A browser lets any page it shows send requests to 127.0.0.1. This ASGI layer,
in front of every route, refuses what another site can make a browser send:

- a `Host` that is not an address this server serves (DNS rebinding: a name the
  attacker controls, resolved to 127.0.0.1, reaches the server under that name);
- an `Origin` other than the server's own, and under /api/ a `Sec-Fetch-Site` of
  `cross-site` or `same-site` (a page elsewhere, or an `<img>` it loads, asking
  for a costly answer or starting a job);
- a POST that is not declared `application/json` (an HTML form or a `text/plain`
  fetch, which browsers send without asking the server first).

Each refusal is one JSON line, `{"error": ...}`, before any route runs: nothing
is read, built, started or written. A WebSocket (a room's page) must name its own
site in `Origin` too, and is refused (closed before it opens) otherwise.

With `serve --lan` (`Site.lan`) the server answers for its network address as well,
and a request from another machine reaches only what a player needs: the page, its
assets, the language list and the rooms (`LAN_PATHS`); everything costly (solve,
search, compare, builds) answers only requests from this machine.
"""

from __future__ import annotations

import ipaddress
import json
import socket
from collections.abc import Iterable
from dataclasses import dataclass, field

from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "[::1]"})
WILDCARDS = frozenset({"", "0.0.0.0", "::", "[::]"})
SAFE_METHODS = frozenset({"GET", "HEAD"})
LAN_PATHS = ("/static/", "/api/rooms/")  # and exactly "/", "/api/languages", "/api/rooms": what a phone needs
LAN_EXACT = frozenset({"/", "/api/languages", "/api/rooms"})


def _ip(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return None


def _host_form(name: str) -> str:
    """A host as it appears in a `Host` header: lower case, no trailing dot, IPv6 in brackets."""
    name = name.strip().lower().rstrip(".")
    address = _ip(name)
    if address is not None and address.version == 6:
        return f"[{address.compressed}]"
    return str(address) if address is not None else name


def _port(text: str | None) -> int | None:
    """A `Host` header's port as a number (80 when there is none), or None when it is no port: only ASCII digits
    name one (`str.isdigit` takes `¹`, `٨` and `８` too, which `int` then reads or fails on), 1..65535."""
    if text is None:
        return 80
    if not (text.isascii() and text.isdigit() and len(text) <= 5):
        return None
    number = int(text)
    return number if 1 <= number <= 65535 else None


@dataclass(frozen=True)
class Site:
    """The addresses a server answers to: the host it listens on (`--host`), its port, and extra names.

    Listening on a loopback address, the loopback names (`localhost`, `127.0.0.1`,
    `[::1]`) are accepted too. Listening on every address (`0.0.0.0`, `::`), any
    IP address is accepted (a DNS rebinding attack needs a name, never an address),
    and so are the loopback names, this machine's host name and `allow` names.
    `port` None accepts any port (a server built in a test, with no socket).
    """

    host: str = "127.0.0.1"
    port: int | None = None
    allow: frozenset[str] = field(default_factory=frozenset)
    lan: bool = False  # `serve --lan`: `host` is the network address; other machines reach only LAN_PATHS

    @classmethod
    def serving(cls, host: str, port: int | None, allow: Iterable[str] = ()) -> Site:
        """The site of a server listening on `host:port`."""
        return cls(host, port, frozenset(_host_form(a) for a in allow))

    @classmethod
    def network(cls, address: str, port: int | None, allow: Iterable[str] = ()) -> Site:
        """`serve --lan`: listening on every address, answering for this network address and the loopback
        names only (never for any IP address: a room's page names one)."""
        names = frozenset(_host_form(a) for a in allow) | LOOPBACK_NAMES
        return cls(address, port, names, lan=True)

    @property
    def loopback_only(self) -> bool:
        """Listening on a loopback address only: no other device can open this server's links."""
        host = _host_form(self.host)
        address = _ip(host)
        return not self.lan and (host == "localhost" or (address is not None and address.is_loopback))

    def names(self) -> frozenset[str]:
        """The host names (without port) this site answers to; `*` stands for any IP address."""
        host = _host_form(self.host)
        names = set(self.allow)
        address = _ip(host)
        if host in WILDCARDS:
            names |= LOOPBACK_NAMES | {"*", _host_form(socket.gethostname())}
        else:
            names.add(host)
            if host == "localhost" or (address is not None and address.is_loopback):
                names |= LOOPBACK_NAMES
        return frozenset(names)

    def accepts(self, value: str, names: frozenset[str] | None = None) -> bool:
        """Whether a `Host` header value names this site (and its port)."""
        names = self.names() if names is None else names
        value = value.strip()
        if value.startswith("["):
            name, _, rest = value.partition("]")
            name, port = name + "]", rest[1:] if rest.startswith(":") else (None if not rest else "bad")
        else:
            name, colon, port_text = value.rpartition(":")
            name, port = (name, port_text) if colon else (value, None)
        number = _port(port)
        if number is None:
            return False
        if self.port is not None and number != self.port:
            return False
        name = _host_form(name)
        if not name:
            return False
        return name in names or ("*" in names and _ip(name) is not None)


class SiteGuard:
    """The ASGI layer that refuses requests another site made a browser send (module docstring)."""

    def __init__(self, app: ASGIApp, site: Site) -> None:
        self.app = app
        self.site = site
        self.names = site.names()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            refusal = self.refusal(scope)
            if refusal is not None:
                status, message = refusal
                if scope["type"] == "websocket":
                    await receive()  # websocket.connect; closing before accepting answers 403
                    await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})
                else:
                    await _refuse(send, status, message)
                return
        await self.app(scope, receive, send)

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        """(status, message) if the request must be refused, else None."""
        headers: dict[str, str] = {}
        for key, value in scope.get("headers", ()):
            name = key.decode("latin-1").lower()
            if name in headers and name in ("host", "origin", "content-type"):
                return 400, f"more than one {name} header"
            headers[name] = value.decode("latin-1")
        host = headers.get("host")
        if host is None:
            return 400, "the request has no Host header"
        if not self.site.accepts(host, self.names):
            return 421, f"this server does not answer for host {host[:80]!r} (see docs/web.md, Security)"
        origin = headers.get("origin")
        socket = scope["type"] == "websocket"
        scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"), scope.get("scheme", "http"))
        if socket and origin is None:
            return 403, "a WebSocket must come from this server's page (no Origin header)"
        if origin is not None and origin.lower().rstrip("/") != f"{scheme}://{host}".lower():
            return 403, f"requests from another site ({origin[:80]!r}) are refused"
        if self.site.lan and not _from_this_machine(scope):
            path = scope.get("path", "")
            if path not in LAN_EXACT and not path.startswith(LAN_PATHS):
                return 403, "from the network this server answers only its rooms (see docs/web.md, Rooms)"
        if socket:
            return None
        fetch_site = headers.get("sec-fetch-site", "").lower()
        api = scope.get("path", "").startswith("/api/")
        unsafe = scope.get("method", "GET") not in SAFE_METHODS
        if fetch_site in ("cross-site", "same-site") and (api or unsafe):
            return 403, f"requests from another site (Sec-Fetch-Site: {fetch_site}) are refused"
        if unsafe:
            kind = headers.get("content-type", "").split(";", 1)[0].strip().lower()
            if kind != "application/json":
                shown = repr(kind[:60]) if kind else "none"
                return 415, f"a POST must be sent as Content-Type: application/json (this one: {shown})"
        return None


def _from_this_machine(scope: Scope) -> bool:
    """A request from a loopback address (the host's own browser), not from another machine on the network."""
    client = scope.get("client")
    address = _ip(str(client[0])) if client else None
    return address is not None and address.is_loopback


async def _refuse(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
