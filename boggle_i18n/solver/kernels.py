"""numba kernels of the fast engine: a depth-first walk over the board and the popcount trie at once.

Imported only when the fast engine is first used (`import numba` alone takes
about 0.2 s). Compiled with `cache=True`, so only the first run on a machine
pays the JIT; later processes load machine code from numba's cache.

The walk keeps an explicit stack (cell, trie node, next neighbour, length), a
64-bit mask of used cells, and never clears anything between boards: a word is
counted once per board because its terminal node is stamped with the board's
serial number.
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


@njit(cache=True, nogil=True, inline="always")
def _step(node, face, face_letters, face_len, masks, first_child):  # type: ignore[no-untyped-def]
    """The trie node after spelling `face` from `node`, or -1."""
    for k in range(face_len[face]):
        letter = face_letters[face, k]
        if letter == DEAD:
            return -1
        mask = masks[node]
        bit = np.uint64(1) << np.uint64(letter)
        if not (mask & bit):
            return -1
        node = first_child[node] + np.int64(_ctpop(mask & (bit - np.uint64(1))))
    return node


@njit(cache=True, nogil=True)
def score_batch(  # type: ignore[no-untyped-def]
    codes,
    face_letters,
    face_len,
    nbr,
    nbr_n,
    masks,
    first_child,
    terminal,
    stamp,
    serial0,
    points,
    min_len,
    out_score,
    out_words,
):
    """Score every board (row of `codes`): total points and distinct words, into `out_score`/`out_words`."""
    n, cells = codes.shape
    st_cell = np.empty(cells, np.int64)
    st_node = np.empty(cells, np.int64)
    st_next = np.empty(cells, np.int64)
    st_len = np.empty(cells, np.int64)
    for b in range(n):
        serial = serial0 + b
        board = codes[b]
        score = 0
        words = 0
        for start in range(cells):
            face = board[start]
            if face_len[face] == 0:
                continue
            node = _step(0, face, face_letters, face_len, masks, first_child)
            if node < 0:
                continue
            length = np.int64(face_len[face])
            if terminal[node] and stamp[node] != serial:
                stamp[node] = serial
                if length >= min_len:
                    score += points[length]
                    words += 1
            if masks[node] == 0:
                continue
            used = np.uint64(1) << np.uint64(start)
            sp = 0
            st_cell[0] = start
            st_node[0] = node
            st_next[0] = 0
            st_len[0] = length
            sp = 1
            while sp > 0:
                top = sp - 1
                cell = st_cell[top]
                i = st_next[top]
                if i == nbr_n[cell]:
                    used &= ~(np.uint64(1) << np.uint64(cell))
                    sp -= 1
                    continue
                st_next[top] = i + 1
                nxt = nbr[cell, i]
                if used & (np.uint64(1) << np.uint64(nxt)):
                    continue
                face = board[nxt]
                if face_len[face] == 0:
                    continue
                child = _step(st_node[top], face, face_letters, face_len, masks, first_child)
                if child < 0:
                    continue
                length = st_len[top] + face_len[face]
                if terminal[child] and stamp[child] != serial:
                    stamp[child] = serial
                    if length >= min_len:
                        score += points[length]
                        words += 1
                if masks[child] == 0:
                    continue
                used |= np.uint64(1) << np.uint64(nxt)
                st_cell[sp] = nxt
                st_node[sp] = child
                st_next[sp] = 0
                st_len[sp] = length
                sp += 1
        out_score[b] = score
        out_words[b] = words


@njit(cache=True, nogil=True)
def solve_one(  # type: ignore[no-untyped-def]
    board,
    face_letters,
    face_len,
    nbr,
    nbr_n,
    masks,
    first_child,
    terminal,
    stamp,
    serial,
    min_len,
    out_paths,
    out_plen,
):
    """Every distinct word of one board with the first path that spells it.

    Writes cell paths into `out_paths[k]` (length `out_plen[k]`); returns
    (words found, nodes visited), or words = -1 if `out_paths` is too small.
    """
    cells = board.shape[0]
    cap = out_paths.shape[0]
    st_cell = np.empty(cells, np.int64)
    st_node = np.empty(cells, np.int64)
    st_next = np.empty(cells, np.int64)
    st_len = np.empty(cells, np.int64)
    found = 0
    nodes = 0
    for start in range(cells):
        face = board[start]
        if face_len[face] == 0:
            continue
        node = _step(0, face, face_letters, face_len, masks, first_child)
        if node < 0:
            continue
        nodes += 1
        length = np.int64(face_len[face])
        if terminal[node] and stamp[node] != serial and length >= min_len:
            stamp[node] = serial
            if found == cap:
                return -1, nodes
            out_paths[found, 0] = start
            out_plen[found] = 1
            found += 1
        used = np.uint64(1) << np.uint64(start)
        st_cell[0] = start
        st_node[0] = node
        st_next[0] = 0
        st_len[0] = length
        sp = 1
        while sp > 0:
            top = sp - 1
            cell = st_cell[top]
            i = st_next[top]
            if i == nbr_n[cell]:
                used &= ~(np.uint64(1) << np.uint64(cell))
                sp -= 1
                continue
            st_next[top] = i + 1
            nxt = nbr[cell, i]
            if used & (np.uint64(1) << np.uint64(nxt)):
                continue
            face = board[nxt]
            if face_len[face] == 0:
                continue
            child = _step(st_node[top], face, face_letters, face_len, masks, first_child)
            if child < 0:
                continue
            nodes += 1
            length = st_len[top] + face_len[face]
            if terminal[child] and stamp[child] != serial and length >= min_len:
                stamp[child] = serial
                if found == cap:
                    return -1, nodes
                for k in range(sp):
                    out_paths[found, k] = st_cell[k]
                out_paths[found, sp] = nxt
                out_plen[found] = sp + 1
                found += 1
            used |= np.uint64(1) << np.uint64(nxt)
            st_cell[sp] = nxt
            st_node[sp] = child
            st_next[sp] = 0
            st_len[sp] = length
            sp += 1
    return found, nodes
