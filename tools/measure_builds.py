"""Build every shipped lexicon in its own process and report wall time and peak memory.

Each build runs as `python -m boggle_i18n build-lexicon NAME --store TMP --json` in a
child process; its peak RSS comes from `os.wait4` (the child's own rusage), so one
build's memory never hides another's. Recipes without a Debian list (ENABLE) take
their list from ../shared/data/lexicons when it is there.

    python tools/measure_builds.py                    # print the Markdown table
    python tools/measure_builds.py --write docs/languages.md   # replace the marked section
    python tools/measure_builds.py --only ko ko-common --write docs/languages.md   # those rows only
    python tools/measure_builds.py oc br --update docs/languages.md   # add new recipes' rows (or replace)

`--only` builds the named recipes alone and replaces their rows (and their stage rows) in the
section already written, leaving the other rows as measured before; the section's first
paragraph then names them with their date and load.

`--update` does the same for recipes that may have no row yet (a new language): their rows are added in
sorted place (tools/doc_section.py `merge_rows`), a line naming the command put after the first paragraph.

Figures depend on the machine (and on what else runs on it): the table names both.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from doc_section import merge_rows, read_section, replace_section

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data" / "lexicons"
LOCAL_SOURCES = {
    "en": SHARED / "en-enable1.txt",
    "en-common": SHARED / "en-enable1.txt",
    "en-enable2k": SHARED / "en-enable2k.txt",
}
START = "<!-- measure_builds:start -->"
END = "<!-- measure_builds:end -->"


def recipes() -> list[str]:
    sys.path.insert(0, str(REPO))
    from boggle_i18n.pipeline import recipe_names

    return recipe_names()


def measure(name: str, store: Path) -> dict | None:
    """One build in a child process: its manifest, wall seconds and peak RSS in MiB (None if no source)."""
    cmd = [sys.executable, "-m", "boggle_i18n", "build-lexicon", name, "--store", str(store), "--json", "--no-download"]
    if name in LOCAL_SOURCES:
        if not LOCAL_SOURCES[name].is_file():
            return None
        cmd += ["--source", str(LOCAL_SOURCES[name])]
    started = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        # stdout is read to the end, then the child is reaped by wait4 (not wait) to get its own rusage.
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, cwd=REPO)
        assert proc.stdout is not None
        out = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - started
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            print(f"{name}: {err.read().decode().strip()}", file=sys.stderr)
            return None
    manifest = json.loads(out)
    cpu = usage.ru_utime + usage.ru_stime
    return {"manifest": manifest, "seconds": seconds, "cpu": cpu, "peak_mib": usage.ru_maxrss / 1024}


def table(rows: list[dict]) -> str:
    head = "| recipe | language | status | source (package version) | raw entries | words | build s | CPU s | peak MiB"
    head += " |"
    lines = [head, "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for row in rows:
        m = row["manifest"]
        src = m["source"]
        pkg = f"{src['package']} {src['version']}" if src.get("package") else f"{src['name']} ({src['kind']})"
        lines.append(
            f"| `{m['name']}` | {m['language']} | {m.get('status', '')} | {pkg} | {m['raw_entries']:,} | "
            f"{m['word_count']:,} | {row['seconds']:.1f} | {row['cpu']:.1f} | {row['peak_mib']:.0f} |"
        )
    return "\n".join(lines)


def effects(rows: list[dict]) -> str:
    """What each stage of each recipe dropped, changed or (allowlist) saved, with examples."""
    lines = [
        "| recipe | # | stage | in | dropped | changed | examples |",
        "| --- | ---: | --- | ---: | ---: | ---: | --- |",
    ]
    for row in rows:
        m = row["manifest"]
        for i, st in enumerate(m["stages"], 1):
            saved = st.get("allowed")
            if not (st["dropped"] or st["changed"] or saved):
                continue
            examples = ", ".join(f"`{e}`" for e in st["examples"])
            if saved:
                examples += f"; allowlist saved {len(saved)}: " + ", ".join(f"`{e}`" for e in saved)
            lines.append(
                f"| `{m['name']}` | {i} | {st['stage']} | {st['in']:,} | {st['dropped']:,} | {st['changed']:,} | "
                f"{examples} |"
            )
    return "\n".join(lines)


def merge(old: str, new: str, names: list[str], note: str) -> str:
    """Section `old` with the table rows of recipes `names` replaced, where they stood, by those of `new`
    (a row's first cell names its recipe; in each table one recipe's rows are consecutive), `note` added
    after its first paragraph. A recipe with no row in `old` is an error: measure them all instead."""

    def recipe_of(line: str) -> str | None:
        return line.split("|")[1].strip().strip("`") if line.startswith("| `") else None

    tables = [part for part in new.split("\n\n") if part.startswith("| ")]
    out: list[str] = []
    table = -1
    for line in old.splitlines():
        if line.startswith("| ---"):
            table += 1
        name = recipe_of(line)
        if name in names:
            if recipe_of(out[-1]) != name:  # the recipe's first row here: its new rows in this table
                out.extend(row for row in tables[table].splitlines() if recipe_of(row) == name)
            continue
        out.append(line)
    missing = [n for n in names if not any(recipe_of(line) == n for line in old.splitlines())]
    if missing:
        raise SystemExit(f"Error: no rows of {', '.join(missing)} to replace: measure every recipe instead")
    first = out.index("")
    return "\n".join([*out[:first], "", note.rstrip("\n"), *out[first:]])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="*", help="recipes to measure (default: every shipped recipe)")
    parser.add_argument("--write", type=Path, help="Markdown file whose marked section to replace")
    parser.add_argument("--only", nargs="+", metavar="RECIPE", help="measure these recipes, keep the other rows")
    parser.add_argument(
        "--update", type=Path, help="Markdown file whose marked section gets these recipes' rows (others stay)"
    )
    args = parser.parse_args()
    if args.update and not args.names:
        parser.error("--update adds the rows of the named recipes: name them")
    if args.only and not args.write:
        parser.error("--only replaces rows of a written section: give --write FILE")
    unknown = sorted(set(args.only or ()) - set(recipes()))
    if unknown:
        parser.error(f"unknown recipe(s): {', '.join(unknown)}")
    rows = []
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.only or args.names or recipes():
            result = measure(name, Path(tmp) / "store")
            if result is None:
                print(f"{name}: skipped (no source)", file=sys.stderr)
                continue
            took = f"{result['seconds']:.1f} s, {result['cpu']:.1f} CPU s, {result['peak_mib']:.0f} MiB"
            print(f"{name}: {took}", file=sys.stderr)
            rows.append(result)
    cpu = platform.processor() or platform.machine()
    if args.only:
        if len(rows) != len(args.only):  # a failed build must not lose its old row
            raise SystemExit("Error: not every recipe built (above): the section is left as it was")
        text = args.write.read_text(encoding="utf-8")
        old = text.split(START, 1)[1].split(END, 1)[0].strip("\n")
        new = table(rows) + "\n\n" + effects(rows)
        note = (
            f"Rows of {', '.join(f'`{n}`' for n in args.only)} measured again alone on {time.strftime('%Y-%m-%d')} "
            f"(`--only`, load average {load_before:.1f} before and {os.getloadavg()[0]:.1f} after).\n"
        )
        replace_section(args.write, START, END, merge(old, new, args.only, note))
        return
    body = (
        f"Measured by `python tools/measure_builds.py --write docs/languages.md` on {time.strftime('%Y-%m-%d')}, "
        f"Python {platform.python_version()}, {os.cpu_count()} CPUs ({cpu}), one build at a time, each in its own "
        f"process (peak RSS from `wait4`); load average {load_before:.1f} before and {os.getloadavg()[0]:.1f} "
        "after (other work on the machine slows the wall times, not the memory). Wall time includes start-up "
        "(about 0.3 s); CPU s is the build process's own user + system time (from `wait4`), what a build "
        "costs on an idle core whatever else runs (a build is one process, one thread).\n\n"
        + table(rows)
        + "\n\nWhat each stage did (stages that dropped, changed or saved nothing are left out):\n\n"
        + effects(rows)
    )
    if args.update:
        # The other recipes' rows, and the paragraph saying when and how they were measured, stay as they were;
        # these rows were measured by the command below (one line added to that paragraph, once per update).
        old = read_section(args.update, START, END)
        merged = merge_rows(old, table(rows) + "\n\n" + effects(rows), _row_recipe)
        note = (
            f"Rows of {', '.join(f'`{n}`' for n in args.names)} re-measured on {time.strftime('%Y-%m-%d')} by "
            f"`python tools/measure_builds.py {' '.join(args.names)} --update docs/languages.md` "
            f"(load average {load_before:.1f} before)."
        )
        head, sep, rest = merged.partition("\n\n")
        replace_section(args.update, START, END, f"{head}\n\n{note}{sep}{rest}")
    elif args.write:
        replace_section(args.write, START, END, body)
    else:
        print(body)


def _row_recipe(line: str) -> str | None:
    """The recipe a row of either table is about (`| `oc` | ...`), or None for any other line."""
    found = re.match(r"\| `([^`]+)` \|", line)
    return found.group(1) if found else None


if __name__ == "__main__":
    main()
