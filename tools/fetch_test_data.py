"""Get the tests' real word lists into ../shared/data/lexicons, each checked against its sha256.

    python tools/fetch_test_data.py               # into ../shared/data (beside the repository)
    python tools/fetch_test_data.py --dest DIR    # elsewhere (DIR/lexicons/...)
    python tools/fetch_test_data.py --list        # what it would get, from where, and what is there already

Without ../shared about 400 tests skip (the run still ends green); `pytest` says how many at its end and
names this command. Each file comes from where its README (shared/data/lexicons/README.md) says it does:
a pinned download (ENABLE, ENABLE2K, OpenTaal; the two ENABLE copies with their documented normalisation:
CRLF to LF, no trailing blanks, a final newline) or an installed Debian package (wngerman, wspanish). A file
is written only when its bytes have the recorded sha256, through a temporary file in the same folder, so a
failed or cut download never leaves a file the tests would trust; a file already there with the right
checksum is kept, one with another checksum is reported and left alone. The dice files (shared/data/dice)
were transcribed by hand from published sources and have no download: they come with the project's shared
folder only. BOGGLE_I18N_OFFLINE=1 (or --no-download) skips the downloads. Exits 1 if any file is missing
afterwards, with one line per file saying why and what to do.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import tempfile
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_DEST = REPO.parent / "shared" / "data"
OFFLINE_ENV = "BOGGLE_I18N_OFFLINE"
TIMEOUT = 60  # seconds without data before a download is given up
MAX_BYTES = 64 << 20  # no list here is a tenth of this: a bigger answer is not the list


def enable_normalised(data: bytes) -> bytes:
    """The README's normalisation of an ENABLE copy: CRLF to LF, trailing white space and blank lines removed,
    one final LF (every known copy of enable1 gives the same bytes this way)."""
    lines = [line.rstrip() for line in data.replace(b"\r\n", b"\n").split(b"\n")]
    return b"".join(line + b"\n" for line in lines if line)


def without_cr(data: bytes) -> bytes:
    """ENABLE2K's normalisation: CR removed, nothing else changed."""
    return data.replace(b"\r", b"")


def as_is(data: bytes) -> bytes:
    return data


@dataclass(frozen=True)
class DataFile:
    """One file of ../shared/data: its checksum (from its README) and where it can be had."""

    name: str  # path under the data folder
    sha256: str
    url: str | None = None  # a pinned download ...
    transform: Callable[[bytes], bytes] = as_is  # ... and the README's normalisation of it
    system: str | None = None  # or an installed file ...
    package: str | None = None  # ... from this Debian package

    def where(self) -> str:
        if self.system:
            return f"{self.system} (apt-get install {self.package})"
        return self.url or "no download: it comes with the project's shared folder only"


OPENTAAL = "https://raw.githubusercontent.com/OpenTaal/opentaal-wordlist/08879a9cb02c54a0cb057acb621604131cb2f84f"
FILES: tuple[DataFile, ...] = (
    DataFile(
        "lexicons/en-enable1.txt",
        "f32e6fbdc4cf9c8ec1d992193d7ac33e773fc850ba47ebe2c791ab9d61913d49",
        url="https://raw.githubusercontent.com/dolph/dictionary/a81478cf6f9c41af30d40813a8ef7d40c6d19ce7/enable1.txt",
        transform=enable_normalised,
    ),
    DataFile(
        "lexicons/en-enable2k.txt",
        "2262de288ddc2b2ccfb2e46119fb25f02311af5ba1e1a77802817b76268dff99",
        url="https://raw.githubusercontent.com/danvk/hybrid-boggle/4347e8018fbb/wordlists/enable2k.txt",
        transform=without_cr,
    ),
    DataFile(
        "lexicons/nl-opentaal-wordlist.txt",
        "12e5fb5e3c73840b583b30016926d1f63a75e9bf1652a3a6634b2ba7c49ad7be",
        url=f"{OPENTAAL}/wordlist.txt",
    ),
    DataFile(
        "lexicons/nl-opentaal-LICENSE.txt",
        "4633afec7da0033afad9271d3d4e2d5e531c255339517d65ffe15fbf6e4292d8",
        url=f"{OPENTAAL}/LICENSE.txt",
    ),
    DataFile(
        "lexicons/de-ngerman.txt",
        "4864ca7300aae638c611114092ed566ba232b35e42280fcfb5509c5d121b307d",
        system="/usr/share/dict/ngerman",
        package="wngerman",
    ),
    DataFile(
        "lexicons/de-ngerman-copyright.txt",
        "27a58e43ed1f8174e6798f167711eeed08c260017dbe12fc2f0ad87bba2204a8",
        system="/usr/share/doc/wngerman/copyright",
        package="wngerman",
    ),
    DataFile(
        "lexicons/de-ngerman-GPL-2.txt",
        "8177f97513213526df2cf6184d8ff986c675afb514d4e68a404010521b880643",
        system="/usr/share/common-licenses/GPL-2",
        package="base-files",
    ),
    DataFile(
        "lexicons/es-wspanish.txt",
        "6b26adc955ec682e41e98d626d0ed1f778511065ee1f7f19c28e8b3cb574b9b6",
        system="/usr/share/dict/spanish",
        package="wspanish",
    ),
)


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _download(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=TIMEOUT) as answer:  # the pinned https URLs above
        data: bytes = answer.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise OSError(f"over {MAX_BYTES:,} bytes: not the list")
    return data


def _write(target: Path, data: bytes) -> None:
    """Write `data` to `target` whole or not at all: a temporary file beside it, renamed over it at the end."""
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        mode = 0o666 & ~_umask()
        os.chmod(temp, mode)
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def fetch(item: DataFile, dest: Path, download: bool) -> tuple[bool, str]:
    """Get one file into `dest`: (whether it is there with its checksum now, what was done or why not)."""
    target = dest / item.name
    if target.is_file():
        found = sha256_of(target)
        if found == item.sha256:
            return True, "present, checksum ok"
        return False, f"present with another sha256 ({found[:16]}...): left alone; move it away to fetch again"
    if item.system:
        source = Path(item.system)
        if not source.is_file():
            return False, f"not installed: apt-get install {item.package}, then run this again"
        data = source.read_bytes()
    elif item.url:
        if not download:
            return False, f"downloads are off ({OFFLINE_ENV} or --no-download): {item.url}"
        try:
            data = item.transform(_download(item.url))
        except OSError as exc:
            return False, f"download of {item.url} failed: {exc}"
    else:
        return False, item.where()
    got = hashlib.sha256(data).hexdigest()
    if got != item.sha256:
        return False, f"{item.where()} gave sha256 {got[:16]}..., not the recorded {item.sha256[:16]}...: not written"
    _write(target, data)
    return True, f"written from {item.where()}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dest", type=Path, default=DEFAULT_DEST, help=f"data folder [default: {DEFAULT_DEST}]")
    parser.add_argument("--no-download", action="store_true", help="only copy installed Debian lists")
    parser.add_argument("--list", action="store_true", help="say what is there and where the rest comes from")
    args = parser.parse_args(argv)
    dest: Path = args.dest.expanduser()
    if dest.exists() and not dest.is_dir():
        print(f"Error: {dest} is not a folder", file=sys.stderr)
        return 2
    download = not args.no_download and not os.environ.get(OFFLINE_ENV)
    missing = 0
    for item in FILES:
        if args.list:
            there = (dest / item.name).is_file()
            print(f"{item.name}: {'present' if there else 'missing'}; from {item.where()}")
            missing += not there
            continue
        ok, what = fetch(item, dest, download)
        missing += not ok
        print(f"{item.name}: {what}", file=sys.stdout if ok else sys.stderr)
    if missing:
        print(f"{missing} of {len(FILES)} files are not in {dest}: the tests that need them skip", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
