"""Count the simple paths of a board graph by length, without enumerating them.

A dictionary-less solver explores every simple path (each cell at most once) from
every cell; their number is the size of Boggle's search space. Already on 5x5 with
diagonals there are far too many to walk one by one, so this counts them with a
frontier-based dynamic programme (a transfer-matrix method, as used to count
self-avoiding walks and Hamiltonian paths): cells are processed row by row; a state
records only what the cells on the frontier (the processed cells that still have
unprocessed neighbours) need to know about the partial path, and each state carries
a generating polynomial of its number of partial paths by edge count. The number of
states depends on the frontier width, not on the number of paths. Method, proof of
exactness and measured run times: docs/paths.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import combinations

from ..errors import BoardError
from ..limits import check
from ..progress import task

# The work is set by the frontier width (the shorter side; the board is transposed if
# need be) and grows about fivefold per extra column with diagonals. Up to 64 cells
# (8x8, the boards a fast engine covers) every board takes at most about a minute on
# one core; docs/paths.md has the measurements.
MAX_CELLS = 64

# Codes of a frontier cell. A cell not yet in the path, or one never to be, is FREE;
# SATURATED is an interior cell of the path (two edges, takes no more); HALF is a path
# end whose fragment's other end has left the frontier for good (a permanent end);
# codes from LABEL up are ends of a fragment whose two ends are both on the frontier,
# the two ends sharing one code.
FREE, SATURATED, HALF, LABEL = 0, 1, 2, 3

State = tuple[int, ...]
Move = tuple[State | None, int]  # the next state (None: a finished path) and the edges added


@dataclass(frozen=True)
class PathCounts:
    """Directed simple paths of one board graph, by number of cells visited."""

    rows: int
    cols: int
    diagonals: bool
    by_length: tuple[int, ...]
    """`by_length[k - 1]` is the number of paths that visit k cells, k = 1..max_length."""

    @property
    def max_length(self) -> int:
        """The longest length counted."""
        return len(self.by_length)

    @property
    def total(self) -> int:
        """Paths of every counted length."""
        return sum(self.by_length)

    def cumulative(self) -> list[int]:
        """Running totals: paths of length 1..k for each k."""
        out, running = [], 0
        for count in self.by_length:
            running += count
            out.append(running)
        return out


def count_paths(rows: int, cols: int, diagonals: bool = True, max_length: int | None = None) -> PathCounts:
    """Count directed simple paths of 1..max_length cells on an R x C board graph.

    Neighbours are king moves, or rook steps of one cell without `diagonals`. A path
    of k >= 2 cells is counted once per direction (a solver starts from either end);
    a single cell is one path. `max_length` defaults to (and is capped at) every cell.
    """
    cells = _check(rows, cols, max_length)
    longest = cells if max_length is None else min(max_length, cells)
    width, height = min(rows, cols), max(rows, cols)  # a transposed board is the same graph
    undirected = _count_undirected(height, width, diagonals, longest - 1)
    return PathCounts(rows, cols, diagonals, (cells, *(2 * undirected[e] for e in range(1, longest))))


def _check(rows: int, cols: int, max_length: int | None) -> int:
    """Reject what cannot be counted (or not in minutes); return the number of cells."""
    if rows < 1 or cols < 1:
        raise BoardError(f"board size {rows}x{cols}: rows and columns must be at least 1")
    if rows * cols > MAX_CELLS:
        raise BoardError(
            f"board size {rows}x{cols}: paths are counted on boards of at most {MAX_CELLS} cells "
            "(8x8; the work grows about fivefold per extra column, see docs/paths.md)"
        )
    if max_length is not None:
        check("max_length", max_length)
    return rows * cols


def _count_undirected(rows: int, width: int, diagonals: bool, max_edges: int) -> list[int]:
    """Undirected simple paths by number of edges 0..max_edges (index 0, the lone cells, left 0).

    Each state's polynomial is packed into one Python int, coefficient e in bits
    [e*bits, (e+1)*bits): adding polynomials is one int addition, adding an edge one
    shift. Each cell joins at most two of its processed neighbours, so there are at
    most `configurations` partial paths in all; a coefficient counts distinct ones,
    so it stays below that bound and never carries into its neighbour.
    """
    if max_edges < 1:
        return [0] * (max_edges + 1)
    configurations = 1
    for r in range(rows):
        for c in range(width):
            k = len(_earlier(r, c, width, diagonals))
            configurations *= 1 + k + k * (k - 1) // 2
    bits = configurations.bit_length()
    full = max_edges >= rows * width - 1  # every length asked: nothing to cut
    mask = (1 << (bits * (max_edges + 1))) - 1  # drops paths longer than asked
    states: dict[State, int] = {(FREE,) * (width + 1): 1}
    with task(f"counting paths cell by cell ({rows}x{width})", rows * width) as advance:
        states, done = _sweep(rows, width, diagonals, full, mask, bits, states, advance)
    _, finished = _retire_slots(states, list(range(width + 1)))
    done += finished
    low = (1 << bits) - 1
    return [(done >> (bits * e)) & low for e in range(max_edges + 1)]


def _sweep(
    rows: int,
    width: int,
    diagonals: bool,
    full: bool,
    mask: int,
    bits: int,
    states: dict[State, int],
    advance: Callable[[int], None],
) -> tuple[dict[State, int], int]:
    """The cell-by-cell pass of `_count_undirected`: the states left and the packed finished paths."""
    shift = (0, bits, 2 * bits)
    done = 0
    # A state's successors depend only on the state and the cell's column (and whether
    # it is on the first row): work them out once, not once per row.
    tables: dict[tuple[int, bool], dict[State, tuple[Move, ...]]] = {}
    seen: dict[Move, Move] = {}  # one object per distinct move: the tables hold millions of references
    for r in range(rows):
        for c in range(width):
            moves = tables.setdefault((c, r > 0), {})
            earlier = _earlier(r, c, width, diagonals)
            new: dict[State, int] = {}
            get = new.get
            for state, poly in states.items():
                successors = moves.get(state)
                if successors is None:
                    successors = moves[state] = _successors(state, c, earlier, diagonals, seen)
                for target, edges in successors:
                    value = poly << shift[edges] if edges else poly
                    if not full:
                        value &= mask
                        if not value:
                            continue
                    if target is None:
                        done += value
                    else:
                        new[target] = get(target, 0) + value
            states = new
            advance(1)
        if diagonals:  # the last cell of the row above has no unprocessed neighbour left
            states, finished = _retire_slots(states, [width])
            done += finished
    return states, done


def _earlier(r: int, c: int, width: int, diagonals: bool) -> list[int]:
    """Frontier slots of the processed neighbours of cell (r, c): left, up, up-left, up-right."""
    earlier = []
    if c > 0:
        earlier.append(c - 1)
    if r > 0:
        earlier.append(c)
        if diagonals and c > 0:
            earlier.append(width)  # the up-left slot
        if diagonals and c + 1 < width:
            earlier.append(c + 1)
    return earlier


def _successors(state: State, c: int, earlier: list[int], diagonals: bool, seen: dict[Move, Move]) -> tuple[Move, ...]:
    """The states that processing cell c leads to, with the edges each adds; None = a finished path."""
    out: list[Move] = []
    for slots, code, edges in _place(state, c, earlier):
        if slots is None:  # the cell joined two permanent ends: one finished path
            out.append((None, edges))
            continue
        # Diagonals: the cell above moves to the up-left slot for the next cell and
        # the old up-left cell leaves; orthogonal: the cell above leaves.
        if diagonals:
            leaving, slots[-1] = slots[-1], slots[c]
        else:
            leaving = slots[c]
        slots[c] = code
        outcome = _retire(slots, leaving)
        if outcome == _FINISHED:
            out.append((None, edges))
        elif outcome == _ALIVE:
            out.append((_canonical(slots), edges))
    return tuple(seen.setdefault(move, move) for move in out)


_ALIVE, _FINISHED, _DEAD = 0, 1, 2


def _place(state: State, c: int, earlier: list[int]) -> Iterator[tuple[list[int] | None, int, int]]:
    """Every way to join the new cell to at most two processed neighbours.

    Yields (frontier codes after the choice, the new cell's code, edges added);
    codes None mean the choice finished the path (it joined two permanent ends and no
    other fragment is open); choices that close a cycle or strand a fragment are skipped.
    """
    yield list(state), FREE, 0
    open_ = [p for p in earlier if state[p] != SATURATED]
    fresh = max(LABEL, max(state) + 1)  # a label no fragment uses
    for p in open_:
        slots = list(state)
        code = slots[p]
        if code == FREE:  # a new fragment: the neighbour and this cell are its ends
            slots[p] = fresh
            yield slots, fresh, 1
        else:  # the fragment's end moves from the neighbour to this cell
            slots[p] = SATURATED
            yield slots, code, 1
    for p, q in combinations(open_, 2):
        a, b = state[p], state[q]
        slots = list(state)
        slots[p] = slots[q] = SATURATED
        if a == FREE and b == FREE:  # a new fragment through this cell
            slots[p] = slots[q] = fresh
        elif a == FREE or b == FREE:  # the fragment grows by this cell and the free neighbour
            free, end = (p, b) if a == FREE else (q, a)
            slots[free] = end
        elif a == HALF and b == HALF:  # two fragments with permanent ends: the whole path
            if any(code >= HALF for code in slots):
                continue  # another fragment would be left over
            yield None, SATURATED, 2
            continue
        elif a == b:
            continue  # both ends of one fragment: a cycle
        elif a == HALF or b == HALF:  # the labelled fragment's other end becomes permanent
            label = b if a == HALF else a
            slots[slots.index(label)] = HALF
        else:  # two fragments become one
            slots = [a if code == b else code for code in slots]
        yield slots, SATURATED, 2


def _retire(slots: list[int], code: int) -> int:
    """A cell with `code` leaves the frontier: it gets no more edges."""
    if code < HALF:
        return _ALIVE
    if code == HALF:  # the fragment's second permanent end: the path is finished
        return _DEAD if any(other >= HALF for other in slots) else _FINISHED
    slots[slots.index(code)] = HALF  # its mate's fragment now has a permanent end
    # A path has two ends: a third permanent end can never finish (pruned here, early).
    return _DEAD if slots.count(HALF) > 2 else _ALIVE


def _retire_slots(states: dict[State, int], positions: list[int]) -> tuple[dict[State, int], int]:
    """Retire the cells in `positions` from every state; return the states left and the finished paths."""
    new: dict[State, int] = {}
    finished = 0
    for state, value in states.items():
        slots = list(state)
        outcome = _ALIVE
        for p in positions:
            code, slots[p] = slots[p], FREE
            outcome = _retire(slots, code)
            if outcome != _ALIVE:
                break
        if outcome == _FINISHED:
            finished += value
        elif outcome == _ALIVE:
            _add(new, slots, value)
    return new, finished


def _add(states: dict[State, int], slots: list[int], value: int) -> None:
    """Merge `value` into `states` under the canonical form of `slots`."""
    state = _canonical(slots)
    states[state] = states.get(state, 0) + value


def _canonical(slots: list[int]) -> State:
    """Labels renumbered by first appearance, so equivalent frontiers meet in one state."""
    names: dict[int, int] = {}
    key = []
    for code in slots:
        if code >= LABEL:
            code = names.setdefault(code, LABEL + len(names))
        key.append(code)
    return tuple(key)
