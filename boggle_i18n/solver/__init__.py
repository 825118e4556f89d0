"""Solvers: anything with `solve(board, lexicon, rules)`; the reference one is plain Python."""

from .base import FoundWord, Rules, Solver, SolveResult, get_solver, solvers
from .reference import ReferenceSolver

__all__ = ["FoundWord", "ReferenceSolver", "Rules", "SolveResult", "Solver", "get_solver", "solvers"]
