"""Regenerate boggle_i18n/prove/shipped-results.json (the records that ship with the package) from results/.

    python tools/ship_results.py            # write it
    python tools/ship_results.py --check    # exit 1 if it is not up to date with results/

Run it after adding or changing a result file in results/ (tests/test_shipped_results.py fails until then).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from boggle_i18n.errors import BoggleI18nError
from boggle_i18n.prove.shipped import SHIPPED, write_bundle

REPO = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    check = "--check" in argv
    try:
        if check:
            with tempfile.TemporaryDirectory() as tmp:
                fresh = write_bundle(REPO / "results", Path(tmp) / "shipped.json")
            if not SHIPPED.is_file() or SHIPPED.read_text(encoding="utf-8") != fresh:
                print(
                    f"Error: {SHIPPED.relative_to(REPO)} is not up to date: python tools/ship_results.py",
                    file=sys.stderr,
                )
                return 1
            print(f"{SHIPPED.relative_to(REPO)} is up to date with results/")
            return 0
        text = write_bundle(REPO / "results")
    except BoggleI18nError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {SHIPPED.relative_to(REPO)} ({len(text.encode()):,} bytes) from results/")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
