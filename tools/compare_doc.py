"""Fill the `compare` section of docs/languages.md: 4x4 and 5x5 comparison tables and the 4x4 plot.

Every language whose default lexicon is built in the store is compared with
`boggle_i18n.comparison.compare.compare` (what `boggle-i18n compare` runs), so each table
is the output of the `boggle-i18n compare ...` command printed above it.

    python tools/compare_doc.py                                   # print the Markdown
    python tools/compare_doc.py --write docs/languages.md         # replace the marked section, write the plot
    python tools/compare_doc.py --only ko --boards 2000 --write docs/languages.md   # ko's rows only

`--only CODE ...` compares those languages alone and replaces their rows in the section already
written (each language has its own seed, so its row is the one the full run prints); the other
rows, the text and the plot stay as they were (the plot is redrawn only by a full run).

Build the lexicons first (`boggle-i18n build-lexicon NAME` for each language, or
`boggle-i18n compare LANG...`, which builds what is missing).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from doc_section import replace_section  # noqa: E402  (tools/, beside this script)

from boggle_i18n.api import load_lexicon  # noqa: E402
from boggle_i18n.comparison.compare import (  # noqa: E402
    TIERS,
    LanguageResult,
    compare,
    has_dice,
    table_headers,
    table_rows,
    tier_lexicon,
)
from boggle_i18n.language.records import languages  # noqa: E402
from boggle_i18n.lexicon.store import Lexicon, lexicon_paths  # noqa: E402

START = "<!-- compare:start -->"
END = "<!-- compare:end -->"
SIZES = ((4, 4), (5, 5))


def built_languages(store: str | None) -> list[str]:
    """Codes of the languages whose default lexicon (and common tier, where it has one) is built in `store`."""
    return [
        code
        for code, language in sorted(languages().items())
        if language.lexicon
        and lexicon_paths(language.lexicon, store)[0].is_file()
        and (not (common := tier_lexicon(code, "common")) or lexicon_paths(common, store)[0].is_file())
    ]


def markdown(results: list[LanguageResult]) -> str:
    """The comparison table in Markdown (numbers right-aligned, boards and words as code)."""
    headers = table_headers(results)
    rows = table_rows(results)
    code_columns = {headers.index("max board")}
    numeric = ("lexicon words", "mean", "median", "p90", "max", "words/board", "3-4 letter pts", "alphabet")
    right = {i for i, h in enumerate(headers) if h in numeric}
    right.add(headers.index("< 10 pts"))
    lines = [
        "| " + " | ".join(headers) + " |",
        "| " + " | ".join("---:" if i in right else "---" for i in range(len(headers))) + " |",
    ]
    for row in rows:
        cells = [f"`{c}`" if i in code_columns else c for i, c in enumerate(row)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def only_rows(codes: list[str], path: Path, boards: int, seed: int, store: str | None) -> None:
    """Replace the rows of `codes` in each table of the written section by a comparison of them alone."""
    text = path.read_text(encoding="utf-8")
    old = text.split(START, 1)[1].split(END, 1)[0].strip("\n")
    parts = old.split("\n### ")
    for i, part in enumerate(parts[1:], 1):
        title, command = part.split("\n", 1)[0], part.split("`")[1]
        if f"--boards {boards} " not in command + " " or f"--seed {seed} " not in command + " ":
            raise SystemExit(f"Error: {title}: written with other --boards/--seed ({command})")
        here = [c for c in codes if f" {c} " in command.split("--")[0] + " "]
        if not here:
            continue
        size = next(w for w in command.split("--size ")[1].split()[:1])
        rows, cols = (int(n) for n in size.split("x"))
        roll = "dice" if "--roll dice" in command else "letters"
        tier = command.split("--tier ")[1].split()[0] if "--tier " in command else "full"
        results = compare(here, size=(rows, cols), n_boards=boards, seed=seed, roll=roll, tier=tier,
                          loader=lambda name: load_lexicon(name, store, build=False))  # fmt: skip
        fresh = {r.split("|")[1].split("(")[0].strip(): r for r in markdown(results).splitlines()[2:]}
        lines = part.split("\n")
        for j, line in enumerate(lines):
            lang = line.split("|")[1].split("(")[0].strip() if line.startswith("| ") else None
            if lang in fresh:
                lines[j] = fresh[lang]
        parts[i] = "\n".join(lines)
        print(f"{title}: {', '.join(here)}", file=sys.stderr)
    note = (
        f"Rows of {', '.join(codes)} compared again alone on {time.strftime('%Y-%m-%d')} "
        "(`python tools/compare_doc.py --only ...`: same seeds, so the same rows a full run prints); "
        "the plot is the last full run's."
    )
    head, rest = parts[0].split("\n\n", 1)
    parts[0] = f"{head}\n\n{note}\n\n{rest}"
    replace_section(path, START, END, "\n### ".join(parts))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", type=Path, help="Markdown file whose compare section to replace")
    parser.add_argument("--boards", type=int, default=3000, help="random boards per language and size")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--store", default=None, help="lexicon store [default: $BOGGLE_I18N_HOME]")
    parser.add_argument("--plot", type=Path, default=REPO / "docs" / "compare-4x4.png", help="the 4x4 plot")
    parser.add_argument("--only", nargs="+", metavar="CODE", help="these languages' rows only (needs --write)")
    args = parser.parse_args()
    if args.only:
        if not args.write:
            parser.error("--only replaces rows of a written section: give --write FILE")
        only_rows(args.only, args.write, args.boards, args.seed, args.store)
        return
    codes = built_languages(args.store)
    if not codes:
        raise SystemExit("no language has a built lexicon in the store: build some first")
    lexicons: dict[str, Lexicon] = {}

    def loader(name: str) -> Lexicon:  # one load per lexicon for both sizes
        if name not in lexicons:
            lexicons[name] = load_lexicon(name, args.store, build=False)
        return lexicons[name]

    def progress(message: str) -> None:
        print(message, file=sys.stderr)

    started = time.perf_counter()
    load_before = os.getloadavg()[0]
    sections = []
    means: dict[tuple[str, str, str], float] = {}  # (size, tier, lang) -> mean score
    for (rows, cols), tier in ((size, tier) for size in SIZES for tier in TIERS):
        langs = codes if tier == "full" else [c for c in codes if tier_lexicon(c, tier)]
        results = compare(
            langs,
            size=(rows, cols),
            n_boards=args.boards,
            seed=args.seed,
            loader=loader,
            progress=progress,
            roll="letters",
            tier=tier,
        )
        for r in results:
            means[(f"{rows}x{cols}", tier, r.lang)] = float(r.stats["mean"])
        if (rows, cols) == (4, 4) and tier == "full" and args.write:
            from boggle_i18n.comparison.plot import plot_scores

            plot_scores(results, args.plot, args.seed)
            progress(f"wrote {args.plot}")
        command = f"boggle-i18n compare {' '.join(langs)} --size {rows}x{cols} --boards {args.boards}"
        command += f" --seed {args.seed} --roll letters --tier {tier}"
        apart = sorted(set(codes) - set(langs))
        note = f"\n\nNo {tier} tier (no frequency source): {', '.join(apart)}." if apart else ""
        sections.append(f"### {rows}x{cols}, {tier} tier\n\n`{command}`\n\n{markdown(results)}{note}")
    dice_langs = [c for c in codes if has_dice(c, (4, 4))]
    dice_results = compare(dice_langs, size=(4, 4), n_boards=args.boards, seed=args.seed, loader=loader, roll="dice")
    command = f"boggle-i18n compare {' '.join(dice_langs)} --size 4x4 --boards {args.boards} --seed {args.seed}"
    sections.append(
        f"### 4x4 on dice (the languages with a sourced 4x4 set)\n\n`{command} --roll dice`\n\n"
        f"{markdown(dice_results)}\n\nReported apart (no 4x4 dice set): "
        f"{', '.join(c for c in codes if c not in dice_langs)}."
    )
    ratios = []
    for size in ("4x4", "5x5"):
        for tier in TIERS:
            fr, en = means.get((size, tier, "fr")), means.get((size, tier, "en"))
            if fr and en:
                ratios.append(f"| {size} | {tier} | {fr:.1f} | {en:.1f} | {fr / en:.2f} |")
    seconds = time.perf_counter() - started
    plot_link = os.path.relpath(args.plot, args.write.parent) if args.write else args.plot.name
    body = (
        f"Generated by `python tools/compare_doc.py --write docs/languages.md --boards {args.boards} "
        f"--seed {args.seed}` on {time.strftime('%Y-%m-%d')} ({seconds:.0f} s, Python {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, load average {load_before:.1f}), for every language whose lexicon was built. "
        "Each table is what the `boggle-i18n compare` command above it prints (same library call, same seeds); "
        "`--json` adds every board with its score.\n\n"
        "One basis: every table but the last rolls every language's boards the same way, `--roll letters`: "
        "each cell drawn on its own from the language's letter distribution (the faces of its dice set, "
        "else its alphabet, each weighted by how often it occurs in the lexicon's words), and scores every "
        "language under one rule set by size (4x4: 3+ letters, classic-4x4; 5x5: 4+ letters, big-5x5). The "
        "full tier is the language's default lexicon; the common tier its `CODE-common` lexicon (words at "
        "least Zipf 3 frequent in wordfreq). The last table rolls real dice, for the languages that have "
        "them. `3-4 letter pts` is the share of points from words of 3 and 4 letters on the first 200 "
        "boards; `alphabet` the letters the lexicon uses. Each language's boards come from its own seed, "
        "`language_seed(seed, code)`, so adding a language changes no other row. p90 is numpy's linear "
        "interpolation; `< 10 pts` is the share of boards scoring under 10; the longest words are from the "
        "five best boards.\n\n"
        "French against English (mean score of random letter boards, same basis):\n\n"
        "| size | tier | fr mean | en mean | fr / en |\n| --- | --- | ---: | ---: | ---: |\n"
        + "\n".join(ratios)
        + "\n\n"
        + "\n\n".join(sections)
        + f"\n\n![Scores of random 4x4 boards per language, letters, full tier]({plot_link})"
    )
    if args.write:
        replace_section(args.write, START, END, body)
        progress(f"wrote {args.write}")
    else:
        print(body)


if __name__ == "__main__":
    main()
