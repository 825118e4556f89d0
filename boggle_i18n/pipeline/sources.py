"""Finding a recipe's raw word list: a local file, the download cache, a system list, a download.

The order is fixed: `--source` first, then a cached download whose sha256 matches
the recipe, then an installed system list (Debian's `wdutch` puts OpenTaal at
/usr/share/dict/dutch), and last a checksummed download into the cache.

A recipe may also name a spell-checker dictionary and a tool that expands it into
every word form (`expand = "hunspell"` for a Hunspell .dic/.aff read by the project's own
expander, pipeline/affixes.py, in this process; `"unmunch"` for Hunspell's tool, `"aspell"`
for an aspell dictionary): a tool runs as a subprocess, and either output is streamed
like a file, so the expanded list is never written to disk or held in memory.
"""

from __future__ import annotations

import codecs
import hashlib
import os
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, BinaryIO

from ..errors import NoSourceError, SourceError
from ..folders import expand
from ..limits import MAX_SOURCE_ENTRY_BYTES, MAX_SOURCE_LINES, clip
from ..storage import cache_dir
from .recipe import Recipe, SourceSpec

OFFLINE_ENV = "BOGGLE_I18N_OFFLINE"
DOWNLOAD_TIMEOUT = 30
CHUNK = 1 << 20  # bytes read at a time: memory stays flat whatever the list's size
# How long a named pipe is given for its writer to open it (`cat list > f & build-lexicon --source f`: the
# shell may start `cat` after the build opens f). Read before any writer came, a pipe is at its end at once.
PIPE_WRITER_WAIT = 5.0
MAX_ENTRY_BYTES = MAX_SOURCE_ENTRY_BYTES  # one entry (line) of a source, before decoding
MAX_SOURCE_ENTRIES = MAX_SOURCE_LINES  # entries in one source


@dataclass
class ResolvedSource:
    """Where a word list is and what it is; its bytes are read (and hashed) only by `lines`.

    `sha256` is known up front for a cached or downloaded list (it was checked);
    for a local file or system list it is filled in by the streaming read.
    """

    kind: str  # "file", "cache", "system" or "download"
    path: Path
    name: str
    version: str | None
    url: str | None
    sha256: str | None
    size: int = field(default=0)
    package: str | None = None  # the Debian package of a system list
    upstream: str | None = None  # where the list is maintained (the recipe's `upstream`)
    expansion: Expansion | None = None  # set when the words come from expanding a dictionary

    def _stream(self) -> Any:
        """A context manager giving a binary handle on the raw bytes (a file, or a tool's output)."""
        if self.expansion is not None:
            return self.expansion.run()
        return _open(self.path)

    def lines(self, encoding: str, progress: Callable[[int, int], None] | None = None) -> Iterator[str]:
        """The entries, one per line, split on newline (b"\\n") only; hashes the bytes on the way.

        Only LF ends an entry: U+0085, U+2028 or a Latin-1 0x85 byte inside an
        entry stay in it (str.splitlines would split there). A byte the declared
        encoding cannot decode stops the read with its value and file offset.
        `progress(bytes_read, total_bytes)` is called once per chunk.
        """
        _check_encoding(encoding)
        digest = hashlib.sha256()
        total = 0 if self.expansion else _size(self.path)
        # aspell's `expand` prints a root's forms on one line separated by spaces: one entry each.
        split_spaces = self.expansion is not None and self.expansion.tool == "aspell"
        offset = 0  # file offset of `pending`'s first byte
        pending = bytearray()  # the unfinished entry: only ever appended to, so a long line costs linear time
        entries = 0
        with self._stream() as handle:
            while chunk := handle.read(CHUNK):
                digest.update(chunk)
                parts = (chunk.replace(b" ", b"\n") if split_spaces else chunk).split(b"\n")
                if len(parts) > 1:
                    parts[0] = bytes(pending) + parts[0]
                    pending = bytearray(parts.pop())
                    entries += len(parts)
                    if entries > MAX_SOURCE_ENTRIES:
                        raise SourceError(
                            f"source {self.path} has more than {MAX_SOURCE_ENTRIES:,} entries, the most a list may "
                            "hold (docs/limits.md)"
                        )
                    for raw in parts:
                        if len(raw) > MAX_ENTRY_BYTES:
                            raise _long_entry(self.path, offset)
                        yield _decode_line(raw, encoding, offset, self.path)
                        offset += len(raw) + 1
                else:
                    pending += parts[0]
                if len(pending) > MAX_ENTRY_BYTES:  # said before the rest of the line is read
                    raise _long_entry(self.path, offset)
                if progress:
                    progress(offset + len(pending), total)
        if pending:
            yield _decode_line(bytes(pending), encoding, offset, self.path)
            offset += len(pending)
        sha = digest.hexdigest()
        if self.sha256 is not None and sha != self.sha256:
            raise SourceError(f"source {self.path} changed while it was read (sha256 {sha[:16]}...)")
        self.sha256, self.size = sha, offset

    def own_list(self, spec: SourceSpec) -> bool:
        """Whether this is a list the user gave (`--source`) that is not the recipe's own, told by its sha256.

        Called after `lines` has been read through (a local file's sha256 is known only then). A copy of the
        recipe's checksummed list (what a fetched test list is) takes the recipe's name, version and URL.
        """
        if self.kind != "file":
            return False
        if spec.sha256 is None or self.sha256 != spec.sha256:
            return True
        self.name, self.version, self.url, self.upstream = spec.name, spec.version, spec.url, spec.upstream
        return False

    def to_dict(self) -> dict[str, object]:
        """JSON form for the manifest (after `lines` has been read through)."""
        return {
            "kind": self.kind,
            "path": str(self.path),
            "name": self.name,
            "version": self.version,
            "url": self.url,
            "sha256": self.sha256,
            "bytes": self.size,
            "package": self.package,
            "upstream": self.upstream,
            **({"expanded": self.expansion.to_dict()} if self.expansion else {}),
        }


@dataclass
class Expansion:
    """A dictionary expanded into all its word forms by a tool: what runs, on which files.

    `sha256` of the resolved source is then that of the tool's output (the forms,
    in its order); `inputs` records the dictionary files' own sha256.
    """

    tool: str  # "hunspell" (pipeline/affixes.py, in process), "unmunch" or "aspell"
    command: list[list[str]]  # one argv per process of the pipe
    tool_package: str | None
    tool_version: str | None
    inputs: dict[str, str]
    flatten: tuple[Path, Path] | None = None  # (dic, aff) rewritten by hunspell.flatten before unmunch reads them
    depth: Any = None  # affixes.Depth of the in-process expander (tool "hunspell")

    def to_dict(self) -> dict[str, object]:
        """JSON form, in the manifest's `source.expanded`."""
        return {
            "tool": self.tool,
            "command": " | ".join(" ".join(argv) for argv in self.command),
            "tool_package": self.tool_package,
            "tool_version": self.tool_version,
            "inputs": self.inputs,
            "flattened": self.flatten is not None,
            **(
                {
                    "depth": {
                        "suffixes": self.depth.suffixes,
                        "prefixes": self.depth.prefixes,
                        "skip_flags": sorted(self.depth.exclude),
                        **({"prefix_letters": self.depth.prefix_letters} if self.depth.prefix_letters else {}),
                        **({"suffix_letters": self.depth.suffix_letters} if self.depth.suffix_letters else {}),
                        **({"skip_affixes": sorted(self.depth.exclude_affixes)} if self.depth.exclude_affixes else {}),
                    }
                }
                if self.depth is not None
                else {}
            ),
        }

    @contextmanager
    def run(self) -> Iterator[IO[bytes]]:
        """Start the pipe; yield the last process's stdout; a tool that fails is one clear error.

        Their stderr goes to temporary files (unmunch logs every affix line it
        parses there), read back only to quote the last line of a failure. A
        consumer that stops early kills the pipe.
        """
        if self.tool == "hunspell":
            from .affixes import FormReader, expand

            dic, aff = (Path(p) for p in self.inputs)
            with FormReader(expand(dic, aff, self.depth)) as reader:
                yield reader  # type: ignore[misc]
            return
        procs: list[subprocess.Popen[bytes]] = []
        errs = [tempfile.TemporaryFile() for _ in self.command]
        folder = tempfile.TemporaryDirectory(prefix="boggle-i18n-flat-")
        command = self.command
        try:
            if self.flatten is not None:
                from .hunspell import flatten

                flat_dic, flat_aff = flatten(*self.flatten, Path(folder.name))
                command = [[self.command[0][0], str(flat_dic), str(flat_aff)]]
            stdin: IO[bytes] | None = None
            for argv, err in zip(command, errs, strict=True):
                try:
                    proc = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.PIPE, stderr=err)
                except OSError as exc:
                    raise SourceError(f"cannot run {argv[0]}: {exc.strerror}") from None
                if stdin is not None:
                    stdin.close()  # the next process holds it now
                stdin = proc.stdout
                procs.append(proc)
            assert stdin is not None
            yield stdin
            for proc, err, argv in zip(procs, errs, command, strict=True):
                if proc.wait() != 0:
                    err.seek(0)
                    lines = err.read().decode("utf-8", "replace").strip().splitlines()
                    last = lines[-1] if lines else "no message"
                    raise SourceError(f"{' '.join(argv)} failed (exit {proc.returncode}): {last}")
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
                if proc.stdout is not None:
                    proc.stdout.close()
            for err in errs:
                err.close()
            folder.cleanup()


def _expansion(spec: SourceSpec, dictionary: Path) -> Expansion:
    """The tool pipe that expands `dictionary` (checked: the tool is installed, the files readable)."""
    tool = spec.expand or ""
    if tool == "hunspell":
        return _own_expansion(spec, dictionary)
    exe = shutil.which("unmunch" if tool == "unmunch" else "aspell")
    if exe is None:
        pkg = f" (apt-get install {spec.tool_package})" if spec.tool_package else ""
        raise SourceError(f"expanding {dictionary} needs the {tool} tool{pkg}")
    if tool == "unmunch":
        aff = dictionary.with_suffix(".aff")
        _check_readable(aff)
        inputs = [dictionary, aff]
        # flattened: unmunch reads the rewritten pair, made in a temporary folder when the pipe starts
        command = [[exe, "flat.dic", "flat.aff"]] if spec.flatten else [[exe, str(dictionary), str(aff)]]
    else:
        name = spec.dictionary or ""
        inputs = [dictionary]
        command = [
            [exe, "--encoding=utf-8", f"--dict-dir={dictionary.parent}", "-d", name, "dump", "master"],
            [exe, "--encoding=utf-8", f"--dict-dir={dictionary.parent}", f"--lang={name}", "expand"],
        ]
    return Expansion(
        tool=tool,
        command=command,
        tool_package=spec.tool_package,
        tool_version=_package_version(spec.tool_package),
        inputs={str(p): file_sha256(p) for p in inputs},
        flatten=(dictionary, inputs[1]) if spec.flatten else None,
    )


def _own_expansion(spec: SourceSpec, dic: Path) -> Expansion:
    """The project's expander on a .dic and the .aff beside it, to the recipe's depth."""
    from .. import __version__
    from .affixes import Depth

    aff = dic.with_suffix(".aff")
    _check_readable(aff)
    depth = Depth(
        spec.suffix_levels,
        spec.prefix_levels,
        frozenset(spec.skip_flags),
        spec.prefix_letters,
        spec.suffix_letters,
        frozenset(spec.skip_affixes),
    )
    argv = ["boggle_i18n.pipeline.affixes", str(dic), str(aff)]
    argv += [f"--suffixes={depth.suffixes}", f"--prefixes={depth.prefixes}"]
    argv += [f"--exclude={','.join(sorted(depth.exclude))}"] if depth.exclude else []
    argv += [f"--prefix-letters={depth.prefix_letters}"] if depth.prefix_letters else []
    argv += [f"--suffix-letters={depth.suffix_letters}"] if depth.suffix_letters else []
    argv += [f"--exclude-affixes={','.join(sorted(depth.exclude_affixes))}"] if depth.exclude_affixes else []
    return Expansion(
        tool="hunspell",
        command=[argv],
        tool_package=None,
        tool_version=f"boggle-i18n {__version__}",
        inputs={str(p): file_sha256(p) for p in (dic, aff)},
        depth=depth,
    )


def _check_encoding(encoding: str) -> None:
    """Entries are split on the byte 0x0a, so the encoding must be a text encoding that reads every ASCII byte
    as itself (UTF-8, Latin-1, cp1252 ...): not rot13, hex or base64 (bytes-to-bytes codecs), UTF-16 or UTF-7."""
    try:
        info = codecs.lookup(encoding)
    except (LookupError, ValueError, TypeError):
        raise SourceError(f"unknown encoding {clip(str(encoding), 40)!r}") from None
    if not getattr(info, "_is_text_encoding", True):
        raise SourceError(f"{clip(encoding, 40)!r} is not a text encoding; name the list's character set (utf-8 ...)")
    ascii_bytes = bytes(range(128))
    try:
        same = ascii_bytes.decode(encoding) == ascii_bytes.decode("ascii")
    except (UnicodeError, ValueError, TypeError, LookupError):
        same = False
    if not same:
        raise SourceError(f"encoding {encoding!r} is not ASCII-compatible; convert the list to UTF-8 first")


def _long_entry(path: Path, offset: int) -> SourceError:
    return SourceError(
        f"source {path} has an entry longer than {MAX_ENTRY_BYTES:,} bytes at offset {offset:,}; "
        "is it a word list? (docs/limits.md)"
    )


def _decode_line(raw: bytes, encoding: str, offset: int, path: Path) -> str:
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as exc:
        raise SourceError(
            f"source {path} is not valid {encoding}: byte 0x{raw[exc.start]:02x} at offset {offset + exc.start} "
            "(set `encoding` in the recipe or pass --encoding)"
        ) from None
    except (UnicodeError, ValueError) as exc:  # a codec's own complaint about a whole entry
        raise SourceError(f"source {path} is not valid {encoding} at offset {offset}: {clip(str(exc), 60)}") from None


def _open(path: Path) -> BinaryIO:
    """The source opened for reading: a regular file, or a pipe streamed once (never a device).

    A named pipe is opened without blocking, then given PIPE_WRITER_WAIT seconds for a writer to open it
    and send something or hang up: with none, it reads as empty (one error) instead of hanging, and a
    writer that starts a moment after the build is read in full (before, it could read as empty).
    """
    try:
        mode = _kind(path)
        if mode == "pipe":
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
            try:
                import select

                waiting = select.poll()
                waiting.register(fd, select.POLLIN)  # data, or POLLHUP when a writer came and went
                waiting.poll(int(PIPE_WRITER_WAIT * 1000))
                os.set_blocking(fd, True)  # a writer that is there is then waited for as usual
            except BaseException:
                os.close(fd)
                raise
            return os.fdopen(fd, "rb")
        return path.open("rb")
    except FileNotFoundError:
        raise SourceError(f"source file {path} not found") from None
    except IsADirectoryError:
        raise SourceError(f"source {path} is a folder, not a word list") from None
    except OSError as exc:
        raise SourceError(f"cannot read source {path}: {exc.strerror}") from None


def _kind(path: Path) -> str:
    """ "file", "pipe" or "folder"; a device or socket is refused with one error (/dev/zero never ends)."""
    st = os.stat(path)  # FileNotFoundError and the like are reported by the caller
    if stat.S_ISREG(st.st_mode):
        return "file"
    if stat.S_ISFIFO(st.st_mode):
        return "pipe"
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(path)
    what = "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else "not a file"
    raise SourceError(f"source {path} is {what}, not a word list; save the list to a file or pipe it in")


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _check_readable(path: Path) -> None:
    """Fail now (not mid-build) if `path` cannot be opened. A pipe is only checked, not opened: opening and
    closing it would cut off the writer waiting on it."""
    try:
        if _kind(path) == "pipe":
            if not os.access(path, os.R_OK):
                raise PermissionError(13, "Permission denied", str(path))
            return
    except (FileNotFoundError, IsADirectoryError, PermissionError):
        pass  # _open names these
    _open(path).close()


def file_sha256(path: Path) -> str:
    """sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with _open(path) as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _cached_path(recipe: Recipe) -> Path | None:
    spec = recipe.source
    if not spec.sha256:
        return None
    filename = spec.filename or (spec.url.rsplit("/", 1)[-1] if spec.url else "wordlist.txt")
    return cache_dir() / "sources" / f"{spec.sha256[:16]}-{filename}"


def _package_version(package: str | None) -> str | None:
    """The installed Debian package version of a system list, if dpkg knows it."""
    if not package or shutil.which("dpkg-query") is None:
        return None
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    return out.stdout.strip() or None


def _download(recipe: Recipe, target: Path) -> None:
    import pooch  # imported here: pooch pulls in requests, which `solve` never needs

    spec = recipe.source
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.is_symlink():  # a cache file is never written through a link: pooch would move into a linked folder
        target.unlink()
    # pooch logs "Downloading data from ..." to stderr; a failure must stay one Error: line.
    pooch.get_logger().setLevel("WARNING")
    try:
        pooch.retrieve(
            spec.url,
            known_hash=f"sha256:{spec.sha256}",
            fname=target.name,
            path=target.parent,
            downloader=pooch.HTTPDownloader(timeout=DOWNLOAD_TIMEOUT, progressbar=False),
        )
    except ValueError as exc:  # pooch's checksum mismatch
        raise SourceError(f"download of {spec.url} failed its sha256 check: {exc}") from None
    except Exception as exc:  # network errors come from requests, in many classes
        raise SourceError(f"download of {spec.url} failed ({type(exc).__name__})") from None


def _no_source_error(recipe: Recipe, tried: list[str]) -> NoSourceError:
    spec = recipe.source
    ways = ["pass a local file with --source PATH"]
    if spec.system:
        pkg = f" (apt-get install {spec.system_package})" if spec.system_package else ""
        ways.append(f"install the system list {spec.system[0]}{pkg}")
    if spec.url:
        ways.append(f"download {spec.url} (online, downloads on)")
    error = NoSourceError(f"no source for lexicon {recipe.name!r} ({'; '.join(tried)}): " + ", or ".join(ways))
    error.tried = tuple(tried)
    return error


def source_at_hand(recipe: Recipe) -> str | None:
    """Where `recipe`'s list is on this machine without a download (a cached copy or a system list), else None.

    Only looked up, never read or hashed: cheap enough to ask of every recipe of a language when one cannot
    be built (`lexicon.ensure`) or when the web page picks a language it can play.
    """
    cached = _cached_path(recipe)
    if cached is not None and cached.is_file():
        return f"cached {cached}"
    for system in recipe.source.system:
        if os.path.isfile(system):
            package = f" (Debian {recipe.source.system_package})" if recipe.source.system_package else ""
            return f"{system}{package}"
    return None


def resolve_source(
    recipe: Recipe, source: str | os.PathLike[str] | None = None, download: bool = True
) -> ResolvedSource:
    """Find the raw list for `recipe`, in the order local file, cache, system list, download."""
    spec = recipe.source
    if source is not None:
        path = Path(expand(source, "source"))
        _check_readable(path)
        # The user's own list: recorded under its own file name, never as the recipe's usual list.
        return ResolvedSource("file", path.absolute(), path.name, None, None, None)
    tried = []
    cached = _cached_path(recipe)
    if cached is not None and cached.is_file():
        sha = file_sha256(cached)
        if sha == spec.sha256:
            return ResolvedSource("cache", cached, spec.name, spec.version, spec.url, sha, upstream=spec.upstream)
        tried.append(f"cached {cached} has a wrong checksum")
    for system in spec.system:
        path = Path(system)
        if path.is_file():
            _check_readable(path)
            version = _package_version(spec.system_package)
            expansion = _expansion(spec, path) if spec.expand else None
            return ResolvedSource(
                "system",
                path,
                spec.name,
                version,
                None,
                None,
                package=spec.system_package,
                upstream=spec.upstream,
                expansion=expansion,
            )
    if spec.system:
        tried.append(f"no {' or '.join(spec.system)}")
    if spec.url and spec.sha256 and cached is not None:
        if not download or os.environ.get(OFFLINE_ENV):
            tried.append("downloads are off")
        else:
            try:
                _download(recipe, cached)
            except SourceError as exc:
                tried.append(str(exc))
            else:
                return ResolvedSource(
                    "download", cached, spec.name, spec.version, spec.url, spec.sha256, upstream=spec.upstream
                )
    raise _no_source_error(recipe, tried)
