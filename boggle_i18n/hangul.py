"""Korean words shown as a reader writes them: keystroke jamo composed back into syllable blocks.

A Korean lexicon stores each word as its keystrokes (`사람` is `ㅅㅏㄹㅏㅁ`, one face per key:
docs/languages.md), because a board of whole syllables would need thousands of faces. This
module undoes that for display only, as a Korean keyboard does while one types: a consonant
before a vowel starts a syllable, two vowel keys may make one vowel (`ㅗㅏ` -> `ㅘ`), and the
consonants between two vowels end the first syllable except the last, which starts the next
(`ㄷㅏㄹㄱㅇㅣ` -> `닭이`). Korean spelling never starts a syllable with a bare vowel, so the
split is unique; a sequence that fits no syllable is shown as its keys, never guessed.
"""

from __future__ import annotations

INITIALS = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
MEDIALS = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
FINALS = ["", *"ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ"]
VOWEL_PAIRS = {"ㅗㅏ": "ㅘ", "ㅗㅐ": "ㅙ", "ㅗㅣ": "ㅚ", "ㅜㅓ": "ㅝ", "ㅜㅔ": "ㅞ", "ㅜㅣ": "ㅟ", "ㅡㅣ": "ㅢ"}
FINAL_PAIRS = {
    "ㄱㅅ": "ㄳ",
    "ㄴㅈ": "ㄵ",
    "ㄴㅎ": "ㄶ",
    "ㄹㄱ": "ㄺ",
    "ㄹㅁ": "ㄻ",
    "ㄹㅂ": "ㄼ",
    "ㄹㅅ": "ㄽ",
    "ㄹㅌ": "ㄾ",
    "ㄹㅍ": "ㄿ",
    "ㄹㅎ": "ㅀ",
    "ㅂㅅ": "ㅄ",
}
_VOWELS = frozenset("ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅛㅜㅠㅡㅣ")


def _final(keys: str) -> str | None:
    """The final consonant that `keys` (zero, one or two consonant keys) write, or None if none does."""
    if len(keys) == 2:
        keys = FINAL_PAIRS.get(keys, "")
        return keys or None
    return keys if keys in FINALS else None


def compose(keys: str) -> str:
    """Syllable blocks for a word of keystroke jamo (`ㅅㅏㄹㅏㅁ` -> `사람`); the keys unchanged if they spell none."""
    out = []
    i, n = 0, len(keys)
    while i < n:
        if keys[i] not in INITIALS or i + 1 >= n or keys[i + 1] not in _VOWELS:
            return keys
        initial, vowel = keys[i], keys[i + 1]
        i += 2
        if i < n and (pair := VOWEL_PAIRS.get(vowel + keys[i])):
            vowel, i = pair, i + 1
        run = i
        while run < n and keys[run] not in _VOWELS:
            run += 1
        # consonants keys[i:run]: all final at the word's end, else the last one starts the next syllable
        cut = run if run == n else run - 1
        final = _final(keys[i:cut])
        if final is None:
            return keys
        code = 0xAC00 + (INITIALS.index(initial) * 21 + MEDIALS.index(vowel)) * 28 + FINALS.index(final)
        out.append(chr(code))
        i = cut
    return "".join(out)
