"""The local web app (`boggle-i18n serve`, extra `[web]`): a page and a JSON API over the library.

Starlette and uvicorn are imported only by `create_app` (app.py), so the CLI never pays for them, and the
static site (`export-web`: site.py, export.py, wasmbuild.py) is written without them.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .app import create_app


def __getattr__(name: str) -> object:
    """`create_app`, imported from app.py (and Starlette with it) on first use."""
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(name)


__all__ = ["create_app"]
