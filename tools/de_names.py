"""Make pipelines/lists/de-names.txt: proper nouns in igerman98 that German's `nouns` policy would keep.

German capitalises every noun, so capitalisation cannot tell `Haus` from `Berlin`.
This script takes the capitalised entries that SCOWL (Debian wamerican) also lists
capitalised, i.e. English proper nouns (names, places, brands), and keeps as names
only those that
  - have no lower-case English counterpart (Bach is a name; Rose is also "rose"), and
  - have no German inflected form in wngerman beyond the genitive -s (Baum has Baumes,
    Bauer has Bauern: common nouns; Berlin has only Berlins: a name).
Each name is written lower-cased and transliterated as the `de` recipe folds it
(Düsseldorf -> duesseldorf), with its genitive when the list has one.
The result is a blunt rule: it drops some real nouns (Donner has no -n/-e/-es form
in the list either); docs/languages.md says how many and which.

Run: python tools/de_names.py /usr/share/dict/american-english /usr/share/dict/ngerman > pipelines/lists/de-names.txt
"""

from __future__ import annotations

import subprocess
import sys

FOLD = {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"}
ENDINGS = ("e", "en", "n", "es", "ens")  # not -er: Berliner is made from Berlin
# Common nouns that pass the rule but are not names: months, units named after people,
# cheeses and wines named after places (checked by hand against the generated list).
KEEP = {
    "April",
    "August",
    "Januar",
    "Juni",
    "Juli",
    "Mai",
    "Celsius",
    "Fahrenheit",
    "Coulomb",
    "Becquerel",
    "Kelvin",
    "Newton",
    "Volt",
    "Watt",
    "Ampere",
    "Ohm",
    "Joule",
    "Hertz",
    "Pascal",
    "Tesla",
    "Weber",
    "Brie",
    "Camembert",
    "Bordeaux",
    "Beaujolais",
    "Armagnac",
    "Cognac",
    "Champagner",
    "Burgunder",
    "Brut",
    "Diesel",
    "Zeppelin",
    "Antichrist",
}


def fold(word: str) -> str:
    return "".join(FOLD.get(ch, ch) for ch in word.lower())


def version(package: str) -> str:
    out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True)
    return out.stdout.strip() or "unknown"


def names(english: list[str], german: list[str]) -> list[str]:
    en_proper = {w for w in english if w[:1].isupper() and "'" not in w}
    en_common = {w for w in english if w[:1].islower()}
    de_set = set(german)
    out = []
    for word in german:
        if word not in en_proper or not word[1:].islower() or word.lower() in en_common or word in KEEP:
            continue
        if any(word + ending in de_set for ending in ENDINGS):
            continue
        out.append(fold(word))
        if word + "s" in de_set:
            out.append(fold(word + "s"))
    return sorted(set(out))


def main() -> None:
    english = open(sys.argv[1], encoding="utf-8").read().split("\n")
    german = open(sys.argv[2], encoding="utf-8").read().split("\n")
    print("# Proper nouns (names, places, brands) in igerman98 that German's `nouns` case policy keeps.")
    print(f"# Made by tools/de_names.py from Debian wamerican {version('wamerican')} (SCOWL proper nouns)")
    print(f"# and wngerman {version('wngerman')}; see the script for the rule and docs/languages.md.")
    for name in names(english, german):
        print(name)


if __name__ == "__main__":
    main()
