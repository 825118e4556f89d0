"""Folders for built lexicons and downloaded sources, and safe file writes.

Files are written the way a careful user would write them by hand:
- a regular file (new or existing) is replaced atomically: readers see the old
  content or the new, never half; a new file gets the user's umask (0666 & ~umask),
  an existing one keeps its mode;
- a symlink is followed: its target is written, the link stays a link;
- anything else (a terminal, `/dev/null`, a pipe) is written through, never replaced;
- `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` and `/proc/self/fd/N` name an open
  descriptor: written through in append mode, so `-o /dev/stdout >> log` appends
  as the shell asked instead of truncating the log or replacing what the link names.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import tempfile
from pathlib import Path

import platformdirs

from .errors import OutputError

APP = "boggle-i18n"
HOME_ENV = "BOGGLE_I18N_HOME"
CACHE_ENV = "BOGGLE_I18N_CACHE"
STDOUT = "-"
# Paths that name an already open descriptor of this process: written into, never replaced.
_DESCRIPTOR_PATH = re.compile(r"/dev/(stdin|stdout|stderr|fd/\d+)|/proc/(self|thread-self|\d+)/fd/\d+")


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


def check_writable_dir(folder: Path, what: str = "folder") -> Path:
    """Raise one clear error unless `folder` is (or can be created as) a writable folder.

    Called before long work (a build) so that a store path that is a file, or a
    folder without write permission, is reported first, naming the folder.
    """
    if folder.exists():
        if not folder.is_dir():
            raise OutputError(f"{what} {folder} is not a folder")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise OutputError(f"{what} {folder} is not writable")
        return folder
    parent = folder.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise OutputError(f"{what} {folder} cannot be created: {parent} is not a folder")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputError(f"{what} {folder} cannot be created: {parent} is not writable")
    return folder


def current_umask() -> int:
    """The process umask (read by setting and restoring it: there is no getter)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _is_special(path: Path) -> bool:
    """True for a target to write through: an open descriptor's path, a device, a pipe or a socket."""
    if _DESCRIPTOR_PATH.fullmatch(os.path.abspath(path)):
        return True
    try:
        mode = os.stat(path).st_mode  # follows symlinks
    except FileNotFoundError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def _write_through(path: Path, data: bytes) -> None:
    with open(path, "ab") as handle:  # append: never truncate what a descriptor path leads to
        handle.write(data)


def _atomic_replace(path: Path, data: bytes) -> None:
    """Write a temp file beside `path` with the right mode, then rename it over `path`."""
    try:
        old = os.stat(path)
    except FileNotFoundError:
        old = None
    mode = stat.S_IMODE(old.st_mode) if old is not None else 0o666 & ~current_umask()
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            if old is not None and (old.st_uid, old.st_gid) != (os.geteuid(), os.getegid()):
                try:  # root rewriting a user's file keeps it theirs
                    os.fchown(handle.fileno(), old.st_uid, old.st_gid)
                except OSError:
                    pass
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_file(path: str | os.PathLike[str], data: bytes, make_parents: bool = False) -> None:
    """Write `data` to `path` safely (see the module docstring); `make_parents` creates missing folders."""
    path = Path(path)
    try:
        if _is_special(path):
            _write_through(path, data)
            return
        target = Path(os.path.realpath(path))  # a symlink's final target (existing or not)
        if target.is_dir():
            raise OutputError(f"cannot write {path}: it is a folder")
        if make_parents:
            target.parent.mkdir(parents=True, exist_ok=True)
        elif not target.parent.is_dir():
            raise OutputError(f"cannot write {path}: folder {target.parent} does not exist")
        _atomic_replace(target, data)
    except OSError as exc:  # name the file the user gave, never the temp file
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Store files: written atomically with the user's umask, creating the store folder if needed."""
    write_file(path, data, make_parents=True)


def atomic_write_text(path: Path, text: str) -> None:
    """Atomic UTF-8 text write (see `atomic_write_bytes`)."""
    atomic_write_bytes(path, text.encode("utf-8"))


def write_output(output: str | os.PathLike[str], text: str) -> None:
    """A command's result: `-` is stdout, anything else goes through `write_file`."""
    if str(output) == STDOUT:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    write_file(output, text.encode("utf-8"))
