"""How much of Croatian's and Bosnian's coverage gap is the frequency list's Serbian.

wordfreq has no Croatian or Bosnian list: both are measured against its Serbo-Croatian
(`sh`) list, written in Latin letters and mixing the standards. This tool sorts each miss
of `boggle_i18n.comparison.frequency.coverage` into words the Serbian dictionary has (the built `sr`
lexicon, Cyrillic, compared through the official one-to-one Serbian Latin-Cyrillic
transliteration) and the rest, and prints the coverage of the list without the former.
It reports; it changes no lexicon and no official figure.

    python tools/serbo_croatian_coverage.py [--store DIR] [CODE ...]   # default: hr bs
"""

from __future__ import annotations

import argparse

from boggle_i18n import api
from boggle_i18n.comparison.frequency import coverage
from boggle_i18n.language.records import get_language

# Serbian Latin -> Cyrillic (Vuk's alphabet and Gaj's Latin alphabet, letter for letter); digraphs first.
LATIN_TO_CYRILLIC = [
    ("dž", "џ"), ("lj", "љ"), ("nj", "њ"), ("a", "а"), ("b", "б"), ("v", "в"), ("g", "г"), ("d", "д"),
    ("đ", "ђ"), ("e", "е"), ("ž", "ж"), ("z", "з"), ("i", "и"), ("j", "ј"), ("k", "к"), ("l", "л"),
    ("m", "м"), ("n", "н"), ("o", "о"), ("p", "п"), ("r", "р"), ("s", "с"), ("t", "т"), ("ć", "ћ"),
    ("u", "у"), ("f", "ф"), ("h", "х"), ("c", "ц"), ("č", "ч"), ("š", "ш"),
]  # fmt: skip


def to_cyrillic(word: str) -> str | None:
    """`word` in Serbian Cyrillic, or None if it has a letter Serbian Latin does not (q, w, x, y)."""
    out, i = [], 0
    while i < len(word):
        for latin, cyrillic in LATIN_TO_CYRILLIC:
            if word.startswith(latin, i):
                out.append(cyrillic)
                i += len(latin)
                break
        else:
            return None
    return "".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("codes", nargs="*", default=["hr", "bs"])
    parser.add_argument("--store", default=None, help="lexicon store [default: $BOGGLE_I18N_HOME]")
    args = parser.parse_args()
    serbian = api.load_lexicon("sr", store=args.store)
    for code in args.codes:
        language = get_language(code)
        result = coverage(api.load_lexicon(language.lexicon, store=args.store), language)
        in_serbian = [w for w in result.missing if (c := to_cyrillic(w)) is not None and c in serbian]
        rest = [w for w in result.missing if w not in in_serbian]
        checked = result.checked - len(in_serbian)
        print(
            f"{code}: {result.share:.1%} of the {result.checked:,} words ({len(result.missing)} misses); "
            f"{len(in_serbian)} misses are words the sr lexicon has; without them {1 - len(rest) / checked:.1%} "
            f"of {checked:,}"
        )
        print(f"  in sr: {', '.join(in_serbian[:24])} ...")
        print(f"  other misses: {', '.join(rest[:24])} ...")


if __name__ == "__main__":
    main()
