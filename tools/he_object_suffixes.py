"""Make pipelines/lists/he-object-suffixes.txt: Hspell's verb forms that carry an object suffix.

Hspell lists every verb with its object suffixes (ישמרך "he will guard you", גידלתו "I raised him",
תשתיתוך), about 97,000 of its entries: biblical and literary style; modern Hebrew writes the object
apart (ישמור אותך). hunspell-he's flags do not tell them from plain verb forms (both are flag b),
so this script asks Hspell itself (Debian `hspell`, `hspell -l` prints each word's analyses) and
writes an entry of flag b or d when EVERY analysis of it is a verb with a suffix (כינוי): שמרנו
("we guarded", also "guard us!") stays a word. Forms are written as the `he` recipe folds them
(final letters as their base letter), and each also with one particle of the recipe's when wordfreq
lists that form (the recipe keeps such particle forms; the list drops them too) and Hspell reads it
only as that particle + the suffixed verb (מחפשים is "searching" too: it stays). Needs the
[frequency] extra (wordfreq).

Run: python tools/he_object_suffixes.py > pipelines/lists/he-object-suffixes.txt
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

DIC = Path("/usr/share/hunspell/he_IL.dic")
FLAGS = {"b", "d"}  # hunspell-he's verb classes (d: forms that take only ו)
PARTICLES = ("ו", "ה", "ב", "כ", "ל", "מ", "ש")  # pipelines/he.toml
MIN_ZIPF = 1.0  # pipelines/he.toml particles_min_zipf
FINALS = str.maketrans("ךםןףץ", "כמנפצ")
VALID = "מילה חוקית: "  # hspell -l: "valid word: W", then one analysis a line


def verb_entries(dic: Path = DIC) -> list[str]:
    """The .dic entries of the verb flags, in file order."""
    out = []
    for line in dic.read_text(encoding="utf-8").splitlines()[1:]:
        word, _, flags = line.partition("/")
        if word and set(flags) & FLAGS:
            out.append(word)
    return out


def analyses(words: list[str]) -> dict[str, list[str]]:
    """`hspell -l` on the words (ISO-8859-8, as Hspell reads and writes): each word's analyses."""
    text = "\n".join(words).encode("iso-8859-8")
    done = subprocess.run(["hspell", "-l"], input=text, capture_output=True, check=True)
    found: dict[str, list[str]] = {}
    current = None
    for line in done.stdout.decode("iso-8859-8").splitlines():
        if line.startswith(VALID):
            current = line[len(VALID) :].strip()
            found[current] = []
        elif line.startswith("\t") and current is not None:
            found[current].append(line.strip())
    return found


def object_suffixed(found: dict[str, list[str]]) -> list[str]:
    """Words whose every analysis is a verb (פ) with a suffix (כינוי)."""
    return [w for w, a in found.items() if a and all("(פ" in x and "כינוי" in x for x in a)]


def main() -> int:
    """Print the list (with its header) on stdout."""
    import wordfreq

    suffixed = object_suffixed(analyses(verb_entries()))
    blocked = {w.translate(FINALS) for w in suffixed}
    floor = 10 ** (MIN_ZIPF - 9)
    table = wordfreq.get_frequency_dict("he")
    # a particle form wordfreq lists, unless it is also another word (מ + חפשים "search them!" is מחפשים
    # "searching"): Hspell analyses it again, prefix and all
    candidates = [p + w for w in suffixed for p in PARTICLES if table.get(p + w, 0) >= floor]
    with_particle = {w.translate(FINALS) for w in object_suffixed(analyses(candidates))}
    out = sys.stdout
    out.write("# Hspell verb forms with an object suffix (ישמרך, גידלתו), as the he recipe folds them, and their\n")
    out.write("# particle forms wordfreq lists. Made by tools/he_object_suffixes.py (hspell -l): do not edit.\n")
    for word in sorted(blocked | with_particle):
        out.write(word + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
