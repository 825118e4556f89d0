"""Everyday-word coverage of every language's default lexicon (and its common tier, when built).

For each language a frequency source covers (`wordfreq` in its language record), the
share of that source's 2,000 most frequent words of 3+ letters that the lexicon holds,
each word normalised by the lexicon's own recipe (`boggle_i18n.lookup`), with the misses.
Languages no source covers are listed as such.

    python tools/coverage_doc.py                          # print the Markdown
    python tools/coverage_doc.py --write docs/languages.md   # replace the marked section
    python tools/coverage_doc.py --json coverage.json        # every figure and every miss
    python tools/coverage_doc.py --only ko --write docs/languages.md   # those rows only, the rest kept

Lexicons not built yet are built first in the store ($BOGGLE_I18N_HOME); ENABLE (`en`)
comes from ../shared/data/lexicons when it is there.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from doc_section import replace_section

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data" / "lexicons"
LOCAL_SOURCES = {"en": SHARED / "en-enable1.txt"}
START = "<!-- coverage:start -->"
END = "<!-- coverage:end -->"
SHOW_MISSES = 12


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", type=Path, help="replace the coverage section of this Markdown file")
    parser.add_argument("--json", type=Path, help="also write every figure and miss as JSON")
    parser.add_argument("--only", nargs="+", metavar="CODE", help="measure these languages, keep the other rows")
    args = parser.parse_args()
    if args.only and not args.write:
        parser.error("--only replaces rows of a written section: give --write FILE")
    sys.path.insert(0, str(REPO))
    from boggle_i18n.comparison.frequency import TOP_N, coverage
    from boggle_i18n.language.records import languages
    from boggle_i18n.lexicon import Lexicon, build_lexicon
    from boggle_i18n.lexicon.store import lexicon_paths

    rows, data, uncovered = [], [], []
    for code, language in sorted(languages().items()):
        if args.only and code not in args.only:
            continue
        if language.wordfreq is None or language.lexicon is None:
            uncovered.append(code)
            continue
        name = language.lexicon
        if not lexicon_paths(name)[1].is_file():
            source = LOCAL_SOURCES.get(name)
            build_lexicon(name, source=source if source and source.is_file() else None)
        result = coverage(Lexicon.load(name), language)
        data.append({"lang": code, **result.to_dict()})
        misses = ", ".join(result.missing[:SHOW_MISSES]) + (" ..." if len(result.missing) > SHOW_MISSES else "")
        rows.append(f"| {code} | `{name}` | {result.share:.1%} | {result.checked - result.found} | {misses} |")
    body = "\n".join(
        [
            f"Share of the frequency source's top {TOP_N:,} words of 3+ letters (wordfreq, `wordfreq` in the",
            "language record) that the default lexicon holds, each word normalised by the lexicon's own recipe",
            "as `lookup` does; names, English words and abbreviations in the frequency list count as misses.",
            "Made by `python tools/coverage_doc.py --write docs/languages.md`.",
            "",
            "| lang | lexicon | coverage | missing | first misses (most frequent first) |",
            "| --- | --- | ---: | ---: | --- |",
            *rows,
            "",
            f"No frequency source covers: {', '.join(uncovered)}.",
        ]
    )
    if args.only:
        text = args.write.read_text(encoding="utf-8")
        old = text.split(START, 1)[1].split(END, 1)[0].strip("\n").splitlines()
        fresh = {row.split("|")[1].strip(): row for row in rows}
        missing = sorted(set(fresh) - {line.split("|")[1].strip() for line in old if line.startswith("| ")})
        if missing or len(fresh) != len(args.only):
            parser.error(f"no row to replace, or no frequency source, for: {', '.join(sorted(args.only))}")
        new = [fresh.get(line.split("|")[1].strip(), line) if line.startswith("| ") else line for line in old]
        replace_section(args.write, START, END, "\n".join(new))
        return
    if args.json:
        args.json.write_text(json.dumps({"languages": data, "not_covered": uncovered}, ensure_ascii=False, indent=2))
    if args.write:
        replace_section(args.write, START, END, body)
    else:
        print(body)


if __name__ == "__main__":
    main()
