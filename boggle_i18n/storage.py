"""Folders for built lexicons and downloaded sources, and safe file writes.

Store and cache files (`atomic_write_bytes`) are replaced atomically and never
written through a symlink. A user's `--output` (`write_file`) is written the way
a careful user would write it by hand:
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
from pathlib import Path

from .errors import OutputError
from .folders import APP as APP  # where things are, without pathlib (folders.py): re-exported
from .folders import CACHE_ENV as CACHE_ENV
from .folders import HOME_ENV as HOME_ENV
from .folders import cache_folder, store_folder
from .folders import store_lock as store_lock

STDOUT = "-"
# Paths that name an already open descriptor of this process: written into, never replaced.
_DESCRIPTOR_PATH = re.compile(r"/dev/(stdin|stdout|stderr|fd/\d+)|/proc/(self|thread-self|\d+)/fd/\d+")


def store_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The lexicon store: `override`, else $BOGGLE_I18N_HOME, else the user data folder."""
    return Path(store_folder(override))


def cache_dir() -> Path:
    """Where downloaded raw word lists are kept: $BOGGLE_I18N_CACHE or the user cache folder."""
    return Path(cache_folder())


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
    import tempfile  # writers only: reading a store does not load it

    fd, tmp = tempfile.mkstemp(prefix=temp_prefix(path), suffix=".tmp", dir=path.parent)
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


def check_output(output: str | os.PathLike[str] | None) -> None:
    """Raise one `OutputError` now if `output` (a `--output` target) cannot be written: called before the work.

    `-`, a device, a pipe or an open descriptor's path are always fine; otherwise
    the target (a symlink's final target) must not be a folder, and its folder
    must exist and be writable.
    """
    if output is None or str(output) == STDOUT:
        return
    path = Path(output)
    if _is_special(path):
        return
    target = Path(os.path.realpath(path))
    if target.is_dir():
        raise OutputError(f"cannot write {path}: it is a folder")
    if not target.parent.is_dir():
        raise OutputError(f"cannot write {path}: folder {target.parent} does not exist")
    if not os.access(target.parent, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write {path}: folder {target.parent} is not writable")
    if target.exists() and not os.access(target, os.W_OK):
        raise OutputError(f"cannot write {path}: it is not writable")


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """A store or cache file: replaced atomically, never written through a link, with the user's umask.

    Unlike `write_file` (a user's `--output`), a symlink at `path` is never followed:
    the rename replaces the link itself, so a link planted in a store or cache
    cannot make this process overwrite the file it points to. A folder inside the
    store that is itself a link (`compiled/` -> elsewhere) is refused. An existing
    regular file keeps its mode; anything else gets the umask's.
    """
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.parent.is_symlink():
            raise OutputError(f"cannot write {path}: its folder {path.parent} is a symlink")
        try:
            old = os.lstat(path)
        except FileNotFoundError:
            old = None
        if old is not None and stat.S_ISDIR(old.st_mode):
            raise OutputError(f"cannot write {path}: it is a folder")
        tmp = _write_temp(path, data)
        try:
            os.replace(tmp, path)  # replaces a link itself, never its target
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None


def backup_path(path: Path) -> Path:
    """Where `replace_together` keeps the old `path` while it swaps a group: `.NAME.prev` beside it.

    It exists only between the swap's first rename and its last; a reader that
    finds a group torn by a kill -9 in that window finds the old file here.
    """
    return path.with_name(f".{path.name}.prev")


def replace_together(folder: Path, files: list[tuple[Path, bytes]]) -> None:
    """Replace several store files as one: each new file is written whole beside the old, then all are
    renamed in order under the store's exclusive lock; any failure leaves every old file as it was.

    A full disk or a refused write fails while the new files are still temp files
    (the old ones untouched). The old files are hard-linked to `backup_path` before
    the renames, so a rename that fails midway (an immutable manifest: EPERM) is
    rolled back from them; a process killed between two renames leaves the backup,
    which readers use (`lexicon.store.read_checked`). Paths are never followed
    through links (see `atomic_write_bytes`).
    """
    temps: list[tuple[str, Path]] = []
    current: Path | None = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for path, data in files:
            current = path
            if path.parent.is_symlink():
                raise OutputError(f"cannot write {path}: its folder {path.parent} is a symlink")
            if path.is_dir() and not path.is_symlink():
                raise OutputError(f"cannot write {path}: it is a folder")
            temps.append((_write_temp(path, data), path))
        current = None
        with store_lock(folder):
            _swap(temps)
    except OSError as exc:
        where = current or (temps[0][1] if temps else folder)
        raise OutputError(f"cannot write {where}: {exc.strerror or exc}") from None
    finally:
        for tmp, _ in temps:
            Path(tmp).unlink(missing_ok=True)


def _write_temp(path: Path, data: bytes) -> str:
    """A complete, synced temp file beside `path` with the mode `path` has (or the umask's); its name.

    Every store and cache write passes here: it first sweeps the folder of temp files a killed writer left.
    """
    sweep_temps(path.parent)
    try:
        old = os.lstat(path)
    except FileNotFoundError:
        old = None
    regular = old is not None and stat.S_ISREG(old.st_mode)
    mode = stat.S_IMODE(old.st_mode) if old is not None and regular else 0o666 & ~current_umask()
    import tempfile  # writers only: reading a store does not load it

    fd, tmp = tempfile.mkstemp(prefix=temp_prefix(path), suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return tmp


def _swap(temps: list[tuple[str, Path]]) -> None:
    """Rename each temp over its path, keeping the old files as backups until all are in; undo on failure."""
    backups: list[tuple[Path, Path]] = []
    try:
        for _, path in temps:
            if os.path.lexists(path) and stat.S_ISREG(os.lstat(path).st_mode):
                backup = backup_path(path)
                backup.unlink(missing_ok=True)
                try:
                    os.link(path, backup)  # no data copied: the old file under a second name
                except OSError:  # a filesystem without hard links: a copy (a full disk fails here, nothing swapped)
                    import shutil  # rare: not on a cold start's path

                    shutil.copyfile(path, backup)
                backups.append((path, backup))
        done: list[Path] = []
        try:
            for tmp, path in temps:
                os.replace(tmp, path)
                done.append(path)
        except BaseException:
            kept = dict(backups)
            for path in reversed(done):  # put every file already swapped back as it was
                if path in kept:
                    os.replace(kept.pop(path), path)
                else:
                    path.unlink(missing_ok=True)
            raise
        _sync_folder(temps[0][1].parent)
    finally:
        for _, backup in backups:
            backup.unlink(missing_ok=True)


def _sync_folder(folder: Path) -> None:
    """fsync a folder, so its renames survive a power cut (best effort: some filesystems refuse)."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# Temp files: `.NAME.<writer's pid>.<random>.tmp` beside the file they will replace. A writer killed with
# SIGKILL (or the OOM killer) cannot remove its own, so later writers sweep them (`sweep_temps`).
_TEMP = re.compile(r"\.(?P<name>.+?)\.(?:(?P<pid>\d+)\.)?[a-z0-9_]{8}\.tmp")
TEMP_GRACE_SECONDS = 60  # a dead writer's temp younger than this is left (a writer in another PID namespace)
TEMP_MAX_SECONDS = 24 * 3600  # older than this, a temp is swept whoever wrote it (a PID since reused)


def temp_prefix(path: Path) -> str:
    """The start of a temp file's name for `path`: `.NAME.<pid>.`, so a sweep knows whose it is."""
    return f".{path.name}.{os.getpid()}."


def _writer_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: another user's live process
        return True
    return True


def sweep_temps(folder: str | os.PathLike[str], now: float | None = None) -> list[Path]:
    """Remove the temp files in `folder` that no live writer owns; the paths removed (best effort, never raises).

    A temp whose writer's PID is dead and that is older than TEMP_GRACE_SECONDS goes; so does any temp older
    than TEMP_MAX_SECONDS (a PID reused since, or a name without a PID from before PIDs were recorded). A live
    writer's temp is always younger than that: it is written, synced and renamed within one write.
    Only regular files are removed, never through a link.
    """
    import time

    now = time.time() if now is None else now
    removed: list[Path] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in names:
        match = _TEMP.fullmatch(name)
        if match is None:
            continue
        path = Path(folder) / name
        try:
            info = os.lstat(path)
            if not stat.S_ISREG(info.st_mode):
                continue
            age = now - info.st_mtime
            pid = match.group("pid")
            dead = pid is not None and not _writer_alive(int(pid))
            if (dead and age > TEMP_GRACE_SECONDS) or age > TEMP_MAX_SECONDS:
                path.unlink()
                removed.append(path)
        except (OSError, ValueError, OverflowError):
            continue
    return removed


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
