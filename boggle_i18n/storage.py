"""Folders for built lexicons and downloaded sources, and atomic file writes."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import platformdirs

APP = "boggle-i18n"
HOME_ENV = "BOGGLE_I18N_HOME"
CACHE_ENV = "BOGGLE_I18N_CACHE"


def store_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The lexicon store: `override`, else $BOGGLE_I18N_HOME, else the user data folder."""
    if override:
        return Path(override).expanduser()
    env = os.environ.get(HOME_ENV)
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir(APP))


def cache_dir() -> Path:
    """Where downloaded raw word lists are kept: $BOGGLE_I18N_CACHE or the user cache folder."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_cache_dir(APP))


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that readers see the old file or the new one, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    """Atomic UTF-8 text write (see `atomic_write_bytes`)."""
    atomic_write_bytes(path, text.encode("utf-8"))
