"""Evidence for judging a precision-audit sample: what a judge should look up before a verdict.

A judge working from memory rejects real words (a rare inflection, a folded spelling he does not
recognise). This gathers, per sampled word of results/audit/LANG.tsv, mechanically:

- the source spellings the lexicon's word came from: some languages fold accents (Catalan `sino`
  is `sinó`, `aria` is `ària`), so candidate spellings are unfolded (every letter the fold
  maps to the stored letter) and kept when the recipe's source accepts them (a hunspell/aspell
  dictionary says it is correct, or a plain word list holds it);
- the hunspell stems (`-s`) and morphology (`-m`) of each source spelling, where the source is hunspell:
  a stem equal to the word marks a headword, a different stem an inflected form;
- wordfreq's Zipf frequency of the folded word and of each source spelling in the language's wordfreq
  list (where wordfreq has the language);
- Zipf frequencies in neighbouring languages (an English word in a Swahili list, a Spanish word in a
  Galician one): a high figure there and none here points to a foreign word.

    python tools/audit_evidence.py ro                 # the unjudged words of results/audit/ro.tsv
    python tools/audit_evidence.py ro --all           # every sampled word
    python tools/audit_evidence.py ro --words casei iac

Output: one tab-separated line per word (word, weight, zipf, sources, neighbours). Evidence, not a
verdict: the judge still decides as a player would, and says so in the file's `# policy:` line.
"""

from __future__ import annotations

import argparse
import itertools
import re
import subprocess
import sys
import tomllib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))

from precision_audit import AUDIT_DIR, AuditError, load  # noqa: E402

# Languages whose players meet these languages' words too (loans, a shared orthography, a border).
NEIGHBOURS: dict[str, tuple[str, ...]] = {
    "af": ("nl", "en"),
    "an": ("es", "ca"),
    "be": ("ru", "uk"),
    "br": ("fr", "en"),
    "ca": ("es", "fr"),
    "eu": ("es", "fr"),
    "fo": ("is", "da"),
    "ga": ("en",),
    "gl": ("es", "pt"),
    "hsb": ("cs", "pl", "de"),
    "is": ("da", "en"),
    "kk": ("ru",),
    "lv": ("lt", "ru"),
    "nn": ("nb", "da"),
    "oc": ("fr", "ca", "es"),
    "ro": ("it", "fr", "en"),
    "sk": ("cs", "hu"),
    "sl": ("sh", "it"),
    "sq": ("it", "en"),
    "sr": ("bg", "ru", "mk"),
    "sw": ("en",),
}
MAX_CANDIDATES = 4096


@dataclass(frozen=True)
class Source:
    """How to ask the recipe's source whether a spelling is in it."""

    kind: str  # hunspell | aspell | list
    where: str  # dictionary path stem, aspell dictionary name, or list path
    encoding: str = "utf-8"  # of a plain list (the recipe's `encoding`)


@dataclass
class Spelling:
    text: str
    zipf: float
    stems: list[str] = field(default_factory=list)
    morph: list[str] = field(default_factory=list)


@dataclass
class Evidence:
    word: str
    weight: int
    zipf: float | None
    spellings: list[Spelling]
    neighbours: dict[str, float]

    def line(self) -> str:
        def fmt(z: float | None) -> str:
            return "-" if z is None else f"{z:.1f}"

        found = []
        for s in self.spellings:
            bits = [s.text, f"z{fmt(s.zipf) if self.zipf is not None else '-'}"]
            if s.stems:
                bits.append("stem " + "/".join(s.stems))
            if s.morph:
                bits.append("m " + " | ".join(s.morph)[:120])
            found.append(" ".join(bits))
        near = " ".join(f"{lang}{z:.1f}" for lang, z in self.neighbours.items() if z > 0)
        return "\t".join(
            [self.word, str(self.weight), fmt(self.zipf), "; ".join(found) or "NOT IN SOURCE", near or "-"]
        )


def recipe_source(lang: str) -> Source:
    """The source of the language's default lexicon recipe (pipelines/LEXICON.toml)."""
    record = tomllib.loads((REPO / "lexicons" / "languages" / f"{lang}.toml").read_text(encoding="utf-8"))
    recipe_path = REPO / "pipelines" / f"{record.get('lexicon', lang)}.toml"
    recipe = tomllib.loads(recipe_path.read_text(encoding="utf-8"))
    source = recipe.get("source", {})
    paths = source.get("system", [])
    if not paths:
        raise AuditError(f"{recipe_path.name} names no system source to consult")
    path = paths[0]
    if "dictionary" in source or path.endswith(".rws"):
        return Source("aspell", source.get("dictionary", Path(path).stem))
    if path.endswith(".dic"):
        return Source("hunspell", path[: -len(".dic")])
    return Source("list", path, str(recipe.get("encoding", "utf-8")))


def language_record(lang: str) -> dict[str, object]:
    return tomllib.loads((REPO / "lexicons" / "languages" / f"{lang}.toml").read_text(encoding="utf-8"))


def folder(record: dict[str, object]) -> Callable[[str], str]:
    """The fold-accents stage's fold for this language (its own stage, so one rule)."""
    sys.path.insert(0, str(REPO))
    from unidecode import unidecode

    alphabet = str(record.get("alphabet", ""))
    table = {str(k): str(v) for k, v in dict(record.get("fold", {}) or {}).items()}  # type: ignore[call-overload]
    for ch in alphabet:
        table[ch] = ch

    def fold(text: str) -> str:
        return "".join(table.get(ch, ch if ch.isascii() else unidecode(ch)) for ch in text)

    return fold


def unfold(word: str, fold: Callable[[str], str], pool: str) -> list[str]:
    """Spellings that fold to `word`: each letter may be any pool character folding to it (or itself);
    a character folding to nothing (Catalan's middle dot) may stand between two letters."""
    options: dict[str, set[str]] = {}
    silent = [ch for ch in pool if fold(ch) == ""]
    for ch in pool:
        folded = fold(ch)
        if len(folded) == 1:
            options.setdefault(folded, set()).add(ch)
    slots = [sorted({ch} | options.get(ch, set())) for ch in word]
    out: list[str] = []
    for combo in itertools.product(*slots):
        out.append("".join(combo))
        if len(out) >= MAX_CANDIDATES:
            break
    for mark in silent:
        if mark in "'’":
            continue
        extra = []
        for spelled in out:
            for i in range(1, len(spelled)):
                if spelled[i - 1] == spelled[i] == "l":
                    extra.append(spelled[:i] + mark + spelled[i:])
        out += extra
    return list(dict.fromkeys(out))


@cache
def source_chars(source: Source) -> str:
    """The non-ASCII characters the source uses (limits the unfolding)."""
    if source.kind == "aspell":  # no file to scan, and aspell splits a word at a letter outside its set
        return ""  # (the aspell languages here, ga and hsb, fold nothing: their letters are the alphabet's)
    paths = [source.where + ".dic", source.where + ".aff"] if source.kind == "hunspell" else [source.where]
    encoding = source.encoding
    if source.kind == "hunspell":  # the .aff's SET line names both files' encoding
        head = Path(source.where + ".aff").read_bytes()[:4096].decode("ascii", errors="replace")
        found = re.search(r"^SET\s+(\S+)", head, re.MULTILINE)
        encoding = found.group(1) if found else "utf-8"
    chars: set[str] = set()
    for path in paths:
        try:
            text = Path(path).read_text(encoding=encoding, errors="replace")
        except OSError:
            continue
        chars.update(ch.lower() for ch in text if (not ch.isascii() and ch.isalpha()) or ch in "·'’")
    return "".join(sorted(chars))


@cache
def word_list(path: str, encoding: str) -> frozenset[str]:
    return frozenset(Path(path).read_text(encoding=encoding, errors="replace").split("\n"))


def run_tool(args: Sequence[str], lines: Iterable[str]) -> str:
    proc = subprocess.run(
        list(args), input="\n".join(lines) + "\n", capture_output=True, text=True, encoding="utf-8", check=False
    )
    return proc.stdout


def accepted(source: Source, candidates: list[str]) -> list[str]:
    """The candidates the source holds (in their order)."""
    if not candidates:
        return []
    if source.kind == "list":
        held = word_list(source.where, source.encoding)
        return [c for c in candidates if c in held]
    if source.kind == "hunspell":
        good = set(run_tool(["hunspell", "-i", "utf-8", "-d", source.where, "-G"], candidates).split("\n"))
        return [c for c in candidates if c in good]
    bad = set(run_tool(["aspell", "-d", source.where, "--encoding=utf-8", "list"], candidates).split("\n"))
    # aspell list echoes misspelled words only; a candidate with an apostrophe may be split, so check whole.
    return [c for c in candidates if c not in bad and re.fullmatch(r"[^\s]+", c)]


def hunspell_analysis(source: Source, spellings: Sequence[str]) -> dict[str, tuple[list[str], list[str]]]:
    """Stems (`-s`) and morphology (`-m`) of each spelling, when the source is a hunspell dictionary."""
    out: dict[str, tuple[list[str], list[str]]] = {s: ([], []) for s in spellings}
    if source.kind != "hunspell" or not spellings:
        return out
    for flag, slot in (("-s", 0), ("-m", 1)):
        for line in run_tool(["hunspell", "-i", "utf-8", "-d", source.where, flag], spellings).split("\n"):
            parts = line.split(None, 1)
            if len(parts) == 2 and parts[0] in out:
                value = parts[1].strip().split()[0] if slot == 0 else parts[1].strip()
                if value and value not in out[parts[0]][slot]:
                    out[parts[0]][slot].append(value)
    return out


def zipf(word: str, lang: str | None) -> float:
    if not lang:
        return 0.0
    from wordfreq import zipf_frequency

    return float(zipf_frequency(word, lang))


def evidence(lang: str, rows: Sequence[tuple[str, int]]) -> list[Evidence]:
    """The evidence for each (word, weight) of a language's sample."""
    record = language_record(lang)
    freq_lang = record.get("wordfreq")
    freq = str(freq_lang) if freq_lang else None
    source = recipe_source(lang)
    fold = folder(record)
    pool = source_chars(source)
    unfolded = {word: unfold(word, fold, pool) for word, _ in rows}
    held_all = set(accepted(source, list(dict.fromkeys(c for cs in unfolded.values() for c in cs))))
    held = {word: [c for c in cs if c in held_all] for word, cs in unfolded.items()}
    analysis = hunspell_analysis(source, sorted(held_all))
    out = []
    for word, weight in rows:
        spellings = [Spelling(s, zipf(s, freq), *analysis[s]) for s in held[word]]
        near: dict[str, float] = {}
        for other in NEIGHBOURS.get(lang, ()):
            near[other] = max([zipf(s, other) for s in [word, *held[word]]] or [0.0])
        out.append(Evidence(word, weight, zipf(word, freq) if freq else None, spellings, near))
    return out


def run(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lang", metavar="LANG")
    parser.add_argument("--all", action="store_true", help="every sampled word, not only the unjudged ones")
    parser.add_argument("--words", nargs="+", metavar="WORD", help="these words instead of the sample's")
    parser.add_argument("--dir", type=Path, default=AUDIT_DIR, help="folder of the audit files")
    args = parser.parse_args(argv)
    if (
        not re.fullmatch(r"[a-z]{2,3}(-[a-z]{2})?", args.lang)
        or not (REPO / "lexicons" / "languages" / f"{args.lang}.toml").is_file()
    ):
        raise AuditError(f"no language {args.lang!r} in lexicons/languages/")
    if args.words:
        rows = [(w.lower(), 0) for w in args.words]
    else:
        path = args.dir / f"{args.lang}.tsv"
        if not path.is_file():
            raise AuditError(f"{path} does not exist: run precision_audit.py sample {args.lang} first")
        sample = load(path)
        rows = [(r.word, r.weight) for r in sample.rows if args.all or r.verdict == "unjudged"]
    print("word\tweight\tzipf\tsource spellings (zipf, hunspell stems, morphology)\tneighbours (zipf)")
    for item in evidence(args.lang, rows):
        print(item.line())
    return 0


def main() -> None:
    try:
        sys.exit(run())
    except AuditError as err:
        print(f"Error: {err}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
