/*
 * The fast engine's walk over a board and the popcount trie (_popcount_trie.h), shared by the two builds
 * that run it: the CPython extension (_kernel.c) and the WebAssembly solver the static web build ships
 * (boggle_i18n/web/wasm/solver.c, built by tools/build_wasm.sh). One walk, so the browser finds exactly the
 * words and first paths the library finds. Freestanding: it needs only <stddef.h> and <stdint.h>.
 *
 * The walk keeps an explicit stack, a 64-bit mask of used cells, and never clears
 * anything between boards: a word is counted once per board because its
 * terminal node is stamped with the board's serial number. A node's candidate
 * cells (unused neighbours whose first letter it has a child for) are one
 * bitmask built without branches, visited lowest cell first: the reference
 * engine's order, and so its first path.
 */
#ifndef BOGGLE_I18N_WALK_H
#define BOGGLE_I18N_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "../_popcount_trie.h"

#define MAX_CELLS 64

typedef struct {
    const int32_t *codes;
    ptrdiff_t n, cells;
    const uint8_t *letters;
    ptrdiff_t faces, longest;
    const uint8_t *face_len;
    uint8_t nbr[MAX_CELLS][MAX_NEIGHBOURS];
    uint8_t nbr_n[MAX_CELLS];
    const uint64_t *records;
    ptrdiff_t nodes;
    int32_t *stamp;
    const int64_t *points;
    ptrdiff_t n_points;
    int64_t min_len;
} Tables;

typedef struct {
    int64_t score, words, nodes;
} Found;

static inline int64_t step(const Tables *t, int64_t node, int32_t face) {
    return trie_step(t->records, t->letters + (ptrdiff_t)face * t->longest, t->face_len[face], node);
}

static inline uint64_t candidates(const Tables *t, int cell, uint64_t mask, uint64_t used, const uint64_t *cell_bit) {
    uint64_t cand = 0;
    for (int i = 0; i < t->nbr_n[cell]; i++) {
        int nb = t->nbr[cell][i];
        cand |= (uint64_t)((mask & cell_bit[nb]) != 0) << nb;
    }
    return cand & ~used;
}

static inline int64_t points_for(const Tables *t, int64_t length) {
    return length < t->n_points ? t->points[length] : 0;
}

/* One board. With out_paths, each new word's path is written (words = -1 when
 * out of room); without, the compiler drops that code from the scoring loop. */
static inline Found walk(const Tables *t, const int32_t *board, int32_t serial, int64_t *out_paths, int64_t *out_plen,
                         ptrdiff_t cap) {
    Found f = {0, 0, 0};
    ptrdiff_t cells = t->cells;
    uint64_t cell_bit[MAX_CELLS];
    int stack_cell[MAX_CELLS];
    int64_t stack_node[MAX_CELLS], stack_len[MAX_CELLS];
    uint64_t cand_stack[MAX_CELLS];
    for (ptrdiff_t c = 0; c < cells; c++) {
        int32_t face = board[c];
        uint8_t letter = t->letters[(ptrdiff_t)face * t->longest];
        cell_bit[c] = (t->face_len[face] == 0 || letter == DEAD) ? 0 : 1ULL << letter;
    }
    for (int start = 0; start < cells; start++) {
        if (!cell_bit[start]) continue;
        int32_t face = board[start];
        int64_t node = step(t, 0, face);
        if (node < 0) continue;
        f.nodes++;
        int64_t length = t->face_len[face];
        if ((t->records[2 * node + 1] >> 32) && length >= t->min_len && t->stamp[node] != serial) {
            t->stamp[node] = serial;
            if (out_paths) {
                if (f.words == cap) { f.words = -1; return f; }
                out_paths[f.words * cells] = start;
                out_plen[f.words] = 1;
            }
            f.score += points_for(t, length);
            f.words++;
        }
        uint64_t mask = t->records[2 * node];
        if (!mask) continue;
        uint64_t used = 1ULL << start;
        stack_cell[0] = start;
        stack_node[0] = node;
        stack_len[0] = length;
        cand_stack[0] = candidates(t, start, mask, used, cell_bit);
        int sp = 1;
        while (sp > 0) {
            int top = sp - 1;
            uint64_t cand = cand_stack[top];
            if (!cand) {
                used &= ~(1ULL << stack_cell[top]);
                sp--;
                continue;
            }
            int nxt = ctz64(cand);
            cand_stack[top] = cand & (cand - 1);
            face = board[nxt];
            int64_t child = step(t, stack_node[top], face);
            if (child < 0) continue;
            f.nodes++;
            length = stack_len[top] + t->face_len[face];
            if ((t->records[2 * child + 1] >> 32) && length >= t->min_len && t->stamp[child] != serial) {
                t->stamp[child] = serial;
                if (out_paths) {
                    if (f.words == cap) { f.words = -1; return f; }
                    for (int k = 0; k < sp; k++) out_paths[f.words * cells + k] = stack_cell[k];
                    out_paths[f.words * cells + sp] = nxt;
                    out_plen[f.words] = sp + 1;
                }
                f.score += points_for(t, length);
                f.words++;
            }
            mask = t->records[2 * child];
            if (!mask) continue;
            used |= 1ULL << nxt;
            stack_cell[sp] = nxt;
            stack_node[sp] = child;
            stack_len[sp] = length;
            cand_stack[sp] = candidates(t, nxt, mask, used, cell_bit);
            sp++;
        }
    }
    return f;
}

#endif
