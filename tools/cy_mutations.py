"""Make pipelines/lists/cy-mutations.txt: the nasal and aspirate mutations (and d -> dd) in aspell-cy.

aspell-cy lists every mutated form of every word (`nghath`, `chath`, `phen` beside `cath`, `pen`), and
Welsh Scrabble does not allow mutated words. The soft mutation cannot be told from a radical by spelling
(dyn "man" is a radical and the soft mutation of tyn), so only the initials no radical starts with, or
hardly ever, are taken, and a word is listed only when its radical is in the list too:

    ngh-, mh-, nh- <- c-, p-, t- (nasal)      ng- <- g- (nasal)
    ph-, th-, ch- <- p-, t-, c- (aspirate)    dd- <- d- (soft)

Left alone: ch- words in chw- (chwys "sweat" is a radical, not cwys "furrow" mutated), chi ("you"),
ddoe ("yesterday") and ddim (the negative). The list is made from the dictionary itself
(`aspell -d cy dump master | aspell -l cy expand`), lower-cased with its marks folded as the recipe folds.

    python tools/cy_mutations.py > pipelines/lists/cy-mutations.txt
"""

from __future__ import annotations

import subprocess
import unicodedata

MUTATIONS = (("ngh", "c"), ("mh", "p"), ("nh", "t"), ("ng", "g"), ("ph", "p"), ("th", "t"), ("ch", "c"), ("dd", "d"))
RADICALS = {"chi", "ddoe", "ddim"}


def fold(word: str) -> str:
    """Lower case, marks dropped (â -> a, ŵ -> w), as the `cy` recipe's fold-marks stage does."""
    return "".join(c for c in unicodedata.normalize("NFD", word.lower()) if not unicodedata.combining(c))


def mutations(words: set[str]) -> list[str]:
    """The words that are a listed word with its first letter mutated (see the module docstring)."""
    out = []
    for word in words:
        if word in RADICALS or word.startswith("chw"):
            continue
        for initial, radical in MUTATIONS:
            if word.startswith(initial):
                if radical + word[len(initial) :] in words:
                    out.append(word)
                break
    return sorted(out)


def main() -> None:
    dump = subprocess.run(["aspell", "-d", "cy", "dump", "master"], capture_output=True, check=True).stdout
    expanded = subprocess.run(["aspell", "-l", "cy", "expand"], input=dump, capture_output=True, check=True).stdout
    words = {fold(w) for w in expanded.decode("utf-8").split() if w[:1].islower() and w.isalpha()}
    version = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "aspell-cy"], capture_output=True, text=True)
    print("# Nasal and aspirate mutations (and d -> dd) of words in aspell-cy, which Welsh Scrabble disallows:")
    print(f"# made by tools/cy_mutations.py from aspell-cy {version.stdout.strip() or 'unknown'}; see its header.")
    for word in mutations(words):
        print(word)


if __name__ == "__main__":
    main()
