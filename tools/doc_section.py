"""Replace the generated part of a docs page: the text between two HTML comment markers."""

from __future__ import annotations

from pathlib import Path


def replace_section(path: Path, start: str, end: str, body: str) -> None:
    """Write `body` between the `start` and `end` markers of `path`, leaving the rest of the page as it is."""
    text = path.read_text(encoding="utf-8")
    if start not in text or end not in text:
        raise SystemExit(f"{path} has no {start} ... {end} section")
    before, rest = text.split(start, 1)
    _, after = rest.split(end, 1)
    path.write_text(f"{before}{start}\n{body}\n{end}{after}", encoding="utf-8")
