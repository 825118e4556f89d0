"""Finding a recipe's raw word list: a local file, the download cache, a system list, a download.

The order is fixed: `--source` first, then a cached download whose sha256 matches
the recipe, then an installed system list (Debian's `wdutch` puts OpenTaal at
/usr/share/dict/dutch), and last a checksummed download into the cache.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ..errors import SourceError
from ..storage import cache_dir
from .recipe import Recipe

OFFLINE_ENV = "BOGGLE_I18N_OFFLINE"
DOWNLOAD_TIMEOUT = 30


@dataclass(frozen=True)
class ResolvedSource:
    """The raw bytes of a word list and where they came from."""

    kind: str  # "file", "cache", "system" or "download"
    path: Path
    name: str
    version: str | None
    url: str | None
    sha256: str
    data: bytes

    def to_dict(self) -> dict[str, object]:
        """JSON form for the manifest."""
        return {
            "kind": self.kind,
            "path": str(self.path),
            "name": self.name,
            "version": self.version,
            "url": self.url,
            "sha256": self.sha256,
            "bytes": len(self.data),
        }


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise SourceError(f"source file {path} not found") from None
    except IsADirectoryError:
        raise SourceError(f"source {path} is a folder, not a word list") from None
    except OSError as exc:
        raise SourceError(f"cannot read source {path}: {exc.strerror}") from None


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


def _no_source_error(recipe: Recipe, tried: list[str]) -> SourceError:
    spec = recipe.source
    ways = ["pass a local file with --source PATH"]
    if spec.system:
        pkg = f" (apt-get install {spec.system_package})" if spec.system_package else ""
        ways.append(f"install the system list {spec.system[0]}{pkg}")
    if spec.url:
        ways.append(f"download {spec.url} (online, downloads on)")
    return SourceError(f"no source for lexicon {recipe.name!r} ({'; '.join(tried)}): " + ", or ".join(ways))


def resolve_source(
    recipe: Recipe, source: str | os.PathLike[str] | None = None, download: bool = True
) -> ResolvedSource:
    """Find the raw list for `recipe`, in the order local file, cache, system list, download."""
    spec = recipe.source
    if source is not None:
        path = Path(source).expanduser()
        data = _read(path)
        return ResolvedSource("file", path, spec.name, None, None, hashlib.sha256(data).hexdigest(), data)
    tried = []
    cached = _cached_path(recipe)
    if cached is not None and cached.is_file():
        data = cached.read_bytes()
        sha = hashlib.sha256(data).hexdigest()
        if sha == spec.sha256:
            return ResolvedSource("cache", cached, spec.name, spec.version, spec.url, sha, data)
        tried.append(f"cached {cached} has a wrong checksum")
    for system in spec.system:
        path = Path(system)
        if path.is_file():
            data = _read(path)
            version = _package_version(spec.system_package)
            return ResolvedSource("system", path, spec.name, version, None, hashlib.sha256(data).hexdigest(), data)
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
                data = cached.read_bytes()
                return ResolvedSource("download", cached, spec.name, spec.version, spec.url, spec.sha256, data)
    raise _no_source_error(recipe, tried)


def decode(data: bytes, encoding: str, where: str) -> list[str]:
    """Decode raw bytes into lines, with a one-line error naming the bad byte."""
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise SourceError(
            f"{where} is not valid {encoding}: byte 0x{data[exc.start]:02x} at offset {exc.start} "
            "(set `encoding` in the recipe or pass --encoding)"
        ) from None
    except LookupError:
        raise SourceError(f"unknown encoding {encoding!r}") from None
    return text.splitlines()
