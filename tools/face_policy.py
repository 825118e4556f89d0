"""Measure a language's drawn faces: one face per letter against faces that attach letters to the one before.

For each policy, 4x4 boards are drawn the way `compare` draws them for a language without dice (each
cell from the lexicon's distribution of faces: its letters, or with `--attach` its clusters by
`spelling.clusters`, as `api.cluster_counts` counts them) and scored by the fast engine under the
shared 4x4 rules (3+ letters, classic-4x4). Printed per policy: distinct faces, the share of drawn
cells that start no word (no lexicon word begins with the face), the share of the lexicon's words
its faces can spell, words and mean score a board.

    python tools/face_policy.py th                       # one face per letter, and the record's attach
    python tools/face_policy.py th --attach MARKS        # clusters with these letters attached
    python tools/face_policy.py ko --boards 500 --seed 7
    python tools/face_policy.py th --top 15              # only the 15 most frequent clusters drawn

This is how docs/languages.md decided the `attach` field of each record (Faces that play).
"""

from __future__ import annotations

import argparse
import sys
import unicodedata
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from boggle_i18n.api import cluster_counts, face_counts, load_lexicon  # noqa: E402
from boggle_i18n.comparison.compare import shared_rules  # noqa: E402
from boggle_i18n.language.records import get_language  # noqa: E402
from boggle_i18n.language.selection import select  # noqa: E402
from boggle_i18n.solver.scorer import lexicon_letters, prepare_scorer  # noqa: E402
from boggle_i18n.spelling import clusters  # noqa: E402


def measure(lang: str, attach: str, boards: int, seed: int, top: int | None = None) -> dict[str, float]:
    """The figures of one policy (`attach` "" = one face per letter; `top`: only the most frequent faces)."""
    import numpy as np

    lexicon = load_lexicon(lang)
    if attach:
        counts = cluster_counts(lexicon, attach)
    else:
        counts = face_counts(lexicon, lexicon_letters(lexicon))
    if top is not None:
        counts = dict(sorted(counts.items(), key=lambda fc: (-fc[1], fc[0]))[:top])
    faces = sorted(f for f, c in counts.items() if c)
    weights = np.asarray([counts[f] for f in faces], dtype=np.float64)
    weights /= weights.sum()
    min_length, scoring = shared_rules((4, 4))
    rules = select(lang=lang, size=(4, 4), min_length=min_length, scoring=scoring).rules
    scorer = prepare_scorer(lexicon, rules, (4, 4))
    codes = np.asarray([scorer.codec.index(f) for f in faces], dtype=np.int32)
    drawn = codes[np.random.default_rng(seed).choice(len(faces), size=(boards, 16), p=weights)]
    scores, words = scorer.score_codes(drawn)
    dead = sum(w for f, w in zip(faces, weights, strict=True) if not lexicon.has_prefix(f))
    spelled = set(faces)
    findable = sum(1 for word in lexicon if all(f in spelled for f in clusters(word, attach)))
    return {
        "faces": len(faces),
        "dead": 100 * float(dead),
        "findable": 100 * findable / len(lexicon),
        "words": float(words.mean()),
        "mean": float(scores.mean()),
        "under10": 100 * float((scores < 10).mean()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lang")
    parser.add_argument("--attach", default=None, help="letters attached to the one before (default: the record's)")
    parser.add_argument("--boards", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--top", type=int, default=None, help="draw only the N most frequent clusters")
    args = parser.parse_args()
    record = get_language(args.lang)
    attach = record.attach if args.attach is None else args.attach
    if not attach:  # the record draws letters: measure against its combining marks (Thai, Lao), else its vowels
        marks = "".join(ch for ch in record.alphabet if unicodedata.category(ch).startswith("M"))
        attach = marks or record.vowels
    print(f"{args.lang}: {args.boards} 4x4 boards, seed {args.seed}, 3+ letters, classic-4x4")
    print(
        "| faces drawn | distinct faces | cells that start no word | words the faces spell | words a board "
        "| mean score | boards under 10 points |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    clustered = f"clusters (attach {attach})" + (f", the {args.top} most frequent" if args.top else "")
    for label, policy in (("one per letter", ""), (clustered, attach)):
        m = measure(args.lang, policy, args.boards, args.seed, args.top if policy else None)
        print(
            f"| {label} | {m['faces']} | {m['dead']:.1f}% | {m['findable']:.1f}% | {m['words']:.1f} | "
            f"{m['mean']:.1f} | {m['under10']:.1f}% |"
        )


if __name__ == "__main__":
    main()
