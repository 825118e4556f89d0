/*
 * The solver the static web build runs in the browser: the library's own walk (solver/_walk.h, the one the
 * CPython extension _kernel.c runs) compiled to WebAssembly with no C library (tools/build_wasm.sh). So a
 * board played offline finds exactly the words, points and first paths `boggle-i18n solve` finds.
 *
 * static/solver.js copies the compiled trie (the `.bgc` file compiled.py caches), the board's face spellings,
 * neighbours and points table into this module's memory (`alloc`), checks them once (`load`: every index the
 * walk reads, and every trie link inside the trie), then calls `solve` per board.
 */
#include "../../solver/_walk.h"

#define EXPORT(name) __attribute__((export_name(name)))

extern unsigned char __heap_base;
static uintptr_t heap_top;
static Tables tables;
static int64_t last_nodes;

/* Bytes for the loader: a bump allocator over linear memory, grown as needed; `reset(top())` taken before
 * some allocations frees them (the trie stays, a board's tables come and go). */
EXPORT("alloc") void *alloc(uint32_t size) {
    if (!heap_top) heap_top = ((uintptr_t)&__heap_base + 15) & ~(uintptr_t)15;
    uintptr_t start = heap_top, end = start + (((uintptr_t)size + 15) & ~(uintptr_t)15);
    if (end < start) return 0;
    uintptr_t have = __builtin_wasm_memory_size(0) * 65536ULL;
    if (end > have && __builtin_wasm_memory_grow(0, (end - have + 65535) / 65536) == (uintptr_t)-1) return 0;
    heap_top = end;
    return (void *)start;
}

EXPORT("top") uint32_t top(void) { return (uint32_t)heap_top; }

EXPORT("reset") void reset(uint32_t mark) {
    if (mark && mark <= heap_top) heap_top = mark;
}

/* Whether every node's children lie inside the trie (compiled.links_inside, for a trie read from a file). */
static int links_inside(const uint64_t *records, ptrdiff_t nodes) {
    for (ptrdiff_t i = 0; i < nodes; i++) {
        uint64_t children = (uint64_t)popcount64(records[2 * i]);
        if (children && (records[2 * i + 1] & 0xFFFFFFFFULL) + children > (uint64_t)nodes) return 0;
    }
    return nodes > 0;
}

/* Tables for boards of `cells` cells: 0 when sound, else a number saying which check failed. `nbr` is
 * int64[cells, 8] and `nbr_n` int64[cells]; `letters` uint8[faces, longest]; `points` int64[n_points]. */
EXPORT("load")
int load(const uint64_t *records, int32_t nodes, const uint8_t *letters, int32_t faces, int32_t longest,
         const uint8_t *face_len, const int64_t *nbr, const int64_t *nbr_n, int32_t cells, int32_t *stamp,
         const int64_t *points, int32_t n_points, int32_t min_len) {
    if (cells < 1 || cells > MAX_CELLS) return 1;
    if (load_neighbours(nbr, nbr_n, cells, tables.nbr, tables.nbr_n)) return 2;
    if (faces < 1 || longest < 1 || check_faces(letters, faces, longest, face_len)) return 3;
    if (!links_inside(records, nodes)) return 4;
    if (n_points < 0 || min_len < 0) return 5;
    tables.codes = 0;
    tables.n = 1;
    tables.cells = cells;
    tables.letters = letters;
    tables.faces = faces;
    tables.longest = longest;
    tables.face_len = face_len;
    tables.records = records;
    tables.nodes = nodes;
    tables.stamp = stamp;
    tables.points = points;
    tables.n_points = n_points;
    tables.min_len = min_len;
    return 0;
}

/* Every distinct word of one board (`board` int32[cells] face codes) with its first path, as `_kernel.solve_one`:
 * the number of words (-1 when more than `cap`, -2 for a face code out of range); `nodes` gives the effort. */
EXPORT("solve") int32_t solve(const int32_t *board, int32_t serial, int64_t *out_paths, int64_t *out_plen, int32_t cap) {
    for (ptrdiff_t c = 0; c < tables.cells; c++)
        if (board[c] < 0 || board[c] >= tables.faces) return -2;
    Found f = walk(&tables, board, serial, out_paths, out_plen, cap);
    last_nodes = f.nodes;
    return (int32_t)f.words;
}

EXPORT("nodes") double nodes(void) { return (double)last_nodes; }
