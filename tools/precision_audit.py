"""Precision audit: the words a player meets on a language's boards, judged accept or reject by hand.

Coverage (tools/coverage_doc.py) measures what a list keeps; this measures what it adds. Two steps:

    python tools/precision_audit.py sample el he ar           # (re)write results/audit/LANG.tsv
    python tools/precision_audit.py sample --stable           # every stable language
    python tools/precision_audit.py report --write docs/languages.md   # the precision section
    python tools/precision_audit.py report --check docs/languages.md   # exit 1 if the section is stale

`sample` rolls BOARDS random 4x4 boards of the language on compare's basis for one language
(`default_roll`: its sourced 4x4 dice, else its letter distribution; the 3+ letter classic rules;
the boards `compare LANG --seed SEED` rolls), solves each, and counts for every word found the number
of boards it appears on (its weight). It then draws DRAWS words with replacement, each with
probability proportional to its weight: a draw is a (board, word) pair picked at random, a word as
a player meets it. A word drawn twice is one row with draws = 2. Sampling is deterministic for a
seed and a lexicon. Verdicts of words still sampled are kept when a file is written again (a list
changed, a new seed); a new word is `unjudged`, and `report` publishes no figure for a file that
has one. The file's `# policy:` lines (how the language was judged, with its sources) are kept too.

Each row: word (as the lexicon stores it), weight, draws, verdict (accept | reject | unjudged),
reason (for a reject: one of REASONS) and a short note.

`report` computes, per judged file: precision as met (the share of draws accepted: what a player
meets on boards) and per distinct word (each draw weighted by 1/weight, the Hansen-Hurwitz
estimate of the share of distinct words found on the boards that are accepted), each with a 95%
Wilson interval (the second on Kish's effective sample size).
"""

from __future__ import annotations

import argparse
import hashlib
import math
import random
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
AUDIT_DIR = REPO / "results" / "audit"
START = "<!-- precision:start -->"
END = "<!-- precision:end -->"
VERDICTS = ("accept", "reject", "unjudged")
REASONS = (
    "name",
    "abbreviation",
    "foreign",
    "fragment",
    "affix-stack",
    "spelling-variant",
    "mutated-form",
    "archaic",
    "typo/junk",
    "other",
)
COLUMNS = ("word", "weight", "draws", "verdict", "reason", "note")
SIZE = (4, 4)
Z95 = 1.959963984540054


class AuditError(Exception):
    """A bad file or argument: reported as one `Error:` line."""


@dataclass
class Row:
    """One sampled word and its verdict."""

    word: str
    weight: int
    draws: int
    verdict: str = "unjudged"
    reason: str = ""
    note: str = ""

    def line(self) -> str:
        return "\t".join([self.word, str(self.weight), str(self.draws), self.verdict, self.reason, self.note])


@dataclass
class Sample:
    """A language's audit file: what it was drawn from, its policy lines and its rows."""

    lang: str
    meta: dict[str, str] = field(default_factory=dict)
    policy: list[str] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)

    @property
    def unjudged(self) -> int:
        return sum(row.verdict == "unjudged" for row in self.rows)

    def text(self) -> str:
        head = [f"# {key}: {value}" for key, value in self.meta.items()]
        head += [f"# policy: {line}" for line in self.policy]
        return "\n".join([*head, "\t".join(COLUMNS), *(row.line() for row in self.rows)]) + "\n"


def parse(text: str, lang: str) -> Sample:
    """Read an audit file; every row checked (verdict, reason, numbers)."""
    sample = Sample(lang)
    header_seen = False
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        if line.startswith("# "):
            key, _, value = line[2:].partition(": ")
            if key == "policy":
                sample.policy.append(value)
            else:
                sample.meta[key] = value
            continue
        fields = line.split("\t")
        if not header_seen:
            if tuple(fields) != COLUMNS:
                raise AuditError(f"{lang}.tsv line {number}: the header must be {' '.join(COLUMNS)}")
            header_seen = True
            continue
        if len(fields) != len(COLUMNS):
            raise AuditError(f"{lang}.tsv line {number}: {len(fields)} fields, expected {len(COLUMNS)}")
        word, weight, draws, verdict, reason, note = fields
        if not (weight.isdigit() and draws.isdigit()) or int(weight) < 1 or int(draws) < 1:
            raise AuditError(f"{lang}.tsv line {number}: weight and draws must be positive whole numbers")
        if verdict not in VERDICTS:
            raise AuditError(f"{lang}.tsv line {number}: verdict {verdict!r} is not one of {', '.join(VERDICTS)}")
        if verdict == "reject" and reason not in REASONS:
            raise AuditError(f"{lang}.tsv line {number}: a reject needs a reason from: {', '.join(REASONS)}")
        if verdict != "reject" and reason:
            raise AuditError(f"{lang}.tsv line {number}: only a reject has a reason")
        sample.rows.append(Row(word, int(weight), int(draws), verdict, reason, note))
    if not header_seen:
        raise AuditError(f"{lang}.tsv has no header line")
    return sample


def load(path: Path) -> Sample:
    return parse(path.read_text(encoding="utf-8"), path.stem)


# --- sampling ---------------------------------------------------------------------------------------------


def draw(weights: dict[str, int], draws: int, seed: int) -> dict[str, int]:
    """`draws` words drawn with replacement, each with probability weight / total: word -> times drawn.

    Deterministic for the seed and the weights (the words are put in sorted order first)."""
    words = sorted(weights)
    if not words:
        return {}
    picked = random.Random(seed).choices(words, weights=[weights[w] for w in words], k=draws)
    out: dict[str, int] = {}
    for word in picked:
        out[word] = out.get(word, 0) + 1
    return out


def sample_seed(seed: int, lang: str) -> int:
    digest = hashlib.sha256(f"boggle-i18n precision audit {seed} {lang}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def board_weights(lang: str, boards: int, seed: int, store: str | None = None) -> tuple[dict[str, int], dict[str, str]]:
    """Roll `boards` 4x4 boards as `compare LANG --seed SEED` does and count the boards each word is on."""
    sys.path.insert(0, str(REPO))
    from boggle_i18n.api import load_lexicon
    from boggle_i18n.comparison.compare import board_source, default_roll, language_seed, roll_codes, shared_rules
    from boggle_i18n.language.selection import select
    from boggle_i18n.solver.scorer import prepare_scorer

    roll = default_roll([lang], SIZE)
    min_length, scoring = shared_rules(SIZE)
    selection = select(lang=lang, size=SIZE, store=store, min_length=min_length, scoring=scoring)
    lexicon = load_lexicon(selection.require_lexicon(), store)
    source = board_source(selection, lexicon, roll)
    scorer = prepare_scorer(lexicon, selection.rules, SIZE, engine="fast")
    codes = roll_codes(source, scorer.codec, SIZE, boards, language_seed(seed, selection.language.code))
    weights: dict[str, int] = {}
    for row in codes:
        for found in {w.word for w in scorer.solve(scorer.codec.decode(row, *SIZE)).words}:
            weights[found] = weights.get(found, 0) + 1
    keys = lexicon.manifest.get("keys_sha256", "?")
    meta = {
        "lang": selection.language.code,
        "lexicon": f"{lexicon.name} ({len(lexicon):,} words, keys sha256 {str(keys)[:16]})",
        "boards": f"{boards} 4x4, {source.label}, seed {seed} (as `compare {lang} --boards {boards} --seed {seed}`)",
        "rules": f"{min_length}+ letters, {scoring}",
        "found": f"{len(weights):,} distinct words on the boards, {sum(weights.values()):,} (board, word) pairs",
    }
    return weights, meta


def resample(
    old: Sample | None, lang: str, weights: dict[str, int], meta: dict[str, str], draws: int, seed: int
) -> Sample:
    """A new sample for `lang`, keeping the verdicts (and policy lines) of `old` for words drawn again."""
    picked = draw(weights, draws, sample_seed(seed, lang))
    meta = {**meta, "draws": f"{draws}, sampling seed {seed}"}
    judged = {row.word: row for row in old.rows} if old else {}
    rows = []
    for word in sorted(picked, key=lambda w: (-picked[w], -weights[w], w)):
        before = judged.get(word)
        row = Row(word, weights[word], picked[word])
        if before is not None and before.verdict != "unjudged":
            row.verdict, row.reason, row.note = before.verdict, before.reason, before.note
        rows.append(row)
    return Sample(lang, meta, list(old.policy) if old else [], rows)


def language_code(lang: str) -> str:
    """A language code checked against the records (the code names a file)."""
    sys.path.insert(0, str(REPO))
    from boggle_i18n.errors import BoggleI18nError
    from boggle_i18n.language.records import get_language

    try:
        return get_language(lang).code
    except BoggleI18nError as err:
        raise AuditError(str(err)) from None


def stable_languages() -> list[str]:
    sys.path.insert(0, str(REPO))
    from boggle_i18n.language.records import languages

    return sorted(code for code, language in languages().items() if language.status == "stable")


# --- the report -------------------------------------------------------------------------------------------


def wilson(successes: float, n: float) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (n may be an effective, non-integer sample size)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Figures:
    lang: str
    words: int
    draws: int
    as_met: float
    as_met_ci: tuple[float, float]
    distinct: float
    distinct_ci: tuple[float, float]
    reasons: dict[str, int]


def figures(sample: Sample) -> Figures:
    """Precision as met and per distinct word, with intervals (see the module docstring)."""
    if sample.unjudged:
        raise AuditError(f"{sample.lang}: {sample.unjudged} unjudged words: no figure until every word is judged")
    if not sample.rows:
        raise AuditError(f"{sample.lang}: the sample is empty")
    draws = sum(r.draws for r in sample.rows)
    accepted = sum(r.draws for r in sample.rows if r.verdict == "accept")
    u = [r.draws / r.weight for r in sample.rows]
    total_u = sum(u)
    accepted_u = sum(x for x, r in zip(u, sample.rows, strict=True) if r.verdict == "accept")
    n_eff = total_u * total_u / sum(x * x for x in u)
    p_distinct = accepted_u / total_u
    reasons: dict[str, int] = {}
    for r in sample.rows:
        if r.verdict == "reject":
            reasons[r.reason] = reasons.get(r.reason, 0) + r.draws
    return Figures(
        sample.lang,
        len(sample.rows),
        draws,
        accepted / draws,
        wilson(accepted, draws),
        p_distinct,
        wilson(p_distinct * n_eff, n_eff),
        dict(sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))),
    )


def pct(x: float) -> str:
    return f"{x:.0%}"


def report(samples: Iterable[Sample]) -> str:
    """The Markdown section: one row per judged language, then the files not yet judged."""
    rows, waiting, policies = [], [], []
    for sample in sorted(samples, key=lambda s: s.lang):
        if sample.unjudged:
            waiting.append(f"{sample.lang} ({sample.unjudged} of {len(sample.rows)} words)")
            continue
        f = figures(sample)
        why = ", ".join(f"{reason} {count}" for reason, count in f.reasons.items()) or "none"
        rows.append(
            f"| {f.lang} | {f.words} | {f.draws} | {pct(f.as_met)} | {pct(f.as_met_ci[0])}-{pct(f.as_met_ci[1])} "
            f"| {pct(f.distinct)} | {pct(f.distinct_ci[0])}-{pct(f.distinct_ci[1])} | {why} |"
        )
        if sample.policy:
            policies.append(f"- **{sample.lang}**: " + " ".join(sample.policy))
    out = [
        "Words sampled as a player meets them on the language's boards and judged by hand (the files",
        "`results/audit/LANG.tsv`; how they were judged is below). *As met*: share of draws accepted, a draw",
        "being a (board, word) pair, so a word counts as often as boards show it; *per word*: share of the",
        "distinct words found on the boards (draws weighted by 1 / the boards a word is on). 95% Wilson",
        "intervals (per word: on the effective sample size). Rejects are counted in draws. Made by",
        "`python tools/precision_audit.py sample LANG` (then judging) and",
        "`python tools/precision_audit.py report --write docs/languages.md`.",
        "",
        "| lang | words | draws | precision as met | 95% interval | per word | 95% interval | rejects (draws) |",
        "| --- | ---: | ---: | ---: | --- | ---: | --- | --- |",
        *rows,
    ]
    if waiting:
        out += ["", "Sampled but not yet judged (no figure is published): " + ", ".join(waiting) + "."]
    if policies:
        out += ["", "How each language was judged (the `# policy:` lines of its file):", "", *policies]
    return "\n".join(out)


def read_all(folder: Path) -> list[Sample]:
    return [load(path) for path in sorted(folder.glob("*.tsv"))]


# --- command line -----------------------------------------------------------------------------------------


def run(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("sample", help="(re)write results/audit/LANG.tsv for each language")
    s.add_argument("langs", nargs="*", metavar="LANG")
    s.add_argument("--stable", action="store_true", help="every stable language")
    s.add_argument("--boards", type=int, default=500, help="boards rolled per language (default 500)")
    s.add_argument("--draws", type=int, default=60, help="words drawn per language (default 60)")
    s.add_argument("--seed", type=int, default=7, help="seed of the boards and of the draws (default 7)")
    s.add_argument("--dir", type=Path, default=AUDIT_DIR, help="folder of the audit files")
    s.add_argument("--store", help="lexicon store (default: $BOGGLE_I18N_HOME or the user data folder)")
    r = sub.add_parser("report", help="precision per language from the judged files")
    r.add_argument("--dir", type=Path, default=AUDIT_DIR, help="folder of the audit files")
    group = r.add_mutually_exclusive_group()
    group.add_argument("--write", type=Path, help="replace the precision section of this Markdown file")
    group.add_argument("--check", type=Path, help="exit 1 if this file's precision section is not the report")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO / "tools"))
    from doc_section import read_section, replace_section

    if args.command == "report":
        body = report(read_all(args.dir))
        if args.write:
            replace_section(args.write, START, END, body)
        elif args.check:
            if read_section(args.check, START, END) != body:
                raise AuditError(f"{args.check}'s precision section is stale: run report --write {args.check}")
        else:
            print(body)
        return 0
    if not 1 <= args.boards <= 100_000 or not 1 <= args.draws <= 10_000:
        raise AuditError("--boards must be 1-100000 and --draws 1-10000")
    langs = [language_code(lang) for lang in args.langs] + (stable_languages() if args.stable else [])
    if not langs:
        raise AuditError("name a language (or --stable)")
    args.dir.mkdir(parents=True, exist_ok=True)
    for lang in dict.fromkeys(langs):
        path = args.dir / f"{lang}.tsv"
        old = load(path) if path.is_file() else None
        weights, meta = board_weights(lang, args.boards, args.seed, args.store)
        new = resample(old, lang, weights, meta, args.draws, args.seed)
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_text(new.text(), encoding="utf-8")
        tmp.replace(path)
        print(f"{lang}: {len(new.rows)} words, {new.unjudged} unjudged -> {path}", file=sys.stderr)
    return 0


def main() -> None:
    try:
        sys.exit(run())
    except AuditError as err:
        print(f"Error: {err}", file=sys.stderr)
        sys.exit(1)
    except Exception as err:  # a library refusal (unknown language, no lexicon): one line too
        name = type(err).__name__
        if name.endswith("Error") and type(err).__module__.startswith("boggle_i18n"):
            print(f"Error: {err}", file=sys.stderr)
            sys.exit(1)
        raise


if __name__ == "__main__":
    main()
