"""Measure the languages issue 26 added from Debian dictionaries: build, size, coverage, junk, precision.

For each language code: builds its default lexicon in a child process (wall time and peak RSS
from `wait4`, as tools/measure_builds.py), then reports its word count, everyday-word coverage
(boggle_i18n.comparison.frequency.coverage: wordfreq's top 2,000 words of 3+ letters, each normalised by
the recipe) with the misses, and the junk the recipe met: capitalised entries dropped (names,
abbreviations such as `ACE-hemill`), entries with other characters dropped by the alphabet
stage (`a.m.k.`, hyphens, apostrophes, foreign letters), and the vowel-less words kept
(`prst` is Czech; in a language whose words all carry vowels they would be junk). With
`--precision`, also the affix expander's precision against `hunspell -G`
(tools/affix_precision.py: 1,000 random forms, seed 1).

    python tools/new_languages_doc.py sk sl --json out.json      # figures and misses as JSON
    python tools/new_languages_doc.py sk sl --timings builds.txt --json out.json   # builds timed before
    python tools/new_languages_doc.py --from out.json --write docs/languages.md   # the Markdown section
    python tools/new_languages_doc.py oc br --precision --update docs/languages.md   # add or replace these rows
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

from doc_section import merge_rows, read_section, replace_section

REPO = Path(__file__).resolve().parent.parent
START = "<!-- new_languages:start -->"
END = "<!-- new_languages:end -->"
SHOW = 12


def read_timings(path: Path | None) -> dict[str, tuple[float, float]]:
    """Build timings already measured, `CODE TIME <s> s <KB> KB` per line, as written by
    `/usr/bin/time -f "CODE TIME %e s %M KB" boggle-i18n build-lexicon CODE`: code -> (seconds, MiB)."""
    out: dict[str, tuple[float, float]] = {}
    for line in path.read_text().splitlines() if path else []:
        parts = line.split()
        if len(parts) == 6 and parts[1] == "TIME":
            out[parts[0]] = (float(parts[2]), float(parts[4]) / 1024)
    return out


def measure_language(
    code: str, store: Path, precision: bool, timings: dict[str, tuple[float, float]] | None = None
) -> dict:
    """Everything the doc shows about one language, built in `store` (or as built there, with its timing)."""
    sys.path.insert(0, str(REPO))
    sys.path.insert(0, str(REPO / "tools"))
    from measure_builds import measure

    from boggle_i18n.comparison.frequency import coverage
    from boggle_i18n.language.records import get_language
    from boggle_i18n.lexicon import Lexicon
    from boggle_i18n.pipeline import load_recipe

    language = get_language(code)
    name = language.lexicon
    assert name is not None
    if timings and name in timings and (store / f"{name}.json").is_file():
        seconds, mib = timings[name]
        built = {"manifest": json.loads((store / f"{name}.json").read_text()), "seconds": seconds, "peak_mib": mib}
    else:
        built = measure(name, store)
    if built is None:
        raise SystemExit(f"{name}: the build failed")
    m = built["manifest"]
    stages = {st["stage"]: st for st in m["stages"]}
    lexicon = Lexicon.load(name, store)
    vowels = set(language.vowels)
    vowelless = [w for w in lexicon if not vowels & set(w)]
    out: dict = {
        "lang": code,
        "name": language.name,
        "lexicon": name,
        "package": m["source"].get("package"),
        "version": m["source"].get("version"),
        "licence": m.get("licence"),
        "depth": m["source"].get("expanded", {}).get("depth"),
        "raw_entries": m["raw_entries"],
        "words": m["word_count"],
        "seconds": round(built["seconds"], 1),
        "peak_mib": round(built["peak_mib"]),
        "capitalised_dropped": stages.get("case", {}).get("dropped", 0),
        "capitalised_examples": stages.get("case", {}).get("examples", []),
        "other_characters_dropped": stages.get("alphabet", {}).get("dropped", 0),
        "other_characters_examples": stages.get("alphabet", {}).get("examples", []),
        "vowelless_kept": len(vowelless),
        "vowelless_examples": vowelless[:: max(1, len(vowelless) // SHOW)][:SHOW],
        "coverage": None,
    }
    if language.wordfreq:
        cov = coverage(lexicon, language)
        out["coverage"] = {"share": cov.share, "checked": cov.checked, "missing": list(cov.missing)}
    src = load_recipe(name).source
    dic = Path(src.system[0])
    key = (str(dic), src.suffix_levels, src.prefix_levels)
    if precision and key in PRECISION:
        r = PRECISION[key]
        out["precision"] = {"accepted": r["accepted"], "sample": r["sample"], "rejected": r["rejected"]}
    elif precision:
        from affix_precision import measure as affix_measure

        r = affix_measure(
            dic, src.suffix_levels, src.prefix_levels, frozenset(src.skip_flags), 1000, 1, frozenset(src.skip_affixes)
        )
        out["precision"] = {"accepted": r["accepted"], "sample": r["sample"], "rejected": r["rejected"]}
    return out


PRECISION: dict[tuple[str, int, int], dict] = {}


def read_precision(paths: list[Path]) -> None:
    """Runs of `tools/affix_precision.py --json` (one JSON object a line), reused instead of expanding again."""
    for path in paths:
        for line in path.read_text().splitlines():
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                continue
            PRECISION[(r["dic"], r["depth"]["suffixes"], r["depth"]["prefixes"])] = r


def markdown(rows: list[dict]) -> str:
    """The table and the per-language misses and junk."""
    # Build time and peak memory are left to tools/measure_builds.py (its table in docs/languages.md): measured
    # here, a build forked from this process (grown by every lexicon it has loaded) reports this process's peak.
    lines = [
        "| code | language | package (version) | depth (suffixes+prefixes) | raw forms | words | coverage "
        "| precision |",
        "| --- | --- | --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        d = r["depth"] or {}
        depth = f"{d.get('suffixes')}+{d.get('prefixes')}" if d else "-"
        cov = f"{r['coverage']['share']:.1%}" if r["coverage"] else "no wordfreq list"
        prec = f"{r['precision']['accepted']}/{r['precision']['sample']}" if r.get("precision") else "-"
        lines.append(
            f"| {r['lang']} | {r['name']} | {r['package']} {r['version']} | {depth} | {r['raw_entries']:,} | "
            f"{r['words']:,} | {cov} | {prec} |"
        )
    lines += ["", "Misses and junk, per language:", ""]
    for r in rows:
        parts = [f"- **{r['lang']}**:"]
        if r["coverage"]:
            miss = r["coverage"]["missing"]
            parts.append(f"misses ({len(miss)}): {', '.join(miss[:40])}{' ...' if len(miss) > 40 else ''};")
        parts.append(
            f"capitalised entries dropped {r['capitalised_dropped']:,} (names, abbreviations: "
            f"{', '.join(r['capitalised_examples'])}); other characters dropped {r['other_characters_dropped']:,} "
            f"({', '.join(r['other_characters_examples'])}); vowel-less words kept {r['vowelless_kept']:,}"
            + (f" ({', '.join(r['vowelless_examples'])})" if r["vowelless_kept"] else "")
            + "."
        )
        lines.append(" ".join(parts))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("codes", nargs="*")
    parser.add_argument("--store", type=Path, default=Path(os.environ.get("BOGGLE_I18N_HOME", "store")))
    parser.add_argument("--precision", action="store_true")
    parser.add_argument("--precision-from", type=Path, nargs="*", default=[], help="affix_precision.py --json runs")
    parser.add_argument("--timings", type=Path, help="builds already timed (see read_timings): not built again")
    parser.add_argument("--json", type=Path, help="add the figures to this JSON file (one entry per language)")
    parser.add_argument("--from", dest="source", type=Path, help="write the Markdown from this JSON file")
    parser.add_argument("--write", type=Path, help="replace the marked section of this Markdown file")
    parser.add_argument("--update", type=Path, help="put these codes' rows in the marked section (others stay)")
    args = parser.parse_args()
    read_precision(args.precision_from)
    rows: dict[str, dict] = {}
    if args.json and args.json.is_file():
        rows = {r["lang"]: r for r in json.loads(args.json.read_text())}
    if args.source:
        rows.update({r["lang"]: r for r in json.loads(args.source.read_text())})
    for code in args.codes:
        rows[code] = measure_language(code, args.store, args.precision, read_timings(args.timings))
        r = rows[code]
        cov = f"{r['coverage']['share']:.1%}" if r["coverage"] else "-"
        print(f"{code}: {r['words']:,} words, {r['seconds']} s, {r['peak_mib']} MiB, coverage {cov}", file=sys.stderr)
        if args.json:
            args.json.write_text(json.dumps(list(rows.values()), ensure_ascii=False, indent=1) + "\n")
    ordered = [rows[k] for k in sorted(rows)]
    body = markdown(ordered)
    if args.update:
        fresh = markdown([rows[c] for c in args.codes])
        replace_section(args.update, START, END, merge_rows(read_section(args.update, START, END), fresh, _row_code))
    elif args.write:
        replace_section(args.write, START, END, body)
    elif not args.json:
        print(body)


def _row_code(line: str) -> str | None:
    """The language a table row (`| oc | ...`) or a list item (`- **oc**: ...`) is about, else None."""
    found = re.match(r"\| ([a-z]{2,3}) \| |- \*\*([a-z]{2,3})\*\*:", line)
    return (found.group(1) or found.group(2)) if found else None


if __name__ == "__main__":
    main()
