/*
 * The prover's compiled half: the upper bound of a board class and the branching
 * inside it, over the same popcount trie and face tables as the fast engine.
 *
 * A class gives each cell a set of faces (a 64-bit mask of face codes). Every
 * word any board of the class can hold is found once, as a "word-path": the cells
 * it runs through and the face it reads on each. Each word-path is inserted into
 * an orderly tree with its (cell, face) pairs sorted by a fixed cell order: a sum
 * node holds points and one choice node per cell that comes next; a choice node
 * (one cell) holds one sum node per face. For any board B of the class, following
 * B's faces from the root reaches exactly the word-paths B holds, so
 *     value(sum) = points + sum of its choices' values,
 *     value(choice) = max over its faces' sums
 * bounds the score of every board in the class (a word is counted at least once
 * per set of cells it can be spelled on, at least as often as the board counts it: once).
 *
 * Branching forces the cells one at a time in the same order. The first cell is forced by merging: its
 * choice hangs only from the root, so forcing it to face f leaves the root's other choices merged with that
 * choice's f-child (a choice on the same cell on both sides becomes one choice whose faces add both sums; the
 * max of sums is at most the sum of maxima, so the bound only tightens). After that, cells are forced
 * incrementally: because every path lists its cells in the fixed order, the choices for the cell being forced
 * hang only under sum nodes reached through forced cells (each files its choices by cell when it is reached),
 * and the values below an unforced choice never change, so forcing cell c to face f is
 *     bound += value(c's f-child) - value(c's choice)     for each pending choice on c,
 * a few additions per choice, no rebuilding. A class whose bound falls below the threshold is dropped;
 * a fully forced class that is still at or above it is one candidate board, scored exactly afterwards by the
 * fast engine.
 *
 * On boards of up to 18 cells the walk only records each word-path as a sorted-order key; the keys are radix
 * sorted and inserted in that order, so the tree is built in one depth-first pass (see build_sorted); larger
 * boards insert each path as the walk finds it.
 *
 * The tree is built per class in one arena, reused by the next class. Everything
 * runs without the GIL. Its speed is memory: a heavy 3x4 class's tree has 5 to 10
 * million nodes, read at random while it is built, merged and branched, so the
 * nodes are small (choices keep only the children they have) and the arena sits
 * in 2 MiB pages where Linux offers them. The ideas are from Vanderkam, "Boggle is
 * solved" (2025, arXiv 2507.02117); this is an independent implementation.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../_popcount_trie.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif
/* The arena is one reservation in huge pages on Linux; elsewhere, and in the sanitizer build (-DNO_HUGE_ARENA,
 * where AddressSanitizer must see a read past the arena's end), it grows by realloc. */
#if defined(__linux__) && defined(MAP_NORESERVE) && defined(MADV_HUGEPAGE) && !defined(NO_HUGE_ARENA)
#define HUGE_ARENA 1
#define ARENA_BYTES ((size_t)INT32_MAX * sizeof(int32_t))
#else
#define HUGE_ARENA 0
#endif

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)0)
#endif

#define MAX_CELLS 64
#define MAX_FACES 64
#define NO_NODE (-1)

/* Nodes lie in one int32 arena (a node is its offset there, always even); children are found by index, never
 * searched. Every node starts with an 8-byte header whose first int32 is its value:
 *   sum     value: the bound of its subtree (the points of the word-paths ending here plus its choices' values);
 *           meta: the last word counted here, plus one (0: none); the face that leads to it; HAS_KIDS once it
 *           has a choice (a leaf is passed by when branching)
 *   choice  value: the largest value among its children; its cell; how many children fit
 * A sum node then has one slot per rank after the rank of the pair that leads to it (from 0 at the root): its
 * choice for that cell, or NO_NODE (few ranks are left below most sum nodes). Its first rank is not stored:
 * every reader knows it from where it came from. A choice node has a uint64 mask of the faces it has children
 * for, then those children, dense, in face order: most choices are on open cells (every face) and have one or
 * two children of 26 possible, so a slot per face was about 70% of a tree's memory (ENABLE2K 3x4: 640 MB for a
 * heavy class). A full choice moves to twice the room; while the tree is built only its parent points at it.
 * A choice with one child is not made at all: the slot holds that child's offset plus one (odd, where nodes
 * are even), and the child's header says its face. Its value is the child's, and a walk down the tree reads
 * one node where it read two, each likely a cache miss. A second face makes it a choice node.
 * The tree is read at random and is bigger than the caches, so its bytes are its speed: values are int32 and the
 * header 8 bytes instead of 16 (ENABLE2K 3x3: 28 MB a class instead of 40, the proof 14% faster; lone children
 * then took it to 20 MB). A class whose word-paths together pass INT32_MAX points (only scoring tables of
 * thousands of points a word get there), or a trie of more nodes than the header's 25 bits of word hold, fails
 * rather than wraps (see insert and search_class), and the caller searches it again with the module built with
 * -DWIDE_VALUES (`_bound_wide`: int64 values, 16-byte headers). */
#ifdef WIDE_VALUES
typedef int64_t value_t;
#define VALUE_MAX INT64_MAX
#define MODULE_NAME "_bound_wide"
#define MODULE_INIT PyInit__bound_wide
#else
typedef int32_t value_t;
#define VALUE_MAX INT32_MAX
#define MODULE_NAME "_bound"
#define MODULE_INIT PyInit__bound
#endif

#ifdef WIDE_VALUES
typedef struct {
    value_t value;
    uint32_t meta; /* HAS_KIDS | word + 1 */
    uint32_t face;
} SumNode;
#define WORD_BITS 31
#define FACE_OF(n) ((int)(n)->face)
#define SET_FACE(n, f) ((n)->meta = 0, (n)->face = (uint32_t)(f))
#else
typedef struct {
    value_t value;
    uint32_t meta; /* HAS_KIDS | face << 25 | word + 1: tries of 2**25 - 2 nodes or fewer, else _bound_wide */
} SumNode;
#define WORD_BITS 25
#define FACE_OF(n) ((int)(((n)->meta >> WORD_BITS) & 63))
#define SET_FACE(n, f) ((n)->meta = (uint32_t)(f) << WORD_BITS)
#endif
#define WORD_MASK ((1u << WORD_BITS) - 1)
#define INLINE(s) ((s) & 1)      /* a slot holding a lone child, not a choice node */
#define NODE_OF(s) ((s) & ~1)    /* the node a slot leads to: its choice, or its lone child (same value) */

typedef struct {
    value_t value;
    uint8_t cell;
    uint8_t room;
} ChoiceNode;

#define HAS_KIDS 0x80000000u
#define HDR ((int64_t)(sizeof(value_t) == 4 ? 2 : 4)) /* int32 units; both headers fit */
#define VAL(t, i) (*(value_t *)((t)->arena + (i)))
_Static_assert(sizeof(SumNode) == HDR * 4 && sizeof(ChoiceNode) == HDR * 4, "a node's header is HDR int32 units");
#define SUM(t, i) ((SumNode *)((t)->arena + (i)))
#define CH(t, i) ((ChoiceNode *)((t)->arena + (i)))
#define SL(t, i) ((t)->arena + (i) + HDR)
#define MASK(t, i) (*(uint64_t *)SL(t, i))
#define KIDS(t, i) (SL(t, i) + 2)

/* A word-path for the sorted build, 16 bytes: its (cell, face) pairs as a key of bit fields, one per rank, rank 0
 * at the top of key[0]; a rank's field is as wide as its cell's faces need (the face's index in the cell's set
 * plus one, 0 where the path misses the cell: 5 bits for an open cell of 26 faces, 3 or 4 for a bucket), fields
 * never straddle the two words, and they end above the low 32 bits of key[1], which hold the word (its trie
 * node). The word's length is the sum of its faces' lengths, read back from the key. A class whose fields need
 * more than 96 bits (many faces on many cells) is built path by path. */
typedef struct {
    uint64_t key[2];
} PathRec;
#define SORTED_CELLS 18
#define KEY_BITS 96
#if defined(_MSC_VER)
static inline int clz64(uint64_t x) {
    unsigned long i;
    _BitScanReverse64(&i, x);
    return 63 - (int)i;
}
#else
#define clz64(x) __builtin_clzll(x)
#endif

typedef struct {
    /* inputs */
    int cells;
    uint64_t sets[MAX_CELLS];
    const uint8_t *letters;
    Py_ssize_t faces, longest;
    const uint8_t *face_len;
    uint8_t nbr[MAX_CELLS][MAX_NEIGHBOURS];
    uint8_t nbr_n[MAX_CELLS];
    const uint64_t *records;
    Py_ssize_t nodes;
    const int64_t *points;
    Py_ssize_t n_points;
    int64_t min_len, threshold;
    int order[MAX_CELLS], rank[MAX_CELLS];
    uint64_t first_letters[MAX_CELLS]; /* trie letters that begin some face of the cell's set */
    uint64_t by_first[MAX_CELLS][64];  /* faces of the cell's set that begin with each letter */
    /* the tree */
    int32_t *arena;    /* nodes and their slots */
    int64_t used, cap; /* int32 units */
    int mapped;
    int64_t made, tree_nodes; /* nodes made; of them, the class's tree */
    /* the walk: the current path's (cell, face) pairs kept sorted by rank, and the tree's sum nodes along that
     * sorted sequence, valid up to depth `valid` (a step into the path only moves the pairs after its rank) */
    uint32_t sorted[MAX_CELLS]; /* rank << 16 | cell << 8 | face: one array to shift, ordered by rank */
    int32_t node_at[MAX_CELLS + 1], choice_on[MAX_CELLS];
    int valid;
    /* the branching: the choices still to be forced, filed by their cell's rank */
    int32_t *pending[MAX_CELLS];
    int64_t pending_n[MAX_CELLS], pending_cap[MAX_CELLS];
    int forced[MAX_CELLS];
    int32_t *out;
    int64_t out_n, out_cap;
    /* the sorted build (cells <= SORTED_CELLS): the word-paths found, as keys, sorted, then inserted in order */
    PathRec *paths, *paths_tmp;
    int64_t paths_n, paths_cap, paths_tmp_cap;
    uint64_t key[2]; /* the current path's key while walking */
    uint8_t key_word[MAX_CELLS], key_shift[MAX_CELLS]; /* where each rank's field lies */
    uint8_t key_code[MAX_CELLS][MAX_FACES];           /* a cell's field for a face: its index in the set + 1 */
    uint8_t key_face[MAX_CELLS][MAX_FACES + 1];       /* a rank's face for a field */
    uint8_t key_width[MAX_CELLS], rank_at_bit[128];   /* the rank whose field holds each bit (from the top) */
    int key_lo[2];                                    /* the lowest bit of each word that a field uses (64: none) */
    int64_t radix_count[2][6][1 << 11];
    /* counts */
    int64_t word_paths, branch_nodes, points_in;
    int failed; /* 1 out of memory, 2 too many candidates, 3 past this build's values or words */
} Ctx;

static inline int64_t step(const Ctx *t, int64_t node, int face) {
    return trie_step(t->records, t->letters + (Py_ssize_t)face * t->longest, t->face_len[face], node);
}

/* `units` int32s of arena, 8-byte aligned, or NO_NODE when memory runs out. */
static int32_t alloc(Ctx *t, int64_t units) {
    int64_t need = (units + 1) & ~1;
    if (t->used + need > t->cap) {
#if HUGE_ARENA
        if (!t->arena) {
            /* One reservation for the whole arena, backed by memory only where touched, in 2 MiB pages where the
             * kernel has them: a tree of hundreds of MB read at random spends much of its time in TLB misses. */
            void *p = mmap(NULL, ARENA_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
                           0);
            if (p != MAP_FAILED) {
                madvise(p, ARENA_BYTES, MADV_HUGEPAGE);
                t->arena = p, t->cap = INT32_MAX, t->mapped = 1;
            }
        }
        if (t->mapped) {
            if (t->used + need > t->cap) { t->failed = 1; return NO_NODE; }
        } else
#endif
        {
            int64_t cap = t->cap ? t->cap * 2 : 1 << 16;
            while (cap < t->used + need) cap *= 2;
            if (cap > INT32_MAX) { t->failed = 1; return NO_NODE; }
            int32_t *grown = realloc(t->arena, (size_t)cap * sizeof(int32_t));
            if (!grown) { t->failed = 1; return NO_NODE; }
            t->arena = grown;
            t->cap = cap;
        }
    }
    int32_t at = (int32_t)t->used;
    t->used += need;
    return at;
}

/* A sum node reached by `face`, whose choices may be for the cells of rank `base` onwards, none yet. */
static int32_t new_sum(Ctx *t, int base, int face) {
    int32_t width = t->cells - base;
    int32_t at = alloc(t, HDR + width);
    if (at == NO_NODE) return NO_NODE;
    SUM(t, at)->value = 0;
    SET_FACE(SUM(t, at), face);
    int32_t *slot = SL(t, at);
    for (int32_t i = 0; i < width; i++) slot[i] = NO_NODE;
    t->made++;
    return at;
}

/* A choice node for `cell` with room for `room` children, none yet. */
static int32_t make_choice(Ctx *t, int cell, int room) {
    int32_t at = alloc(t, HDR + 2 + room);
    if (at == NO_NODE) return NO_NODE;
    ChoiceNode *n = CH(t, at);
    n->value = 0, n->cell = (uint8_t)cell, n->room = (uint8_t)room;
    MASK(t, at) = 0;
    return at;
}

static inline int32_t child_of(const Ctx *t, int32_t choice, int face) {
    uint64_t mask = MASK(t, choice);
    if (!((mask >> face) & 1)) return NO_NODE;
    return KIDS(t, choice)[popcount64(mask & ((1ULL << face) - 1))];
}

/* The child for `face` of a slot (a choice node or a lone child), or NO_NODE. */
static inline int32_t slot_child(const Ctx *t, int32_t slot, int face) {
    if (INLINE(slot)) return FACE_OF(SUM(t, NODE_OF(slot))) == face ? NODE_OF(slot) : NO_NODE;
    return child_of(t, slot, face);
}

/* `child` becomes the choice's child for `face` (it had none). A full choice moves to twice the room: returns
 * where the choice is now, NO_NODE when memory runs out. */
static inline int32_t add_child(Ctx *t, int32_t choice, int face, int32_t child) {
    uint64_t mask = MASK(t, choice);
    int count = popcount64(mask);
    if (count == CH(t, choice)->room) {
        int room = count * 2 < MAX_FACES ? count * 2 : MAX_FACES;
        int32_t moved = make_choice(t, CH(t, choice)->cell, room);
        if (moved == NO_NODE) return NO_NODE;
        VAL(t, moved) = VAL(t, choice);
        MASK(t, moved) = mask;
        for (int k = 0; k < count; k++) KIDS(t, moved)[k] = KIDS(t, choice)[k];
        choice = moved;
    }
    int at = popcount64(mask & ((1ULL << face) - 1));
    int32_t *kids = KIDS(t, choice);
    for (int k = count; k > at; k--) kids[k] = kids[k - 1]; /* a few slots: a call to memmove cost more */
    kids[at] = child;
    MASK(t, choice) = mask | (1ULL << face);
    return choice;
}

#define PAIR(rank, cell, face) ((uint32_t)(rank) << 16 | (uint32_t)(cell) << 8 | (uint32_t)(face))
#define PAIR_RANK(p) ((int)((p) >> 16))
#define PAIR_CELL(p) ((int)(((p) >> 8) & 0xFF))
#define PAIR_FACE(p) ((int)((p) & 0xFF))

/* The path (of `depth` pairs) steps into `cell` showing `face`: the pair goes in at its rank; returns where. */
static inline int push_pair(Ctx *t, int depth, int cell, int face) {
    uint32_t pair = PAIR(t->rank[cell], cell, face);
    int p = depth;
    while (p > 0 && t->sorted[p - 1] > pair) {
        t->sorted[p] = t->sorted[p - 1];
        p--;
    }
    t->sorted[p] = pair;
    if (t->valid > p) t->valid = p;
    return p;
}

/* The step back: the pair at `p` of a path of `depth` pairs leaves. */
static inline void pop_pair(Ctx *t, int depth, int p) {
    for (int i = p; i < depth - 1; i++) t->sorted[i] = t->sorted[i + 1];
    if (t->valid > p) t->valid = p;
}

/* The current path (`length` pairs, sorted) spells the word ending at trie node `word`: its sum node gets the
 * points, made where missing; only the part of the sorted sequence that changed since the last word is walked. */
HOT static void insert(Ctx *t, int length, int64_t word, int64_t pts) {
    int32_t node = t->node_at[t->valid];
    /* A sum node's first slot is for the rank after the pair that leads to it (the root's for rank 0), so the
     * slot is found from the path without waiting for the node's header, often a cache line of its own. */
    int base = t->valid ? PAIR_RANK(t->sorted[t->valid - 1]) + 1 : 0;
    for (int i = t->valid; i < length; i++) {
        uint32_t pair = t->sorted[i];
        int cell = PAIR_CELL(pair), face = PAIR_FACE(pair), r = PAIR_RANK(pair);
        int k = r - base;
        base = r + 1;
        int32_t choice = SL(t, node)[k], next;
        if (choice == NO_NODE) { /* a lone child in the slot */
            next = new_sum(t, r + 1, face);
            if (next == NO_NODE) return;
            SL(t, node)[k] = choice = next + 1; /* after the allocation: the arena may have moved */
            SUM(t, node)->meta |= HAS_KIDS;
        } else if (INLINE(choice)) {
            next = NODE_OF(choice);
            if (FACE_OF(SUM(t, next)) != face) { /* a second face: the slot becomes a choice node */
                int32_t lone = next, made = make_choice(t, cell, 2);
                if (made == NO_NODE || (next = new_sum(t, r + 1, face)) == NO_NODE) return;
                t->made++;
                int old = FACE_OF(SUM(t, lone));
                VAL(t, made) = VAL(t, lone);
                MASK(t, made) = (1ULL << old) | (1ULL << face);
                KIDS(t, made)[old > face] = lone, KIDS(t, made)[old < face] = next;
                SL(t, node)[k] = choice = made;
            }
        } else if ((next = child_of(t, choice, face)) == NO_NODE) {
            next = new_sum(t, r + 1, face);
            if (next == NO_NODE) return;
            int32_t now = add_child(t, choice, face, next);
            if (now == NO_NODE) return;
            if (now != choice) SL(t, node)[k] = choice = now;
        }
        t->choice_on[i] = choice;
        node = next;
        t->node_at[i + 1] = node;
    }
    t->valid = length;
    t->word_paths++;
    /* The same word over the same cells (a path in another order) is counted once. Only the last word is
     * remembered: a repeat after another word counts again, which leaves the bound loose, never wrong. */
    SumNode *end = SUM(t, node);
    if ((end->meta & WORD_MASK) == (uint32_t)word + 1) return;
    end->meta = (end->meta & ~WORD_MASK) | ((uint32_t)word + 1);
    /* Every value is at most the points of all word-paths so far (a merge adds disjoint paths): past VALUE_MAX
     * the class fails, reported to the caller, instead of a value wrapping. */
    if (pts > VALUE_MAX - t->points_in) { t->failed = 3; return; }
    t->points_in += pts;
    end->value += (value_t)pts;
    /* The bounds along the path, kept up to date here (the path is in cache; values only grow): a choice's
     * max moves only if this child passed it, and its sum gains what the max gained; a lone child is its
     * choice's max, so its sum gains all it gained. */
    value_t gained = (value_t)pts;
    for (int i = length - 1; i >= 0; i--) {
        int32_t choice = t->choice_on[i];
        if (!INLINE(choice)) {
            value_t *c = &VAL(t, choice);
            value_t v = VAL(t, t->node_at[i + 1]);
            if (v <= *c) break;
            gained = v - *c;
            *c = v;
        }
        VAL(t, t->node_at[i]) += gained;
    }
}

HOT static void walk(Ctx *t, int cell, int64_t node, int depth, int64_t length, uint64_t used) {
    if (t->failed) return;
    if ((t->records[2 * node + 1] >> 32) && length >= t->min_len) {
        int64_t pts = length < t->n_points ? t->points[length] : 0;
        if (pts > 0) insert(t, depth, node, pts);
    }
    uint64_t mask = t->records[2 * node];
    if (!mask) return;
    for (int i = 0; i < t->nbr_n[cell]; i++) {
        int nb = t->nbr[cell][i];
        if ((used >> nb) & 1) continue;
        for (uint64_t letters = mask & t->first_letters[nb]; letters; letters &= letters - 1) {
            for (uint64_t faces = t->by_first[nb][ctz64(letters)]; faces; faces &= faces - 1) {
                int face = ctz64(faces);
                int64_t next = step(t, node, face);
                if (next < 0) continue;
                int p = push_pair(t, depth, nb, face);
                walk(t, nb, next, depth + 1, length + t->face_len[face], used | (1ULL << nb));
                pop_pair(t, depth + 1, p);
            }
        }
    }
}

/* The sorted build. Inserting word-paths in the order the walk finds them re-walks the tree from wherever the
 * path's new cell falls in the fixed order (ENABLE2K 3x3: 1.48 of 2.34 million steps a class went to nodes
 * made before, each likely a cache miss). So the walk only records each word-path as a key, the keys are
 * sorted (radix, so a pass is a sequential read and write), and the paths go in in key order: a path shares
 * its prefix with the one before and every node after it is new, made right after its parent, so the tree is
 * built in one pass in depth-first order. Keys sorted by their fields group every path with a given sequence
 * of pairs together (the fields of the ranks before the last pair fix the sequence up to it), which is all
 * the build needs. Two paths of one word over the same cells now always follow one another, so the word is
 * counted once at its node (the walk's order counted it again after another word: this bound is never
 * looser). */
static int record_path(Ctx *t, int64_t word) {
    if (t->paths_n == t->paths_cap) {
        int64_t cap = t->paths_cap ? t->paths_cap * 2 : 1 << 16;
        PathRec *grown = realloc(t->paths, (size_t)cap * sizeof(PathRec));
        if (!grown) { t->failed = 1; return -1; }
        t->paths = grown, t->paths_cap = cap;
    }
    PathRec *r = &t->paths[t->paths_n++];
    r->key[0] = t->key[0], r->key[1] = t->key[1] | (uint32_t)word;
    return 0;
}

static inline int scores(const Ctx *t, int64_t length) {
    return length >= t->min_len && length < t->n_points && t->points[length] > 0;
}

/* The walk of the sorted build. A one-letter face's trie node is the letter's child, found from the mask already
 * read (the step down the trie is only taken for longer faces, from that child), and a child without children of
 * its own (a word at the end of its branch) is recorded here rather than in a call of its own. */
HOT static void walk_keys(Ctx *t, int cell, int64_t node, int64_t length, uint64_t used) {
    if (t->failed) return;
    const uint64_t *records = t->records;
    if ((records[2 * node + 1] >> 32) && scores(t, length))
        if (record_path(t, node)) return;
    uint64_t mask = records[2 * node];
    if (!mask) return;
    int64_t first = (int64_t)(records[2 * node + 1] & 0xFFFFFFFFULL);
    for (int i = 0; i < t->nbr_n[cell]; i++) {
        int nb = t->nbr[cell][i];
        if ((used >> nb) & 1) continue;
        int r = t->rank[nb], w = t->key_word[r], shift = t->key_shift[r];
        for (uint64_t letters = mask & t->first_letters[nb]; letters; letters &= letters - 1) {
            int letter = ctz64(letters);
            int64_t child = first + popcount64(mask & ((1ULL << letter) - 1));
            for (uint64_t faces = t->by_first[nb][letter]; faces; faces &= faces - 1) {
                int face = ctz64(faces), len = t->face_len[face];
                int64_t next = len == 1 ? child : trie_step(records, t->letters + (Py_ssize_t)face * t->longest + 1,
                                                            len - 1, child);
                if (next < 0) continue;
                uint64_t field = (uint64_t)t->key_code[nb][face] << shift;
                t->key[w] |= field;
                if (records[2 * next]) {
                    walk_keys(t, nb, next, length + len, used | (1ULL << nb));
                } else if ((records[2 * next + 1] >> 32) && scores(t, length + len)) {
                    if (record_path(t, next)) return;
                }
                t->key[w] ^= field;
            }
        }
    }
}

/* Stable LSD radix sort of the paths by their fields (11-bit digits over the bits the fields use, the word
 * left out; a digit every path shares is skipped). */
static int sort_paths(Ctx *t) {
    int64_t n = t->paths_n;
    if (n < 2) return 0;
    if (!t->paths_tmp || t->paths_tmp_cap < n) {
        free(t->paths_tmp);
        t->paths_tmp = malloc((size_t)t->paths_cap * sizeof(PathRec));
        t->paths_tmp_cap = t->paths_tmp ? t->paths_cap : 0;
        if (!t->paths_tmp) { t->failed = 1; return -1; }
    }
    enum { BITS = 11, DIGITS = 6 }; /* 6 digits of 11 bits cover a key word */
    int64_t (*count)[DIGITS][1 << BITS] = t->radix_count;
    int digits[2];
    for (int w = 0; w < 2; w++) digits[w] = (64 - t->key_lo[w] + BITS - 1) / BITS;
    memset(t->radix_count, 0, sizeof t->radix_count);
    for (int64_t i = 0; i < n; i++)
        for (int w = 0; w < 2; w++) {
            uint64_t k = t->paths[i].key[w];
            for (int d = 0; d < digits[w]; d++) count[w][d][(k >> (t->key_lo[w] + BITS * d)) & ((1 << BITS) - 1)]++;
        }
    PathRec *from = t->paths, *to = t->paths_tmp;
    for (int w = 1; w >= 0; w--)
        for (int d = 0; d < digits[w]; d++) {
            int64_t *c = count[w][d], sum = 0;
            int trivial = 0, shift = t->key_lo[w] + BITS * d;
            for (int b = 0; b < (1 << BITS); b++) {
                if (c[b] == n) trivial = 1;
                int64_t here = c[b];
                c[b] = sum, sum += here;
            }
            if (trivial) continue;
            for (int64_t i = 0; i < n; i++) to[c[(from[i].key[w] >> shift) & ((1 << BITS) - 1)]++] = from[i];
            PathRec *swap = from;
            from = to, to = swap;
        }
    if (from != t->paths) { /* the sorted paths are in the other buffer: swap the buffers, not the data */
        PathRec *swap = t->paths;
        int64_t cap = t->paths_cap;
        t->paths = t->paths_tmp, t->paths_cap = t->paths_tmp_cap;
        t->paths_tmp = swap, t->paths_tmp_cap = cap;
    }
    return 0;
}

#define PATH_WORD(p) ((uint32_t)(p)->key[1])

/* The sorted paths into the tree: each path's pairs from its key, the part shared with the path before kept
 * (insert walks on from t->valid). A path equal to an earlier one of its group (same key and word) is left out. */
static void build_sorted(Ctx *t) {
    int depth_before[MAX_CELLS + 1], length = 0;
    int64_t letters = 0, letters_before[MAX_CELLS + 1]; /* the word's length: its faces' lengths */
    int64_t group = 0; /* the first path with the current key */
    for (int64_t i = 0; i < t->paths_n && !t->failed; i++) {
        const PathRec *p = &t->paths[i];
        uint32_t word = PATH_WORD(p);
        int valid = 0, from = 0; /* the pairs of the ranks before `from` are the previous path's */
        if (i > 0) {
            const PathRec *prev = p - 1;
            uint64_t x0 = prev->key[0] ^ p->key[0], x1 = (prev->key[1] ^ p->key[1]) >> 32;
            if (!x0 && !x1) {
                int seen = 0;
                for (int64_t j = group; j < i && !seen; j++) seen = PATH_WORD(&t->paths[j]) == word;
                if (seen) continue;
                insert(t, length, word, t->points[letters]);
                continue;
            }
            group = i;
            /* the first field that differs; the pairs before it are the same in both paths */
            from = t->rank_at_bit[x0 ? clz64(x0) : 64 + clz64(x1) - 32];
            valid = depth_before[from];
        }
        length = from ? depth_before[from] : 0, letters = from ? letters_before[from] : 0;
        for (int r = from; r < t->cells; r++) {
            depth_before[r] = length, letters_before[r] = letters;
            int field = (int)((p->key[t->key_word[r]] >> t->key_shift[r]) & ((1u << t->key_width[r]) - 1));
            if (field) {
                int face = t->key_face[r][field];
                t->sorted[length++] = PAIR(r, t->order[r], face);
                letters += t->face_len[face];
            }
        }
        depth_before[t->cells] = length;
        if (t->valid > valid) t->valid = valid;
        insert(t, length, word, t->points[letters]);
    }
}

/* Where each rank's field lies in the key, from the class's sets: 0 when the fields fit the key's 96 bits. */
static int lay_out_keys(Ctx *t) {
    int at = 0; /* bits used, from the top of key[0] */
    for (int r = 0; r < t->cells; r++) {
        int cell = t->order[r], n = popcount64(t->sets[cell]), width = 1;
        while ((1 << width) < n + 1) width++;
        if (at < 64 && at + width > 64) at = 64; /* a field stays in one word */
        if (at + width > KEY_BITS) return -1;
        t->key_word[r] = (uint8_t)(at / 64), t->key_width[r] = (uint8_t)width;
        t->key_shift[r] = (uint8_t)(64 - (at % 64) - width);
        for (int b = at; b < at + width; b++) t->rank_at_bit[b] = (uint8_t)r;
        int k = 1;
        t->key_face[r][0] = 0;
        for (uint64_t faces = t->sets[cell]; faces; faces &= faces - 1, k++) {
            t->key_code[cell][ctz64(faces)] = (uint8_t)k;
            t->key_face[r][k] = (uint8_t)ctz64(faces);
        }
        at += width;
    }
    t->key_lo[0] = at >= 64 ? 0 : 64 - at;
    t->key_lo[1] = at > 64 ? 128 - at : 64;
    return 0;
}

static int pend(Ctx *t, int r, int32_t choice) {
    if (t->pending_n[r] == t->pending_cap[r]) {
        int64_t cap = t->pending_cap[r] ? t->pending_cap[r] * 2 : 1024;
        int32_t *grown = realloc(t->pending[r], (size_t)cap * sizeof(int32_t));
        if (!grown) { t->failed = 1; return -1; }
        t->pending[r] = grown;
        t->pending_cap[r] = cap;
    }
    t->pending[r][t->pending_n[r]++] = choice;
    return 0;
}

/* A sum node reached through forced cells, its slots from rank `base` on: each of its choices waits under its
 * cell's rank. */
static inline int activate(Ctx *t, int32_t sum, int base) {
    const int32_t *slot = SL(t, sum);
    for (int32_t j = 0; j < t->cells - base; j++)
        if (slot[j] != NO_NODE && pend(t, base + j, slot[j])) return -1;
    return 0;
}

static void emit(Ctx *t) {
    if (t->out_n == t->out_cap) { t->failed = 2; return; }
    for (int c = 0; c < t->cells; c++) t->out[t->out_n * t->cells + c] = t->forced[c];
    t->out_n++;
}

/* The choice for the cell of rank `r` (at least `base`) under sum node `sum` whose slots start at rank `base`. */
static inline int32_t choice_at(const Ctx *t, int32_t sum, int base, int r) {
    return SL(t, sum)[r - base];
}

HOT static int32_t merge_choice(Ctx *t, int cell, int32_t a, int32_t b);

/* A new sum node for the boards that reach both sum nodes `a` and `b` (b may be NO_NODE; b's slots start at rank
 * `base`, a's at `a_base`, at most `base`): its points are both's, its choices for the cells of rank `base`
 * onwards are both's, merged where both have one (a choice of a's before `base` is the cell being forced, left
 * out). Children found on one side only are shared, not copied, so the cost is the size of the overlap. */
HOT static int32_t merge_sum(Ctx *t, int32_t a, int a_base, int32_t b, int base, int face) {
    /* Only the choices both sides have are read: a choice on one side is shared, and its value is in both the
     * side's value and the merged one, so value = both sides' values - a's choices before `base` - the
     * choices merged + what they merged into. Reading every child for its value, as before, was a likely
     * cache miss each. */
    int64_t value = VAL(t, a);
    for (int r = a_base; r < base; r++) {
        int32_t ca = choice_at(t, a, a_base, r);
        if (ca != NO_NODE) value -= VAL(t, NODE_OF(ca));
    }
    if (b != NO_NODE) {
        value += VAL(t, b);
        for (int r = base; r < t->cells; r++) {
            int32_t ca = choice_at(t, a, a_base, r), cb = choice_at(t, b, base, r);
            if (ca != NO_NODE && cb != NO_NODE) PREFETCH(&VAL(t, NODE_OF(ca))), PREFETCH(&VAL(t, NODE_OF(cb)));
        }
    }
    int32_t n = new_sum(t, base, face);
    if (n == NO_NODE) return NO_NODE;
    for (int r = base; r < t->cells; r++) {
        int32_t ca = choice_at(t, a, a_base, r), cb = b != NO_NODE ? choice_at(t, b, base, r) : NO_NODE, c;
        if (ca == NO_NODE) c = cb;
        else if (cb == NO_NODE) c = ca;
        else {
            value -= (int64_t)VAL(t, NODE_OF(ca)) + VAL(t, NODE_OF(cb));
            if ((c = merge_choice(t, t->order[r], ca, cb)) == NO_NODE) return NO_NODE;
            value += VAL(t, c);
        }
        SL(t, n)[r - base] = c;
        if (c != NO_NODE) SUM(t, n)->meta |= HAS_KIDS;
    }
    VAL(t, n) = (value_t)value;
    return n;
}

/* A slot's faces and children: a choice node's, or its lone child's (kept in `one`). Offsets, not pointers:
 * the arena may move while a merge allocates. */
static inline uint64_t slot_faces(const Ctx *t, int32_t slot, int32_t *one) {
    if (INLINE(slot)) {
        *one = NODE_OF(slot);
        return 1ULL << FACE_OF(SUM(t, *one));
    }
    return MASK(t, slot);
}

static inline int32_t slot_kid(const Ctx *t, int32_t slot, int32_t one, int k) {
    return INLINE(slot) ? one : KIDS(t, slot)[k];
}

/* Two choices on one cell (choice nodes or lone children) merged: face by face, the sum nodes are merged where
 * both have one; the result is a choice node. */
HOT static int32_t merge_choice(Ctx *t, int cell, int32_t a, int32_t b) {
    int32_t one_a = NO_NODE, one_b = NO_NODE;
    uint64_t ma = slot_faces(t, a, &one_a), mb = slot_faces(t, b, &one_b), mask = ma | mb;
    /* The children are read below one after another, each likely a cache miss: ask for all of them first. */
    for (int k = 0; k < popcount64(ma); k++) PREFETCH(&VAL(t, slot_kid(t, a, one_a, k)));
    for (int k = 0; k < popcount64(mb); k++) PREFETCH(&VAL(t, slot_kid(t, b, one_b, k)));
    int32_t n = make_choice(t, cell, popcount64(mask));
    if (n == NO_NODE) return NO_NODE;
    t->made++;
    MASK(t, n) = mask;
    int base = t->rank[cell] + 1, ia = 0, ib = 0, k = 0;
    value_t best = 0;
    for (uint64_t faces = mask; faces; faces &= faces - 1, k++) {
        uint64_t bit = faces & -faces;
        int32_t sa = ma & bit ? slot_kid(t, a, one_a, ia++) : NO_NODE;
        int32_t sb = mb & bit ? slot_kid(t, b, one_b, ib++) : NO_NODE, s;
        if (sa == NO_NODE) s = sb;
        else if (sb == NO_NODE) s = sa;
        else if ((s = merge_sum(t, sa, base, sb, base, ctz64(bit))) == NO_NODE) return NO_NODE;
        KIDS(t, n)[k] = s;
        if (VAL(t, s) > best) best = VAL(t, s);
    }
    VAL(t, n) = best;
    return n;
}

/* Force order[level] to each face of its set in turn; `bound` covers every board left. The choices on this cell
 * are exactly pending[level] (each sum node reached through forced cells filed its choices by rank), so no node
 * without a choice here is read. */
HOT static void branch(Ctx *t, int level, int64_t bound) {
    t->branch_nodes++;
    if (t->failed || bound < t->threshold) return;
    if (level == t->cells) { emit(t); return; }
    int cell = t->order[level];
    const int32_t *choices = t->pending[level];
    int64_t n = t->pending_n[level];
    /* The choices on this cell: their values leave the bound, one face's child comes in. */
    int64_t base = bound, gain[MAX_FACES];
    for (uint64_t faces = t->sets[cell]; faces; faces &= faces - 1) gain[ctz64(faces)] = 0;
    for (int64_t a = 0; a < n; a++) PREFETCH(&VAL(t, NODE_OF(choices[a])));
    for (int64_t a = 0; a < n; a++) {
        int32_t c = choices[a];
        base -= VAL(t, NODE_OF(c));
        if (INLINE(c)) {
            gain[FACE_OF(SUM(t, NODE_OF(c)))] += VAL(t, NODE_OF(c));
            continue;
        }
        const int32_t *kids = KIDS(t, c);
        int count = popcount64(MASK(t, c));
        for (int k = 0; k < count; k++) PREFETCH(&VAL(t, kids[k]));
        int k = 0;
        for (uint64_t faces = MASK(t, c); faces; faces &= faces - 1, k++) gain[ctz64(faces)] += VAL(t, kids[k]);
    }
    int64_t marks[MAX_CELLS];
    for (int r = level + 1; r < t->cells; r++) marks[r] = t->pending_n[r];
    for (uint64_t faces = t->sets[cell]; faces && !t->failed; faces &= faces - 1) {
        int face = ctz64(faces);
        if (base + gain[face] < t->threshold) { t->branch_nodes++; continue; }
        t->forced[cell] = face;
        for (int64_t a = 0; a < n; a++) {
            int32_t s = slot_child(t, choices[a], face);
            if (s != NO_NODE && (SUM(t, s)->meta & HAS_KIDS)) activate(t, s, level + 1);
        }
        branch(t, level + 1, base + gain[face]);
        for (int r = level + 1; r < t->cells; r++) t->pending_n[r] = marks[r];
    }
}

/* Cells forced by merging before the incremental branching takes over. Merging is tighter (one max per cell
 * over the sums of all active choices, not a sum of maxima) but rebuilds the overlap of two subtrees. The first
 * cell is always merged; the next two only while the bound is still at least twice the threshold, where the
 * incremental branching below would be large. Measured on ENABLE2K samples (CPU s, noisy machine): 3x4, 8
 * random classes: merge 1 cell 13.1, 2 cells 10.9-12.4, this rule 10.5; the two heaviest 3x4 classes of the
 * first task: 1 cell 21.5, 2 cells 11.4, this rule 10.1; 3x3, 24 classes: 1 cell 8.8-9.4, 2 cells 10.7-11.2,
 * this rule 9.2-9.4. Merging every cell was 80% slower than merging none. Timed again with compact choice nodes
 * (28 3x4 classes, the other core idle, two runs each): at most 2 merged cells 18.3-19.5, this rule 16.7-17.0,
 * at most 4 17.2-17.4. 4x4 classes (2026-11-24, buckets 2/3/3, threshold 3625) have bounds of 5 to 7 times the
 * threshold after three merged cells, where the incremental branching below explodes: one heavy class took 66 s
 * with at most 3 merged cells, 37 s with at most 6 and 36 s with no cap (164 against 33 million branch steps).
 * So the cap is gone: cells are merged while the bound is at least twice the threshold. Side by side with the
 * cap of 3 (benchmarks/bench_prove.py --against, same boards): 3x4, 16 classes 1.07x faster; 3x3, 60 classes
 * the same (0.99). MERGE_LEVELS and MERGE_FACTOR can be set at compile time to time other rules. */
#ifndef MERGE_LEVELS
#define MERGE_LEVELS MAX_CELLS
#endif
#ifndef MERGE_FACTOR
#define MERGE_FACTOR 2
#endif

/* Force order[level] by merging: the root without its choice on that cell, merged with the choice's child. The
 * root's slots start at rank `level` (the whole tree's root, at 0, or the merge of the level before). */
static void branch_top(Ctx *t, int level, int32_t root) {
    t->branch_nodes++;
    if (t->failed || VAL(t, root) < t->threshold) return;
    if (level == t->cells || (level > 0 && (level >= MERGE_LEVELS || VAL(t, root) < MERGE_FACTOR * t->threshold))) {
        for (int r = 0; r < t->cells; r++) t->pending_n[r] = 0;
        if (activate(t, root, level) == 0) branch(t, level, VAL(t, root));
        return;
    }
    int cell = t->order[level];
    int32_t choice = choice_at(t, root, level, level);
    int64_t rest = (int64_t)VAL(t, root) - (choice != NO_NODE ? VAL(t, NODE_OF(choice)) : 0);
    int64_t mark = t->used;
    for (uint64_t faces = t->sets[cell]; faces && !t->failed; faces &= faces - 1) {
        int face = ctz64(faces);
        int32_t child = choice != NO_NODE ? slot_child(t, choice, face) : NO_NODE;
        if (rest + (child != NO_NODE ? VAL(t, child) : 0) < t->threshold) { t->branch_nodes++; continue; }
        t->forced[cell] = face;
        int32_t merged = merge_sum(t, root, level, child, level + 1, 0);
        if (merged == NO_NODE) return;
        branch_top(t, level + 1, merged);
        t->used = mark;
    }
}

/* The arenas outlive a call: one class after another reuses their pages instead of faulting in fresh ones
 * (a class's tree runs to millions of nodes). One set per thread, so threads never share them. */
#if defined(_MSC_VER)
#define THREAD_LOCAL __declspec(thread)
#else
#define THREAD_LOCAL _Thread_local
#endif
static THREAD_LOCAL int32_t *kept_arena, *kept_pending[MAX_CELLS];
static THREAD_LOCAL int64_t kept_arena_cap, kept_pending_cap[MAX_CELLS];
static THREAD_LOCAL int kept_mapped;
static THREAD_LOCAL PathRec *kept_paths, *kept_paths_tmp;
static THREAD_LOCAL int64_t kept_paths_cap, kept_paths_tmp_cap;

static void take_arenas(Ctx *t) {
    t->arena = kept_arena, t->cap = kept_arena_cap, t->mapped = kept_mapped;
    kept_arena = NULL;
    t->paths = kept_paths, t->paths_cap = kept_paths_cap, t->paths_tmp = kept_paths_tmp;
    t->paths_tmp_cap = kept_paths_tmp_cap;
    kept_paths = kept_paths_tmp = NULL, kept_paths_cap = kept_paths_tmp_cap = 0;
    for (int r = 0; r < MAX_CELLS; r++) {
        t->pending[r] = kept_pending[r], t->pending_cap[r] = kept_pending_cap[r];
        kept_pending[r] = NULL, kept_pending_cap[r] = 0;
    }
}

/* Keep the arenas for the next call, unless they grew past 1 GiB together (a one-off giant class). */
static void keep_arenas(Ctx *t) {
    uint64_t bytes = 0;
    for (int r = 0; r < MAX_CELLS; r++) bytes += (uint64_t)t->pending_cap[r] * 4;
    if ((uint64_t)(t->paths_cap + t->paths_tmp_cap) * sizeof(PathRec) > (1ULL << 30)) {
        free(t->paths), free(t->paths_tmp);
        t->paths = t->paths_tmp = NULL, t->paths_cap = t->paths_tmp_cap = 0;
    }
    kept_paths = t->paths, kept_paths_cap = t->paths_cap, kept_paths_tmp = t->paths_tmp;
    kept_paths_tmp_cap = t->paths_tmp_cap;
    if (bytes > (1ULL << 30)) {
        for (int r = 0; r < MAX_CELLS; r++) free(t->pending[r]), t->pending[r] = NULL, t->pending_cap[r] = 0;
    }
#if HUGE_ARENA
    if (t->mapped) {
        if ((uint64_t)t->used * 4 > (1ULL << 30))
            madvise((char *)t->arena + (1ULL << 30), ARENA_BYTES - (1ULL << 30), MADV_DONTNEED);
    } else
#endif
    if ((uint64_t)t->cap * 4 > (1ULL << 30)) {
        free(t->arena);
        t->arena = NULL, t->cap = 0;
    }
    kept_arena = t->arena, kept_arena_cap = t->cap, kept_mapped = t->mapped;
    for (int r = 0; r < MAX_CELLS; r++) kept_pending[r] = t->pending[r], kept_pending_cap[r] = t->pending_cap[r];
}

static int fail(const char *message) {
    PyErr_SetString(PyExc_ValueError, message);
    return -1;
}

/* Shapes and every index the search reads, checked once (the trie's links were checked where it was loaded). */
static int load(Ctx *t, Py_buffer *sets, Py_buffer *letters, Py_buffer *face_len, Py_buffer *nbr, Py_buffer *nbr_n,
                Py_buffer *records, Py_buffer *points, Py_buffer *order, long long min_len, long long threshold) {
    t->cells = (int)(nbr_n->len / 8);
    if (nbr_n->len % 8 || t->cells < 1 || t->cells > MAX_CELLS) return fail("nbr_n: int64[cells], 1 to 64 cells");
    if (nbr->len != (Py_ssize_t)t->cells * MAX_NEIGHBOURS * 8) return fail("nbr: int64[cells, 8]");
    if (sets->len != (Py_ssize_t)t->cells * 8) return fail("sets: uint64[cells]");
    if (order->len != (Py_ssize_t)t->cells * 8) return fail("order: int64[cells]");
    const int64_t *nb = nbr->buf, *nb_n = nbr_n->buf, *ord = order->buf;
    for (int c = 0; c < t->cells; c++) t->rank[c] = -1;
    for (int i = 0; i < t->cells; i++) {
        if (ord[i] < 0 || ord[i] >= t->cells || t->rank[ord[i]] >= 0) return fail("order: a permutation of the cells");
        t->order[i] = (int)ord[i];
        t->rank[ord[i]] = i;
    }
    const char *wrong = load_neighbours(nb, nb_n, t->cells, t->nbr, t->nbr_n);
    if (wrong) return fail(wrong);
    t->faces = face_len->len;
    if (t->faces < 1 || t->faces > MAX_FACES || letters->len % t->faces) return fail("face_letters: uint8[faces, longest], 1 to 64 faces");
    t->longest = letters->len / t->faces;
    if (t->longest < 1) return fail("face_letters: at least one letter a face");
    t->letters = letters->buf;
    t->face_len = face_len->buf;
    const char *bad = check_faces(t->letters, t->faces, t->longest, t->face_len);
    if (bad) return fail(bad);
    const uint64_t *s = sets->buf;
    for (int c = 0; c < t->cells; c++) {
        t->sets[c] = s[c];
        if (!s[c]) return fail("sets: every cell needs at least one face");
        if (t->faces < 64 && (s[c] >> t->faces)) return fail("sets: a face code out of range");
        t->first_letters[c] = 0;
        for (uint64_t f = s[c]; f; f &= f - 1) {
            int face = ctz64(f);
            uint8_t first = t->letters[(Py_ssize_t)face * t->longest];
            if (t->face_len[face] > 0 && first != DEAD) {
                t->first_letters[c] |= 1ULL << first;
                t->by_first[c][first] |= 1ULL << face;
            }
        }
    }
#ifndef STATIC_ORDER
    /* The class's own order: among cells of as many neighbours, the given order is kept except that cells of
     * fewer faces come first (a vowel bucket of 6 before a consonant band of 10). The top cells are forced by
     * merging, the dearest work of a heavy class, once per face: fewer faces there, fewer merges, and the
     * bound falls sooner. Five heavy ENABLE2K 4x4 classes: 1.26x cheaper, branch steps 12.1 to 10.0 million a
     * class; more faces first was 1.29x dearer, fewer faces first across all cells 2.28x dearer (see
     * docs/prove.md). On 3x4 it was even (1.00-1.02x) and on 3x3 0.95x, so it applies from 16 cells on.
     * -DSTATIC_ORDER keeps the given order, to time it side by side. */
    for (int i = 1; i < t->cells && t->cells >= 16; i++) {
        int c = t->order[i], j = i;
        while (j > 0) {
            int p = t->order[j - 1];
            if (t->nbr_n[p] != t->nbr_n[c] || popcount64(t->sets[p]) <= popcount64(t->sets[c])) break;
            t->order[j] = p, j--;
        }
        t->order[j] = c;
    }
    for (int i = 0; i < t->cells; i++) t->rank[t->order[i]] = i;
#endif
    if (records->len % 16 || records->len == 0) return fail("records: uint64[nodes, 2]");
    t->nodes = records->len / 16;
    if (t->nodes >= (Py_ssize_t)INT32_MAX) return fail("records: fewer than 2**31 - 1 trie nodes"); /* word + 1 */
    t->records = records->buf;
    if (points->len % 8) return fail("points: int64[lengths]");
    t->points = points->buf;
    t->n_points = points->len / 8;
    for (Py_ssize_t i = 0; i < t->n_points; i++)
        if (t->points[i] < 0 || t->points[i] > ((int64_t)1 << 40)) return fail("points: 0 .. 2**40 a word");
    t->min_len = min_len;
    t->threshold = threshold;
    return 0;
}

static void run(Ctx *t, int64_t *root_bound) {
    int32_t root = new_sum(t, 0, 0);
    if (root == NO_NODE) return;
    t->node_at[0] = root;
    t->valid = 0;
    int sorted = t->cells <= SORTED_CELLS && lay_out_keys(t) == 0;
    t->paths_n = 0;
    for (int c = 0; c < t->cells && !t->failed; c++) {
        for (uint64_t faces = t->sets[c]; faces; faces &= faces - 1) {
            int face = ctz64(faces);
            int64_t node = step(t, 0, face);
            if (node < 0) continue;
            if (sorted) {
                int r = t->rank[c];
                t->key[0] = t->key[1] = 0;
                t->key[t->key_word[r]] = (uint64_t)t->key_code[c][face] << t->key_shift[r];
                walk_keys(t, c, node, t->face_len[face], 1ULL << c);
                continue;
            }
            push_pair(t, 0, c, face);
            walk(t, c, node, 1, t->face_len[face], 1ULL << c);
            pop_pair(t, 1, 0);
        }
    }
    if (sorted && !t->failed && sort_paths(t) == 0) build_sorted(t);
    if (t->failed) return;
    t->tree_nodes = t->made;
    *root_bound = VAL(t, 0);
    branch_top(t, 0, 0);
}

PyDoc_STRVAR(search_class_doc,
             "search_class(sets, face_letters, face_len, nbr, nbr_n, records, points, min_len, order, threshold, "
             "out) -> (candidates, root_bound, tree_nodes, word_paths, branch_nodes)\n\n"
             "Every board of the class `sets` (uint64[cells], a mask of face codes per cell) whose bound is at least "
             "`threshold`, as rows of face codes written to `out` (int32[cap, cells]); `order` (int64[cells]) is the "
             "cell order of the tree and of the branching. candidates = -1: more than `cap` boards are left; -2: the "
             "class's word-paths score more than the tree's values hold together (INT32_MAX; _bound_wide: INT64_MAX).");

static PyObject *search_class(PyObject *self, PyObject *args) {
    Py_buffer b[9];
    long long min_len, threshold;
    memset(b, 0, sizeof b);
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*Ly*Lw*", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &b[6], &min_len,
                          &b[7], &threshold, &b[8]))
        return NULL;
    PyObject *result = NULL;
    Ctx *t = calloc(1, sizeof(Ctx));
    if (!t) {
        PyErr_NoMemory();
    } else if (load(t, &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &b[6], &b[7], min_len, threshold) == 0) {
        if (b[8].len % ((Py_ssize_t)t->cells * 4)) {
            fail("out: int32[cap, cells]");
        } else {
            t->out = b[8].buf;
            t->out_cap = b[8].len / ((Py_ssize_t)t->cells * 4);
            int64_t root_bound = 0;
            Py_BEGIN_ALLOW_THREADS
            take_arenas(t);
            if (t->nodes < (Py_ssize_t)WORD_MASK) run(t, &root_bound); /* word + 1 fits the sum's header */
            else t->failed = 3;
            keep_arenas(t);
            Py_END_ALLOW_THREADS
            if (t->failed == 1) {
                PyErr_NoMemory();
            } else {
                long long found = t->failed == 2 ? -1LL : t->failed == 3 ? -2LL : (long long)t->out_n;
                result = Py_BuildValue("LLLLL", found, (long long)root_bound,
                                       (long long)t->tree_nodes, (long long)t->word_paths, (long long)t->branch_nodes);
            }
        }
    }
    free(t);
    for (int i = 0; i < 9; i++)
        if (b[i].obj) PyBuffer_Release(&b[i]);
    return result;
}

static PyMethodDef methods[] = {
    {"search_class", search_class, METH_VARARGS, search_class_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, MODULE_NAME, "The prover's bound and branching, compiled ahead of time (see _bound.c).", -1,
    methods,
};

PyMODINIT_FUNC MODULE_INIT(void) { return PyModule_Create(&module); }
