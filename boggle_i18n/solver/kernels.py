"""numba kernels of the fast engine: a depth-first walk over the board and the popcount trie at once.

Imported only when the fast engine is first used (`import numba` alone takes
about 0.2 s). Compiled with `cache=True`, so only the first run on a machine
pays the JIT; later processes load machine code from numba's cache.

The walk keeps an explicit stack (cell, trie node, candidate cells, length), a
64-bit mask of used cells, and never clears anything between boards: a word is
counted once per board because its terminal node is stamped with the board's
serial number. A node's candidate cells (unused neighbours whose letter it has
a child for) are found as one bitmask without branches, then visited lowest
cell first: the same order, and so the same first path, as the reference engine.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

DEAD = 255


@intrinsic
def _ctpop(typingctx, value):  # type: ignore[no-untyped-def]
    """LLVM's population count: one instruction on any CPU numba targets."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        fn = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(fn, args)

    return sig, codegen


_LOW32 = np.uint64(0xFFFFFFFF)
_ONE = np.uint64(1)
_SHIFT = np.uint64(32)


@njit(cache=True, nogil=True, inline="always")
def _step(node, face, face_letters, face_len, records):  # type: ignore[no-untyped-def]
    """The trie node after spelling `face` from `node`, or -1."""
    for k in range(face_len[face]):
        letter = face_letters[face, k]
        if letter == DEAD:
            return -1
        mask = records[node, 0]
        bit = _ONE << np.uint64(letter)
        if not (mask & bit):
            return -1
        node = np.int64((records[node, 1] & _LOW32) + _ctpop(mask & (bit - _ONE)))
    return node


@intrinsic
def _cttz(typingctx, value):  # type: ignore[no-untyped-def]
    """LLVM's count of trailing zeros: the lowest set bit's index."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        fn = builder.module.declare_intrinsic("llvm.cttz", [ir.IntType(64), ir.IntType(1)])
        return builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 1)])

    return sig, codegen


@njit(cache=True, nogil=True, inline="always")
def _first_letter_bits(board, face_letters, face_len, cell_bit):  # type: ignore[no-untyped-def]
    """Each cell's first letter as a bit (0 for a blank cell or a letter outside the alphabet)."""
    for c in range(board.shape[0]):
        face = board[c]
        letter = face_letters[face, 0]
        if face_len[face] == 0 or letter == DEAD:
            cell_bit[c] = 0
        else:
            cell_bit[c] = _ONE << np.uint64(letter)


@njit(cache=True, nogil=True, inline="always")
def _candidates(cell, mask, used, nbr, nbr_n, cell_bit):  # type: ignore[no-untyped-def]
    """Unused neighbours whose first letter the trie node has a child for, as a cell bitmask.

    Branch-free over the neighbours: the costly unpredictable test per neighbour
    becomes a few bit operations, and the walk then visits only real children.
    """
    cand = np.uint64(0)
    for i in range(nbr_n[cell]):
        nb = nbr[cell, i]
        hit = np.uint64((mask & cell_bit[nb]) != 0)
        cand |= hit << np.uint64(nb)
    return cand & ~used


@njit(cache=True, nogil=True, inline="always")
def _walk(  # type: ignore[no-untyped-def]
    board,
    face_letters,
    face_len,
    nbr,
    nbr_n,
    records,
    stamp,
    serial,
    points,
    min_len,
    stack,
    cand_stack,
    cell_bit,
    record,
    out_paths,
    out_plen,
):
    """One board: (score, words, trie nodes visited); with `record`, each new word's path too.

    `record` is a constant at each call site, so after inlining the compiler drops
    the path-keeping code from the scoring loop. Returns words = -1 when
    `out_paths` is full (the caller retries with more room).
    """
    cells = board.shape[0]
    _first_letter_bits(board, face_letters, face_len, cell_bit)
    score = 0
    words = 0
    nodes = 0
    cap = out_paths.shape[0]
    for start in range(cells):
        if cell_bit[start] == 0:
            continue
        face = board[start]
        node = _step(0, face, face_letters, face_len, records)
        if node < 0:
            continue
        nodes += 1
        length = np.int64(face_len[face])
        if (records[node, 1] >> _SHIFT) and length >= min_len and stamp[node] != serial:
            stamp[node] = serial
            if record:
                if words == cap:
                    return score, -1, nodes
                out_paths[words, 0] = start
                out_plen[words] = 1
            score += points[length]
            words += 1
        mask = records[node, 0]
        if mask == 0:
            continue
        used = _ONE << np.uint64(start)
        stack[0, 0] = start
        stack[0, 1] = node
        stack[0, 2] = length
        cand_stack[0] = _candidates(start, mask, used, nbr, nbr_n, cell_bit)
        sp = 1
        while sp > 0:
            top = sp - 1
            cand = cand_stack[top]
            if cand == 0:
                used &= ~(_ONE << np.uint64(stack[top, 0]))
                sp -= 1
                continue
            nxt = np.int64(_cttz(cand))
            cand_stack[top] = cand & (cand - _ONE)
            face = board[nxt]
            child = _step(stack[top, 1], face, face_letters, face_len, records)
            if child < 0:
                continue
            nodes += 1
            length = stack[top, 2] + face_len[face]
            if (records[child, 1] >> _SHIFT) and length >= min_len and stamp[child] != serial:
                stamp[child] = serial
                if record:
                    if words == cap:
                        return score, -1, nodes
                    for k in range(sp):
                        out_paths[words, k] = stack[k, 0]
                    out_paths[words, sp] = nxt
                    out_plen[words] = sp + 1
                score += points[length]
                words += 1
            mask = records[child, 0]
            if mask == 0:
                continue
            used |= _ONE << np.uint64(nxt)
            stack[sp, 0] = nxt
            stack[sp, 1] = child
            stack[sp, 2] = length
            cand_stack[sp] = _candidates(nxt, mask, used, nbr, nbr_n, cell_bit)
            sp += 1
    return score, words, nodes


@njit(cache=True, nogil=True)
def score_batch(  # type: ignore[no-untyped-def]
    codes,
    face_letters,
    face_len,
    nbr,
    nbr_n,
    records,
    stamp,
    serial0,
    points,
    min_len,
    out_score,
    out_words,
):
    """Score every board (row of `codes`): total points and distinct words, into `out_score`/`out_words`."""
    n, cells = codes.shape
    stack = np.empty((cells, 3), np.int64)  # cell, trie node, length in letters
    cand_stack = np.empty(cells, np.uint64)
    cell_bit = np.empty(cells, np.uint64)
    no_paths = np.empty((0, 0), np.int64)
    no_plen = np.empty(0, np.int64)
    for b in range(n):
        score, words, _ = _walk(
            codes[b], face_letters, face_len, nbr, nbr_n, records, stamp, serial0 + b, points, min_len,
            stack, cand_stack, cell_bit, False, no_paths, no_plen,
        )  # fmt: skip
        out_score[b] = score
        out_words[b] = words


@njit(cache=True, nogil=True)
def solve_one(  # type: ignore[no-untyped-def]
    board,
    face_letters,
    face_len,
    nbr,
    nbr_n,
    records,
    stamp,
    serial,
    points,
    min_len,
    out_paths,
    out_plen,
):
    """Every distinct word of one board with the first path that spells it: the walk of `score_batch`.

    Writes cell paths into `out_paths[k]` (length `out_plen[k]`); returns
    (words found, trie nodes visited), or words = -1 if `out_paths` is too small.
    """
    cells = board.shape[0]
    stack = np.empty((cells, 3), np.int64)
    cand_stack = np.empty(cells, np.uint64)
    cell_bit = np.empty(cells, np.uint64)
    _, words, nodes = _walk(
        board, face_letters, face_len, nbr, nbr_n, records, stamp, serial, points, min_len,
        stack, cand_stack, cell_bit, True, out_paths, out_plen,
    )  # fmt: skip
    return words, nodes
