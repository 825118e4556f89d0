"""Why a beta language's everyday words are missing: each miss given back to the source's own checker.

For a language's default lexicon, takes the misses of `boggle_i18n.comparison.frequency.coverage` (wordfreq's
top 2,000 words of 3+ letters) and sorts them by what a spell checker says:

- `as written`: the source dictionary's checker accepts the word as wordfreq writes it, so the
  expansion (or the recipe) loses it: a deeper or better expansion could win these;
- `capitalised only`: the checker accepts it only with a capital (`Jakarta`, `Beograd`): a name,
  which the recipe drops with every capitalised entry;
- `English`: not the above, a word of the project's American English lexicon (`en-us`, wamerican;
  built in the store) (`the`, `online`);
- `absent`: the dictionary has no such word (informal spellings, another standard's words).

With `--other CHECKER`, also which `absent` misses another dictionary accepts as written (a
candidate source). A checker is `hunspell:DIC` (`hunspell -d DIC -G`, DIC the .dic path without
.dic) or `aspell:LANG` (`aspell -l LANG list`). It reports; it changes no lexicon and no figure.

    python tools/miss_check.py id hunspell:/usr/share/hunspell/id_ID
    python tools/miss_check.py fa aspell:fa --other hunspell:/usr/share/hunspell/fa_IR
    python tools/miss_check.py hr hunspell:/usr/share/hunspell/hr_HR --other aspell:hr --json
"""

from __future__ import annotations

import argparse
import json
import subprocess

from boggle_i18n import api
from boggle_i18n.comparison.frequency import coverage
from boggle_i18n.errors import BoggleI18nError
from boggle_i18n.language.records import get_language


def accepted(checker: str, words: list[str]) -> set[str]:
    """The words `checker` accepts as written."""
    kind, _, arg = checker.partition(":")
    text = "\n".join(words) + "\n"
    if kind == "hunspell":
        out = subprocess.run(["hunspell", "-d", arg, "-i", "utf-8", "-G"], input=text, capture_output=True,
                             text=True, encoding="utf-8", check=True).stdout  # fmt: skip
        return set(out.split("\n")) & set(words)
    if kind == "aspell":
        out = subprocess.run(["aspell", "-l", arg, "--encoding=utf-8", "list"], input=text, capture_output=True,
                             text=True, encoding="utf-8", check=True).stdout  # fmt: skip
        return set(words) - set(out.split("\n"))
    raise SystemExit(f"Error: a checker is hunspell:DIC or aspell:LANG, not {checker!r}")


def sort_misses(code: str, checker: str, other: str | None, store: str | None) -> dict:
    language = get_language(code)
    result = coverage(api.load_lexicon(language.lexicon, store=store), language)
    misses = list(result.missing)
    written = accepted(checker, misses)
    rest = [w for w in misses if w not in written]
    capital = {w[:1].upper() + w[1:] for w in rest} - set(rest)
    capital_ok = accepted(checker, sorted(capital)) if capital else set()
    names = [w for w in rest if w[:1].upper() + w[1:] in capital_ok]
    rest = [w for w in rest if w not in names]
    english_lexicon = api.load_lexicon("en-us", store=store)
    english = {w for w in rest if w in english_lexicon}
    absent = [w for w in rest if w not in english]
    out = {
        "lang": code,
        "checker": checker,
        "checked": result.checked,
        "share": round(result.share, 4),
        "misses": len(misses),
        "as_written": [w for w in misses if w in written],
        "capitalised_only": names,
        "english": [w for w in rest if w in english],
        "absent": absent,
    }
    if other:
        out["other"] = other
        out["other_accepts"] = [w for w in absent if w in accepted(other, absent)]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("code", help="a language code (its default lexicon, built in the store)")
    parser.add_argument("checker", help="the source's checker: hunspell:DIC or aspell:LANG")
    parser.add_argument("--other", help="another checker to try on the absent misses")
    parser.add_argument("--store", default=None, help="lexicon store [default: $BOGGLE_I18N_HOME]")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    try:
        r = sort_misses(args.code, args.checker, args.other, args.store)
    except subprocess.CalledProcessError as e:
        said = (e.stderr or "").strip().splitlines()
        raise SystemExit(f"Error: {e.cmd[0]} failed: {said[0] if said else f'exit status {e.returncode}'}") from None
    except (BoggleI18nError, OSError) as e:
        raise SystemExit(f"Error: {e}") from None
    if args.json:
        print(json.dumps(r, ensure_ascii=False))
        return
    print(f"{r['lang']}: {r['share']:.1%} of {r['checked']:,}, {r['misses']} misses; checker {r['checker']}")
    for key in ("as_written", "capitalised_only", "english", "absent"):
        print(f"  {key.replace('_', ' ')}: {len(r[key])}: {' '.join(r[key][:40])}")
    if args.other:
        print(f"  absent, accepted by {r['other']}: {len(r['other_accepts'])}: {' '.join(r['other_accepts'])}")


if __name__ == "__main__":
    main()
