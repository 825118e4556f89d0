"""Where the store, the cache and the shipped data are, as plain strings, and the store's lock.

The read path of a cold `solve` (find a language record, a dice set, a lexicon, read them)
needs no `pathlib`: importing it (with `urllib.parse`, `ipaddress`, `fnmatch`) cost about
16 million instructions, an eighth of the library's start-up. The functions here give what
`str(Path(...))` would give; `storage.py` (safe writes, `store_dir`/`cache_dir` as `Path`)
builds on them.
"""

from __future__ import annotations

import errno
import os
import stat
import sys

from .errors import BoggleI18nError, OutputError

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    from types import TracebackType

APP = "boggle-i18n"
HOME_ENV = "BOGGLE_I18N_HOME"
CACHE_ENV = "BOGGLE_I18N_CACHE"


def clean(path: str | os.PathLike[str]) -> str:
    """`str(Path(path))` on POSIX: repeated and trailing slashes and `.` parts dropped, `..` kept."""
    text = os.fspath(path)
    if not text:
        return "."
    root = "//" if text.startswith("//") and not text.startswith("///") else "/" if text.startswith("/") else ""
    return root + "/".join(part for part in text.split("/") if part and part != ".") or "."


def expand(path: str | os.PathLike[str], what: str = "path") -> str:
    """`str(Path(path).expanduser())`, except that a `~user` with no such user (or `~` with no home) is one
    `BoggleI18nError` naming `what` (`$BOGGLE_I18N_HOME`), where pathlib raises a bare RuntimeError."""
    text = clean(path)
    if text.startswith("~"):
        expanded = os.path.expanduser(text)
        if expanded.startswith("~"):
            user = text[1:].partition("/")[0]
            why = f"there is no user {user!r}" if user else "this user has no home folder"
            raise BoggleI18nError(f"{what} {text[:200]!r} cannot be expanded: {why}")
        return clean(expanded)
    return text


def store_folder(override: str | os.PathLike[str] | None = None) -> str:
    """The lexicon store: `override`, else $BOGGLE_I18N_HOME, else the user data folder."""
    if override:
        return expand(override, "lexicon store")
    env = os.environ.get(HOME_ENV)
    if env:
        return expand(env, f"${HOME_ENV}")
    return clean(_user_folder("XDG_DATA_HOME", "~/.local/share", "user_data_dir"))


def cache_folder() -> str:
    """Where downloaded raw word lists and checked parses are kept: $BOGGLE_I18N_CACHE or the user cache folder."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return expand(env, f"${CACHE_ENV}")
    return clean(_user_folder("XDG_CACHE_HOME", "~/.cache", "user_cache_dir"))


def _user_folder(variable: str, default: str, kind: str) -> str:
    """This user's data or cache folder for the app, as platformdirs gives it.

    On Linux that is the XDG rule, applied here: `$variable` when it is an absolute path, else
    `default` in the home folder, then the app's name (`tests/test_folders.py` compares it with
    platformdirs). Importing platformdirs costs about 45 million instructions, more than a third
    of a cold `solve`'s library start-up, so it is imported only elsewhere (macOS, Windows, Android).
    """
    if sys.platform == "linux" and "ANDROID_DATA" not in os.environ:
        base = os.environ.get(variable, "")
        if not os.path.isabs(base):
            base = os.path.expanduser(default)
        return os.path.join(base, APP)
    import platformdirs

    return str(getattr(platformdirs, kind)(APP))


_PACKAGE = os.path.dirname(os.path.realpath(__file__))
_DATA: dict[str, str] = {}


def data_folder(name: str) -> str:
    """The folder of shipped data called `name` ("pipelines" or "lexicons"); see `resources.data_dir`."""
    found = _DATA.get(name)
    if found is None:
        for candidate in (os.path.join(_PACKAGE, "_data", name), os.path.join(os.path.dirname(_PACKAGE), name)):
            if os.path.isdir(candidate):
                found = _DATA[name] = candidate
                break
        else:
            raise BoggleI18nError(f"shipped data folder {name!r} is missing; reinstall boggle-i18n")
    return found


def listed(folder: str, suffix: str) -> dict[str, str]:
    """The entries of `folder` named `*{suffix}`, by name without the suffix, in name order (as `Path.glob`
    and `sorted` list them; an unreadable folder lists nothing, as `glob` does)."""
    try:
        names = os.listdir(folder)
    except OSError:
        return {}
    return {stem(name): os.path.join(folder, name) for name in sorted(names) if name.endswith(suffix)}


def stem(path: str | os.PathLike[str]) -> str:
    """`Path(path).stem`."""
    text = clean(path)
    name = os.path.basename(text) if text != "." else ""  # Path(".") has no name
    dot = name.rfind(".")
    return name[:dot] if 0 < dot < len(name) - 1 else name


class NotRegularFileError(OSError):
    """A FIFO, a device, a socket or a folder where the program reads a file of its own (a manifest, a trie,
    a result, a checkpoint): refused at once, never waited on or read forever (`/dev/zero`)."""


_KINDS = (
    (stat.S_ISREG, "a file"),
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def file_kind(mode: int) -> str:
    """What `mode` is, in words: `a FIFO`, `a character device`, ..."""
    return next((name for test, name in _KINDS if test(mode)), "a special file")


def open_regular(path: str | os.PathLike[str], flags: int = os.O_RDONLY) -> int:
    """An open descriptor of the regular file `path` (following links), or `NotRegularFileError`.

    The one gate before reading a file the program expects to be its own regular file. It opens with
    O_NONBLOCK, so opening a FIFO with no writer does not wait, checks with fstat (the file opened, not a
    name that may change meanwhile), and clears O_NONBLOCK again for the reads. A user's *input* (`score
    BOARDFILE`, `build-lexicon --source`) does not come here: a FIFO or `<(command)` is fine there.
    """
    fd = os.open(path, flags | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = file_kind(mode)
            raise NotRegularFileError(errno.EINVAL, f"{kind}, not a regular file", os.fspath(path))
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_regular(path: str | os.PathLike[str]) -> bytes:
    """The bytes of the regular file `path` (see `open_regular`); OSError (NotRegularFileError) otherwise."""
    fd = open_regular(path)
    try:
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_regular_text(path: str | os.PathLike[str]) -> str:
    """`read_regular` decoded as UTF-8 (UnicodeDecodeError, a ValueError, if it is not)."""
    return read_regular(path).decode("utf-8")


def read_cached(path: str | os.PathLike[str]) -> bytes | None:
    """The bytes of cache file `path`, or None if it is missing, unreadable or not a regular file.

    Opened without blocking and checked to be a regular file before it is read: a FIFO or a device
    planted at a cache path is passed over (the cache then counts as empty), never waited on.
    """
    try:
        return read_regular(path)
    except OSError:
        return None


class _StoreLock:
    def __init__(self, folder: str | os.PathLike[str], shared: bool) -> None:
        self.folder, self.shared, self.fd = folder, shared, -1

    def __enter__(self) -> None:
        import fcntl

        if not self.shared:
            os.makedirs(self.folder, exist_ok=True)
        try:
            self.fd = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0))
        except OSError as exc:
            if self.shared:
                return
            raise OutputError(f"cannot lock {clean(self.folder)}: {exc.strerror or exc}") from None
        try:
            fcntl.flock(self.fd, fcntl.LOCK_SH if self.shared else fcntl.LOCK_EX)
        except BaseException:
            os.close(self.fd)
            raise

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self.fd >= 0:
            os.close(self.fd)  # closing releases the lock
            self.fd = -1


def store_lock(folder: str | os.PathLike[str], shared: bool = False) -> _StoreLock:
    """Hold the store folder's lock (fcntl `flock` on the folder itself): exclusive for writers, shared for readers.

    A build writes its trie and manifest as a pair under the exclusive lock, and a
    load reads the pair under the shared one, so no reader meets one build's trie
    beside another's manifest and two builds of one name never leave such a pair.
    Locking the folder leaves no lock file behind and needs no write permission
    (a read-only store is locked for reading too); the lock is held only for the
    two renames, or the two reads. A reader that cannot open the folder reads unlocked.
    """
    return _StoreLock(folder, shared)


def parent(path: str | os.PathLike[str]) -> str:
    """`str(Path(path).parent)`."""
    text = clean(path)
    head = text.rpartition("/")[0]
    if "/" not in text:
        return "."
    return head if head.strip("/") else text[: len(text) - len(text.lstrip("/"))] or head


def with_suffix(path: str | os.PathLike[str], suffix: str) -> str:
    """`str(Path(path).with_suffix(suffix))` for a path with a file name."""
    text = clean(path)
    head, slash, name = text.rpartition("/")
    return f"{head}{slash}{stem(name)}{suffix}"
