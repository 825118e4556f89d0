"""`serve`: the local web page (needs the [web] extra: Starlette and uvicorn)."""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
import webbrowser
from pathlib import Path
from typing import Any

from ..errors import BoggleI18nError
from . import app
from .common import StoreOption, check_store, handle_errors, note
from .errors import os_error_message
from .framework import Option

# Said when the page's links (a challenge, a shared board) can open only here: how to reach a friend instead.
LOOPBACK_LINKS = (
    "Links from this page open only on this machine: for phones on this network use serve --lan; "
    "for a friend anywhere publish boggle-i18n export-web DIR on any static host (docs/web.md)"
)


def _require_web() -> None:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise BoggleI18nError("serve needs the web extra: pip install 'boggle-i18n[web]'") from None


@app.command("serve")
@handle_errors
def serve_cmd(
    host: str = Option("127.0.0.1", "--host", metavar="HOST", help="Address to listen on (0.0.0.0: every one)."),
    port: int = Option(8000, "--port", min=0, max=65535, metavar="PORT", help="Port (0: any free one)."),
    store: Path | None = StoreOption,
    results: Path | None = Option(
        None,
        "--results",
        metavar="DIR",
        help="Your result files (optimize/prove --output), shown in Records beside the shipped records.",
        show_default=False,
    ),
    open_page: bool = Option(False, "--open", help="Open the page in the default browser."),
    allow_host: list[str] = Option(
        [],
        "--allow-host",
        metavar="HOST",
        help="Another host name the page may be reached by (with --host 0.0.0.0: e.g. this machine's LAN name).",
    ),
    lan: bool = Option(
        False,
        "--lan",
        help="Rooms on this network: listen on every address, print the join link and its QR code; other "
        "machines reach only the page and its rooms (docs/web.md, Rooms).",
    ),
) -> None:
    """Serve the web page: solve, play, share, compare and search boards in every language (Ctrl-C stops)."""
    _require_web()
    import uvicorn

    from ..web import create_app
    from ..web.guard import Site
    from ..web.serving import BACKLOG, LISTEN_QUEUE, LogOnce, connection_limit, guarded_protocol

    if results is not None and not results.is_dir():
        raise BoggleI18nError(f"no results folder {results}")
    address = None
    if lan:
        if host not in ("127.0.0.1", "0.0.0.0"):
            raise BoggleI18nError("--lan listens on every address itself: give --lan or --host, not both")
        address = network_address()
        host = "0.0.0.0"
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named: asyncio then sets TCP_NODELAY on each connection (with proto 0 it does not, and every
    # response waits about 40 ms for a delayed ACK between its header and body writes).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise BoggleI18nError(f"cannot listen on {host}:{port}: {os_error_message(exc)}") from None
    except (socket.gaierror, UnicodeError) as exc:  # pragma: no cover - gaierror is an OSError
        sock.close()
        raise BoggleI18nError(f"cannot listen on {host}:{port}: {exc}") from None
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{bound}/"
    for name in allow_host:
        if not name or any(c in name for c in "/:@ \t") or len(name) > 253:
            sock.close()
            raise BoggleI18nError(f"--allow-host takes a host name, not {name[:60]!r}")
    site = Site.network(address, bound, allow_host) if address else Site.serving(host, bound, allow_host)
    check_store(store)  # --store is checked as given; this checks $BOGGLE_I18N_HOME's too, before serving
    join_base = f"http://{address}:{bound}" if address else None
    web_app = create_app(store, results.resolve() if results is not None else None, site=site, join_base=join_base)
    config = uvicorn.Config(
        web_app,
        http=guarded_protocol(connection_limit()),  # bounded connections, a deadline for headers (web/serving.py)
        backlog=BACKLOG,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=5,
    )
    once = LogOnce()
    logging.getLogger("uvicorn.error").addFilter(once)

    class Server(uvicorn.Server):
        """Ctrl-C first stops the running jobs, so their event streams end and every connection closes at once."""

        async def serve(self, sockets: list[socket.socket] | None = None) -> None:
            asyncio.get_running_loop().set_exception_handler(once.loop_error)  # errors once, not per accept
            await super().serve(sockets)

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            for listening in sockets or ():
                listening.listen(LISTEN_QUEUE)  # asyncio accepts BACKLOG at a time; the kernel may queue more

        def handle_exit(self, sig: int, frame: Any) -> None:
            web_app.state.web.jobs.stop_all()
            super().handle_exit(sig, frame)

    server = Server(config)
    if join_base:
        url = f"http://127.0.0.1:{bound}/"
        note(f"boggle-i18n serving {url} and, on this network, {join_base}/ (Ctrl-C stops)")
        note(f"Join link for phones on this network: {join_base}/?view=room")
        _print_qr(f"{join_base}/?view=room")
    else:
        note(f"boggle-i18n serving {url} (Ctrl-C stops)")
        if site.loopback_only:
            note(LOOPBACK_LINKS)
    if open_page:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn shut down gracefully (jobs stopped), then re-raised Ctrl-C: the normal end
        pass
    for line in once.summary():
        note(f"boggle-i18n serve: {line}")
    note("boggle-i18n serve: stopped")


def network_address() -> str:
    """This machine's address on its network: the one its route out would use (a UDP socket is connected,
    which sends nothing), else the host name's address; a loopback-only machine is refused."""
    import ipaddress

    found = None
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never reached, only routed
            found = probe.getsockname()[0]
    except OSError:
        try:
            found = socket.gethostbyname(socket.gethostname())
        except OSError:
            found = None
    if not found or ipaddress.ip_address(found).is_loopback or ipaddress.ip_address(found).is_unspecified:
        raise BoggleI18nError("--lan: this machine has no network address (is it connected to a network?)")
    return str(found)


def _print_qr(url: str) -> None:
    """The join link as a QR code on the terminal (segno, made here: nothing leaves the machine)."""
    import sys

    try:
        import segno
    except ImportError:
        raise BoggleI18nError("serve --lan needs the web extra: pip install 'boggle-i18n[web]'") from None
    segno.make(url, error="m").terminal(out=sys.stderr, compact=True)
