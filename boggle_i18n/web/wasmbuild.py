"""The browser's solver: the library's walk (solver/_walk.h) compiled to WebAssembly by Debian's clang and lld.

Built from source, never downloaded nor committed: `tools/build_wasm.sh` (and CI) writes it beside its source,
`web/wasm/solver.wasm`; an installed copy without it builds it once into the user cache, keyed by the sources'
sha256, so a changed walk is never served stale. Without clang the export says so in one line.

    python -m boggle_i18n.web.wasmbuild [OUT]     # what tools/build_wasm.sh runs
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from ..errors import BoggleI18nError
from ..storage import atomic_write_bytes, cache_dir

PACKAGE = Path(__file__).resolve().parent.parent
SOURCES = (PACKAGE / "web" / "wasm" / "solver.c", PACKAGE / "solver" / "_walk.h", PACKAGE / "_popcount_trie.h")
BUILT = PACKAGE / "web" / "wasm" / "solver.wasm"
FLAGS = (
    "--target=wasm32",
    "-O2",
    "-nostdlib",
    "-ffreestanding",
    "-fno-builtin",
    "-std=c11",
    "-Wall",
    "-Werror",
    "-Wl,--no-entry",
    "-Wl,--strip-all",
    "-Wl,--initial-memory=1048576",
)
NO_CLANG = (
    "the in-browser solver needs clang and lld to be built from source (apt-get install clang lld), "
    "or run tools/build_wasm.sh where they are installed"
)


def sources_digest() -> str:
    """sha256 over the C sources of the walk and the build flags: what the module is built from."""
    digest = hashlib.sha256(" ".join(FLAGS).encode())
    for path in SOURCES:
        digest.update(path.read_bytes())
    return digest.hexdigest()


def compile_wasm(out: Path, clang: str | None = None) -> Path:
    """Compile solver.c to `out` (written atomically); one clear error when clang or lld is missing or fails."""
    compiler = clang or shutil.which("clang")
    if compiler is None or shutil.which("wasm-ld") is None:
        raise BoggleI18nError(NO_CLANG)
    with tempfile.TemporaryDirectory() as work:
        target = Path(work) / "solver.wasm"
        done = subprocess.run(
            [compiler, *FLAGS, "-o", str(target), str(SOURCES[0])], capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            first = (done.stderr.strip().splitlines() or ["no message"])[0]
            raise BoggleI18nError(f"clang could not build the in-browser solver: {first}")
        atomic_write_bytes(out, target.read_bytes())
    return out


def solver_wasm() -> Path:
    """The built module: beside its source when tools/build_wasm.sh made it (and no source is newer), else
    built once into the cache."""
    if BUILT.is_file() and BUILT.stat().st_mtime >= max(p.stat().st_mtime for p in SOURCES):
        return BUILT
    cached = cache_dir() / "wasm" / f"solver-{sources_digest()[:16]}.wasm"
    if cached.is_file():
        return cached
    return compile_wasm(cached)


def main(argv: list[str]) -> int:
    """Build to OUT (default: beside the source) and say where and how big."""
    out = Path(argv[0]) if argv else BUILT
    try:
        compile_wasm(out)
    except BoggleI18nError as error:
        print(f"Error: {error}", file=sys.stderr)
        return 1
    print(f"{out}: {out.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
