"""The local web app (`boggle-i18n serve`, extra `[web]`): a page and a JSON API over the library.

Starlette and uvicorn are imported only here, so the CLI never pays for them.
"""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
