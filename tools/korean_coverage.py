"""What a fair list can reach: a lexicon's everyday-word misses sorted by Hunspell's own checker.

wordfreq's Korean list comes from MeCab's tokens: it splits particles and endings off the
words a writer joins them to (`습니다`, `로부터`, verb stems such as `기다리`), so some of
its top words are no words alone, and some are English. This tool takes the top 2,000
exactly as `boggle_i18n.comparison.frequency.coverage` takes them and sorts each miss into:

- **letters**: the lexicon's own stages drop it for letters the language does not use
  (`the`, `com`): no list in this alphabet can hold it (Hunspell's checker is not asked: it
  takes any Latin string as a compound of hunspell-ko's single-letter entries);
- **accepted**: `hunspell -d DIC` accepts it (stem + affix, `-m` tells which): a form the
  dictionary makes and the lexicon lacks. Each is marked `skipped` when the flag that makes
  it is one the recipe never applies (`skip_flags`), `beyond` when the recipe applies the flag
  but not that rule (a deeper or longer affix than its depth), else `stem` (the analysis names
  no affix);
- **rejected**: the checker rejects it: not a word alone by the dictionary's own rules (bound
  endings and particles, bare verb stems, loanwords it lacks).

It also gives the two figures docs/languages.md quotes: the share of the top words the
checker accepts (what a list true to the dictionary can reach at most) and the lexicon's
coverage of those. The dictionary is the one the lexicon's recipe names (`[source] system`).
It reports; it changes no lexicon and no official figure. Needs Debian's `hunspell`.

`--precision N` draws N random words of the built lexicon instead (seeded), writes each as a
reader does (`Language.display`: Korean keys composed into syllable blocks) and gives them
to the same checker: how many it accepts is the lexicon's precision.

    python tools/korean_coverage.py [--store DIR] [--json] [CODE ...]   # default: ko
    python tools/korean_coverage.py --precision 1000 --seed 1 ko
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from boggle_i18n import api  # noqa: E402
from boggle_i18n.comparison.frequency import top_words  # noqa: E402
from boggle_i18n.language.records import get_language  # noqa: E402
from boggle_i18n.lookup import WordChecker  # noqa: E402
from boggle_i18n.pipeline.recipe import load_recipe  # noqa: E402


def hunspell(dic: Path, words: list[str], *options: str) -> str:
    """`hunspell -d DIC -i utf-8 OPTIONS` over `words` (one a line): its output."""
    exe = shutil.which("hunspell")
    if exe is None:
        raise SystemExit("Error: this needs Debian's hunspell (apt-get install hunspell)")
    return subprocess.run(
        [exe, "-d", str(dic.with_suffix("")), "-i", "utf-8", *options],
        input="\n".join(words) + "\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
    ).stdout


def analyses(dic: Path, words: list[str]) -> dict[str, list[dict[str, str]]]:
    """Hunspell's analyses (`-m`) of each accepted word: its fields (`st` stem, `fl` flag), one dict each."""
    out: dict[str, list[dict[str, str]]] = {}
    for line in hunspell(dic, words, "-m").split("\n"):
        parts = line.split()
        if len(parts) >= 2:
            out.setdefault(parts[0], []).append(dict(p.split(":", 1) for p in parts[1:] if ":" in p))
    return out


def classify(code: str, store: str | None = None) -> dict[str, Any]:
    """The top words of language `code` sorted as the docstring says, with the two figures."""
    language = get_language(code)
    lexicon = api.load_lexicon(language.lexicon, store=store)
    recipe = load_recipe(str(lexicon.manifest["name"]))
    dic = Path(recipe.source.system[0])
    skipped_flags = set(recipe.source.skip_flags)
    top = top_words(language)
    checker = WordChecker(lexicon)
    answers = {w: checker.check(w) for w in top}
    letters = [w for w in top if not answers[w].found and answers[w].category == "letters"]
    in_alphabet = [w for w in top if w not in set(letters)]
    accepted = set(hunspell(dic, in_alphabet, "-G").split("\n")) - {""}
    misses = [w for w in in_alphabet if not answers[w].found]
    found = [w for w in in_alphabet if answers[w].found]
    parsed = analyses(dic, [w for w in misses if w in accepted])
    kinds: dict[str, list[str]] = {"skipped": [], "beyond": [], "stem": []}
    how: dict[str, str] = {}
    for word in misses:
        if word not in accepted:
            continue
        flags = [a["fl"] for a in parsed.get(word, []) if "fl" in a]
        kind = "stem" if not flags else "skipped" if all(f in skipped_flags for f in flags) else "beyond"
        kinds[kind].append(word)
        how[word] = "; ".join(f"{a.get('st', '?')}+{a.get('fl', '-')}" for a in parsed.get(word, []))
    rejected = [w for w in misses if w not in accepted]
    words_by_checker = [w for w in in_alphabet if w in accepted]
    found_of_those = [w for w in words_by_checker if answers[w].found]
    return {
        "code": code,
        "lexicon": str(lexicon.manifest["name"]),
        "dictionary": str(dic),
        "checked": len(top),
        "found": len(top) - len(letters) - len(misses),
        "coverage": round((len(top) - len(letters) - len(misses)) / len(top), 4),
        "letters": letters,
        "accepted": {k: [(w, how[w]) for w in v] for k, v in kinds.items()},
        "rejected": rejected,
        "found_rejected_by_checker": [w for w in found if w not in accepted],
        "words_by_checker": len(words_by_checker),
        "ceiling": round(len(words_by_checker) / len(top), 4),
        "coverage_of_checker_words": round(len(found_of_those) / len(words_by_checker), 4) if words_by_checker else 0,
    }


def precision(code: str, sample: int, seed: int, store: str | None = None) -> dict[str, Any]:
    """`sample` random words of the language's lexicon (reservoir, `seed`), as shown, given to hunspell."""
    language = get_language(code)
    lexicon = api.load_lexicon(language.lexicon, store=store)
    dic = Path(load_recipe(str(lexicon.manifest["name"])).source.system[0])
    rng = random.Random(seed)
    drawn: list[str] = []
    for n, word in enumerate(lexicon.probes()[1]("")):  # streamed: no list of 2.5M words
        if n < sample:
            drawn.append(word)
        elif (j := rng.randrange(n + 1)) < sample:
            drawn[j] = word
    shown = [language.display(w) for w in drawn]
    accepted = set(hunspell(dic, shown, "-G").split("\n"))
    rejected = [w for w in shown if w not in accepted]
    return {"code": code, "lexicon": str(lexicon.manifest["name"]), "words": len(lexicon), "sample": len(shown),
            "seed": seed, "accepted": len(shown) - len(rejected), "rejected": rejected, "drawn": shown}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("codes", nargs="*", default=["ko"])
    parser.add_argument("--store", default=None, help="lexicon store [default: $BOGGLE_I18N_HOME]")
    parser.add_argument("--json", action="store_true", help="the full lists as JSON")
    parser.add_argument("--examples", type=int, default=20, help="examples printed per group [20]")
    parser.add_argument("--precision", type=int, default=0, metavar="N", help="check N random lexicon words instead")
    parser.add_argument("--seed", type=int, default=1, help="the draw's seed for --precision [1]")
    args = parser.parse_args()
    for code in args.codes:
        if args.precision:
            p = precision(code, args.precision, args.seed, args.store)
            if args.json:
                print(json.dumps(p, ensure_ascii=False))
                continue
            print(
                f"{code} ({p['lexicon']}, {p['words']:,} words): hunspell accepts {p['accepted']}/{p['sample']} "
                f"random words (seed {p['seed']}); rejected: {', '.join(p['rejected'][: args.examples])}"
            )
            print(f"  drawn: {' '.join(p['drawn'][: args.examples])}")
            continue
        r = classify(code, args.store)
        if args.json:
            print(json.dumps(r, ensure_ascii=False))
            continue
        n, acc = args.examples, r["accepted"]
        n_acc = sum(len(v) for v in acc.values())
        print(
            f"{code} ({r['lexicon']}, {r['dictionary']}): {r['found']:,} of the top {r['checked']:,} found "
            f"({r['coverage']:.1%}); misses: {len(r['letters'])} letters outside the alphabet, "
            f"{n_acc} accepted by hunspell, {len(r['rejected'])} rejected by it"
        )
        print(
            f"  hunspell accepts {r['words_by_checker']:,} of the {r['checked']:,} ({r['ceiling']:.1%}: the most a "
            f"list true to the dictionary can reach); the lexicon has {r['coverage_of_checker_words']:.1%} of those"
        )
        print(f"  letters: {', '.join(r['letters'][:n])}")
        for kind, rows in acc.items():
            shown = ", ".join(f"{w} ({how})" for w, how in rows[:n])
            print(f"  accepted, {kind} ({len(rows)}): {shown}")
        print(f"  rejected ({len(r['rejected'])}): {', '.join(r['rejected'][:n])}")
        bad = r["found_rejected_by_checker"]
        print(f"  found but rejected by hunspell ({len(bad)}): {', '.join(bad[:n])}")


if __name__ == "__main__":
    main()
