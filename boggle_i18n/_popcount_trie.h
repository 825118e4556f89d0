/*
 * What the fast engine's kernel (solver/_kernel.c) and the prover (prove/_bound.c) share:
 * bit tricks and one step down the popcount trie that both walk.
 *
 * The trie is `records`, uint64[nodes, 2]: a node's first word is the mask of the letters (0..63)
 * it has a child for, its second word holds the index of its first child in the low 32 bits
 * (children lie side by side, in letter order) and a word-end flag above. A face spells one or
 * more letters; DEAD marks a letter the lexicon never uses.
 */
#ifndef BOGGLE_I18N_POPCOUNT_TRIE_H
#define BOGGLE_I18N_POPCOUNT_TRIE_H

#include <stddef.h>
#include <stdint.h>

#define DEAD 255
#define MAX_NEIGHBOURS 8

/* popcnt is one instruction on every x86-64 CPU since 2008, but not in the baseline ISA a portable
 * build targets: on x86-64 Linux with GCC or Clang the hot functions are compiled twice and the
 * loader picks the popcnt clone where the CPU has it. Elsewhere the compiler's default applies. */
#if defined(__x86_64__) && defined(__linux__) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(BOGGLE_NO_CLONES)
#define HOT __attribute__((target_clones("popcnt", "default")))
#else
#define HOT
#endif

#if defined(_MSC_VER)
#include <intrin.h>
static inline int popcount64(uint64_t x) { return (int)__popcnt64(x); }
static inline int ctz64(uint64_t x) {
    unsigned long i;
    _BitScanForward64(&i, x);
    return (int)i;
}
#else
#define popcount64(x) __builtin_popcountll(x)
#define ctz64(x) __builtin_ctzll(x)
#endif

/* The node reached from `node` by the `length` letters of `spelled`, or -1 where the trie has no such prefix. */
static inline int64_t trie_step(const uint64_t *records, const uint8_t *spelled, int length, int64_t node) {
    for (int k = 0; k < length; k++) {
        uint8_t letter = spelled[k];
        if (letter == DEAD) return -1;
        uint64_t mask = records[2 * node];
        uint64_t bit = 1ULL << letter;
        if (!(mask & bit)) return -1;
        node = (int64_t)((records[2 * node + 1] & 0xFFFFFFFFULL) + (uint64_t)popcount64(mask & (bit - 1)));
    }
    return node;
}

/* The board and face tables both modules take from Python, checked once so no hot loop needs bounds checks:
 * NULL when sound, else what is wrong (the caller raises it). `nbr` is int64[cells, 8], `nbr_n` int64[cells]. */
static inline const char *load_neighbours(const int64_t *nbr, const int64_t *nbr_n, int64_t cells,
                                          uint8_t out[][MAX_NEIGHBOURS], uint8_t *out_n) {
    for (int64_t c = 0; c < cells; c++) {
        if (nbr_n[c] < 0 || nbr_n[c] > MAX_NEIGHBOURS) return "nbr_n: at most 8 neighbours a cell";
        out_n[c] = (uint8_t)nbr_n[c];
        for (int64_t i = 0; i < nbr_n[c]; i++) {
            int64_t v = nbr[c * MAX_NEIGHBOURS + i];
            if (v < 0 || v >= cells) return "nbr: a cell out of range";
            out[c][i] = (uint8_t)v;
        }
    }
    return NULL;
}

/* `letters` is uint8[faces, longest], `face_len` uint8[faces]: every face fits its row and spells trie
 * letters (0..63) or DEAD. */
static inline const char *check_faces(const uint8_t *letters, int64_t faces, int64_t longest, const uint8_t *face_len) {
    for (int64_t i = 0; i < faces; i++) {
        if (face_len[i] > longest) return "face_len: longer than face_letters allows";
        for (int64_t k = 0; k < face_len[i]; k++) {
            uint8_t letter = letters[i * longest + k];
            if (letter != DEAD && letter >= 64) return "face_letters: letters are 0..63 or 255";
        }
    }
    return NULL;
}

#endif
