"""Make pipelines/lists/gl-abbreviations.txt: the codes hunspell-gl lists as bare lower-case entries.

hunspell-gl's gl_ES.dic tags every word with its part of speech (`po:substantivo_feminino`); it also
carries about 8,000 entries with no tag and no affix flag, nearly all of them three-letter codes
(ISO 639-3 language codes such as `bpq`, `kqx`, `sja`; currency and other initialisms: `csr`, `pxm`,
`tnb`), which the `case` stage cannot see because they are written in lower case. This script lists
the bare untagged lower-case entries of 3+ letters whose spelling is not also a tagged entry, minus
every word of Debian's other Galician list (wgalician-minimos), so that a real word written bare
(`bon`, `dia`, `mas`) stays.

    python tools/gl_abbreviations.py /usr/share/hunspell/gl_ES.dic /usr/share/dict/galician-minimos \\
        > pipelines/lists/gl-abbreviations.txt
"""

from __future__ import annotations

import subprocess
import sys


def codes(dic: list[str], other: set[str]) -> list[str]:
    """Bare, untagged, lower-case entries of 3+ letters that are no tagged entry and no word of `other`."""
    tagged = {line.split("/")[0].split(" ")[0] for line in dic if "po:" in line}
    out = set()
    for line in dic:
        word = line.strip()
        if not word or "po:" in line or "/" in word or " " in word:
            continue
        if word.isalpha() and word.islower() and len(word) >= 3 and word not in tagged and word not in other:
            out.add(word)
    return sorted(out)


def version(package: str) -> str:
    out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True)
    return out.stdout.strip() or "unknown"


def main() -> None:
    dic = open(sys.argv[1], encoding="iso-8859-1").read().split("\n")[1:]
    other = set(open(sys.argv[2], encoding="utf-8", errors="replace").read().split("\n"))
    print("# Codes and abbreviations hunspell-gl lists as bare lower-case entries (bpq, csr, pxm): see")
    print(f"# tools/gl_abbreviations.py. Made from hunspell-gl {version('hunspell-gl')} minus the words of")
    print(f"# wgalician-minimos {version('wgalician-minimos')}.")
    for word in codes(dic, other):
        print(word)


if __name__ == "__main__":
    main()
