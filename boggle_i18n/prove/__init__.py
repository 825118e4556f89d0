"""The prover: the best boards of a lexicon, rules and shape, proven by exhaustive branch and bound.

classes.py (buckets, canonical classes, tasks), engine.py (one class: the C
bound and branching of _bound.c, then exact scores), tasks.py (the proof's spec
and its unit of work), executors.py (serial, local processes, Dask),
checkpoint.py (resume after a kill), prover.py (prove, estimate, thresholds).
Imports the optimizer (for a threshold and shared problem shipping), never the
other way round.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ProofResult", "ProofSpec", "estimate", "found_threshold", "proof_spec", "prove"]


def __getattr__(name: str) -> Any:  # PEP 562: numpy and the C module load only when a proof is asked for
    if name in __all__:
        from . import prover, tasks

        return getattr(prover, name, None) or getattr(tasks, name)
    raise AttributeError(name)
