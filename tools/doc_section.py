"""Replace the generated part of a docs page: the text between two HTML comment markers."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path


def replace_section(path: Path, start: str, end: str, body: str) -> None:
    """Write `body` between the `start` and `end` markers of `path`, leaving the rest of the page as it is."""
    text = path.read_text(encoding="utf-8")
    if start not in text or end not in text:
        raise SystemExit(f"{path} has no {start} ... {end} section")
    before, rest = text.split(start, 1)
    _, after = rest.split(end, 1)
    path.write_text(f"{before}{start}\n{body}\n{end}{after}", encoding="utf-8")


def read_section(path: Path, start: str, end: str) -> str:
    """The text between the `start` and `end` markers of `path` (without the markers' own lines)."""
    text = path.read_text(encoding="utf-8")
    if start not in text or end not in text:
        raise SystemExit(f"{path} has no {start} ... {end} section")
    return text.split(start, 1)[1].split(end, 1)[0].strip("\n")


def merge_rows(old: str, new: str, key: Callable[[str], str | None]) -> str:
    """`old` with the groups of keyed lines of `new` put in (a group: the lines with one key, such as one
    recipe's rows). A group of `new` replaces the group of `old` with its key, the other groups stay; groups are
    kept sorted by key, each group's lines in their order.

    Used to add or re-measure some languages without measuring all of them again (`--update`): the blocks
    (runs of keyed lines: a table's rows, a list) are matched in order, so `old` and `new` must have the same
    shape (the same tables and lists, in the same order).
    """

    def grouped(rows: list[str]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for row in rows:
            out.setdefault(key(row) or "", []).append(row)
        return out

    def blocks(text: str) -> list[list[str]]:
        out: list[list[str]] = [[]]
        for line in text.split("\n"):
            if key(line) is None:
                if out[-1]:
                    out.append([])
            else:
                out[-1].append(line)
        return [b for b in out if b]

    fresh = blocks(new)
    merged: list[str] = []
    block = 0
    lines = old.split("\n")
    i = 0
    while i < len(lines):
        if key(lines[i]) is None:
            merged.append(lines[i])
            i += 1
            continue
        rows = []
        while i < len(lines) and key(lines[i]) is not None:
            rows.append(lines[i])
            i += 1
        groups = grouped(rows)
        if block < len(fresh):
            groups.update(grouped(fresh[block]))
        merged += [row for k in sorted(groups) for row in groups[k]]
        block += 1
    return "\n".join(merged)
