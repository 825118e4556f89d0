/*
 * The fast engine's kernel, compiled ahead of time: a depth-first walk over the
 * board and the popcount trie at once.
 *
 * Why C and not only numba: a process that scores boards then needs numpy and
 * this module (a few milliseconds, about 30 MiB) instead of numba and LLVM
 * (0.26 s and 140 MiB before the first board), which is what made `score` on a
 * few hundred thousand boards start-up bound and kept peak memory over 150 MiB.
 * kernels.py is the same walk in numba, the fallback where this module was not
 * built; the shared engine tests run both, board for board.
 *
 * The arguments are the numba kernels' arguments, as buffers (numpy arrays):
 *   codes int32[n, cells], face_letters uint8[faces, longest], face_len uint8[faces],
 *   nbr int64[cells, 8], nbr_n int64[cells], records uint64[nodes, 2],
 *   stamp int32[nodes], points int64[max_length + 1].
 * Every index read from them is checked once on entry; the trie's child links
 * are checked where an untrusted trie enters (compiled.links_inside, on a cache
 * file), so no input can make the walk read out of bounds.
 *
 * The walk keeps an explicit stack, a 64-bit mask of used cells, and never clears
 * anything between boards: a word is counted once per board because its
 * terminal node is stamped with the board's serial number. A node's candidate
 * cells (unused neighbours whose first letter it has a child for) are one
 * bitmask built without branches, visited lowest cell first: the reference
 * engine's order, and so its first path.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "../_popcount_trie.h"

#define MAX_CELLS 64

typedef struct {
    const int32_t *codes;
    Py_ssize_t n, cells;
    const uint8_t *letters;
    Py_ssize_t faces, longest;
    const uint8_t *face_len;
    uint8_t nbr[MAX_CELLS][MAX_NEIGHBOURS];
    uint8_t nbr_n[MAX_CELLS];
    const uint64_t *records;
    Py_ssize_t nodes;
    int32_t *stamp;
    const int64_t *points;
    Py_ssize_t n_points;
    int64_t min_len;
} Tables;

typedef struct {
    int64_t score, words, nodes;
} Found;

static inline int64_t step(const Tables *t, int64_t node, int32_t face) {
    return trie_step(t->records, t->letters + (Py_ssize_t)face * t->longest, t->face_len[face], node);
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
                         Py_ssize_t cap) {
    Found f = {0, 0, 0};
    Py_ssize_t cells = t->cells;
    uint64_t cell_bit[MAX_CELLS];
    int stack_cell[MAX_CELLS];
    int64_t stack_node[MAX_CELLS], stack_len[MAX_CELLS];
    uint64_t cand_stack[MAX_CELLS];
    for (Py_ssize_t c = 0; c < cells; c++) {
        int32_t face = board[c];
        uint8_t letter = t->letters[(Py_ssize_t)face * t->longest];
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

HOT static void score_all(const Tables *t, int32_t serial0, int64_t *out_score, int32_t *out_words) {
    for (Py_ssize_t b = 0; b < t->n; b++) {
        Found f = walk(t, t->codes + b * t->cells, serial0 + (int32_t)b, NULL, NULL, 0);
        out_score[b] = f.score;
        out_words[b] = (int32_t)f.words;
    }
}

HOT static Found solve_board(const Tables *t, int32_t serial, int64_t *out_paths, int64_t *out_plen, Py_ssize_t cap) {
    return walk(t, t->codes, serial, out_paths, out_plen, cap);
}

/* ---- argument checks: byte lengths give every shape; every index is range-checked ---- */

static int fail(const char *message) {
    PyErr_SetString(PyExc_ValueError, message);
    return -1;
}

static int load_tables(Tables *t, Py_buffer *codes, Py_buffer *letters, Py_buffer *face_len, Py_buffer *nbr,
                       Py_buffer *nbr_n, Py_buffer *records, Py_buffer *stamp, Py_buffer *points, long long min_len) {
    t->cells = nbr_n->len / 8;
    if (nbr_n->len % 8 || t->cells < 1 || t->cells > MAX_CELLS) return fail("nbr_n: int64[cells], 1 to 64 cells");
    if (nbr->len != t->cells * MAX_NEIGHBOURS * 8) return fail("nbr: int64[cells, 8]");
    const int64_t *nb = nbr->buf, *nb_n = nbr_n->buf;
    const char *wrong = load_neighbours(nb, nb_n, t->cells, t->nbr, t->nbr_n);
    if (wrong) return fail(wrong);
    t->faces = face_len->len;
    if (t->faces < 1 || letters->len % t->faces) return fail("face_letters: uint8[faces, longest]");
    t->longest = letters->len / t->faces;
    if (t->longest < 1) return fail("face_letters: at least one letter a face");
    t->letters = letters->buf;
    t->face_len = face_len->buf;
    const char *bad = check_faces(t->letters, t->faces, t->longest, t->face_len);
    if (bad) return fail(bad);
    if (codes->len % (4 * t->cells)) return fail("codes: int32[n, cells]");
    t->n = codes->len / (4 * t->cells);
    t->codes = codes->buf;
    for (Py_ssize_t i = 0; i < t->n * t->cells; i++)
        if (t->codes[i] < 0 || t->codes[i] >= t->faces) return fail("codes: a face code out of range");
    if (records->len % 16 || records->len == 0) return fail("records: uint64[nodes, 2]");
    t->nodes = records->len / 16;
    t->records = records->buf;
    if (stamp->len != t->nodes * 4) return fail("stamp: int32[nodes]");
    t->stamp = stamp->buf;
    if (points->len % 8) return fail("points: int64[lengths]");
    t->points = points->buf;
    t->n_points = points->len / 8;
    t->min_len = min_len;
    return 0;
}

static void release(Py_buffer *buffers, int count) {
    for (int i = 0; i < count; i++)
        if (buffers[i].obj) PyBuffer_Release(&buffers[i]);
}

PyDoc_STRVAR(score_batch_doc,
             "score_batch(codes, face_letters, face_len, nbr, nbr_n, records, stamp, serial0, points, min_len, "
             "out_score, out_words)\n\nScore every board (row of codes): total points into out_score (int64), "
             "distinct words into out_words (int32).");

/* score_batch and solve_one take the same twelve arguments: parse and check them into tables, or NULL with an
 * exception set (and nothing held). The caller releases the buffers and frees the tables. */
static Tables *take_arguments(PyObject *args, Py_buffer b[10], long long *serial) {
    long long min_len;
    memset(b, 0, 10 * sizeof *b);
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*w*Ly*Lw*w*", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &b[6], serial,
                          &b[7], &min_len, &b[8], &b[9]))
        return NULL;
    Tables *t = PyMem_Malloc(sizeof(Tables));
    if (!t) {
        PyErr_NoMemory();
    } else if (load_tables(t, &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &b[6], &b[7], min_len) == 0) {
        return t;
    }
    PyMem_Free(t);
    release(b, 10);
    return NULL;
}

static PyObject *score_batch(PyObject *self, PyObject *args) {
    Py_buffer b[10];
    long long serial0;
    Tables *t = take_arguments(args, b, &serial0);
    if (!t) return NULL;
    PyObject *result = NULL;
    if (b[8].len != t->n * 8 || b[9].len != t->n * 4) {
        fail("out_score: int64[n] and out_words: int32[n]");
    } else if (serial0 < 1 || serial0 + t->n >= INT32_MAX) {
        fail("serial0: 1 .. 2**31 - n");
    } else {
        Py_BEGIN_ALLOW_THREADS
        score_all(t, (int32_t)serial0, b[8].buf, b[9].buf);
        Py_END_ALLOW_THREADS
        result = Py_NewRef(Py_None);
    }
    PyMem_Free(t);
    release(b, 10);
    return result;
}

PyDoc_STRVAR(solve_one_doc,
             "solve_one(board, face_letters, face_len, nbr, nbr_n, records, stamp, serial, points, min_len, "
             "out_paths, out_plen) -> (words, nodes)\n\nEvery distinct word of one board with the first path that "
             "spells it, as cells in out_paths[k] (int64[cap, cells]), length out_plen[k]; words = -1 when out of room.");

static PyObject *solve_one(PyObject *self, PyObject *args) {
    Py_buffer b[10];
    long long serial;
    Tables *t = take_arguments(args, b, &serial);
    if (!t) return NULL;
    PyObject *result = NULL;
    Py_ssize_t cap = b[9].len / 8;
    if (t->n != 1) {
        fail("board: int32[cells], one board");
    } else if (b[9].len % 8 || b[8].len != cap * t->cells * 8) {
        fail("out_paths: int64[cap, cells] and out_plen: int64[cap]");
    } else if (serial < 1 || serial >= INT32_MAX) {
        fail("serial: 1 .. 2**31 - 1");
    } else {
        Found f;
        Py_BEGIN_ALLOW_THREADS
        f = solve_board(t, (int32_t)serial, b[8].buf, b[9].buf, cap);
        Py_END_ALLOW_THREADS
        result = Py_BuildValue("LL", (long long)f.words, (long long)f.nodes);
    }
    PyMem_Free(t);
    release(b, 10);
    return result;
}

/* ---- plain board lines: parse and format a block without holding the GIL ---- */

PyDoc_STRVAR(plain_codes_doc,
             "plain_codes(data, table, length, out) -> bool\n\nFace codes of a block of plain board lines (each exactly "
             "`length` bytes and a newline) through `table` (int32[256], -1 for a byte that is no face) into `out` "
             "(int32[n, length]); False, with `out` unspecified, where any line is not such a board.");

static PyObject *plain_codes(PyObject *self, PyObject *args) {
    Py_buffer data, table, out;
    Py_ssize_t length;
    if (!PyArg_ParseTuple(args, "y*y*nw*", &data, &table, &length, &out)) return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = length > 0 ? data.len / (length + 1) : 0;
    if (table.len != 256 * 4) {
        PyErr_SetString(PyExc_ValueError, "table: int32[256]");
    } else if (length < 1 || data.len % (length + 1) || out.len != n * length * 4) {
        PyErr_SetString(PyExc_ValueError, "out: int32[n, length] for n lines of length bytes and a newline");
    } else {
        const unsigned char *in = data.buf;
        const int32_t *map = table.buf;
        int32_t *codes = out.buf;
        int ok = 1;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t i = 0; ok && i < n; i++) {
            const unsigned char *line = in + i * (length + 1);
            if (line[length] != '\n') ok = 0;
            for (Py_ssize_t k = 0; ok && k < length; k++) {
                int32_t code = map[line[k]];
                if (code < 0) ok = 0;
                codes[i * length + k] = code;
            }
        }
        Py_END_ALLOW_THREADS
        result = PyBool_FromLong(ok);
    }
    PyBuffer_Release(&data);
    PyBuffer_Release(&table);
    PyBuffer_Release(&out);
    return result;
}

static char *put_int(char *at, long long value) {
    char digits[24];
    int k = 0;
    unsigned long long v = value < 0 ? 0ULL - (unsigned long long)value : (unsigned long long)value;
    do {
        digits[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    if (value < 0) *at++ = '-';
    while (k) *at++ = digits[--k];
    return at;
}

PyDoc_STRVAR(format_rows_doc,
             "format_rows(data, length, scores, words) -> (text, total)\n\n`board<TAB>score<TAB>words` lines for a "
             "block that plain_codes accepted (ASCII), and the sum of the scores (int64[n], int32[n]).");

static PyObject *format_rows(PyObject *self, PyObject *args) {
    Py_buffer data, scores, words;
    Py_ssize_t length;
    if (!PyArg_ParseTuple(args, "y*ny*y*", &data, &length, &scores, &words)) return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = length > 0 ? data.len / (length + 1) : 0;
    char *buffer = NULL;
    if (length < 1 || data.len % (length + 1) || scores.len != n * 8 || words.len != n * 4) {
        PyErr_SetString(PyExc_ValueError, "format_rows: n lines of length bytes, int64[n] scores, int32[n] words");
    } else if (!(buffer = PyMem_RawMalloc((size_t)n * (size_t)(length + 36) + 1))) {
        PyErr_NoMemory();
    } else {
        const char *in = data.buf;
        const int64_t *s = scores.buf;
        const int32_t *w = words.buf;
        char *at = buffer;
        long long total = 0;
        int ascii = 1;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t i = 0; i < n; i++) {
            const char *line = in + i * (length + 1);
            for (Py_ssize_t k = 0; k < length; k++) ascii &= (unsigned char)line[k] < 128;
            memcpy(at, line, (size_t)length);
            at += length;
            *at++ = '\t';
            at = put_int(at, s[i]);
            *at++ = '\t';
            at = put_int(at, w[i]);
            *at++ = '\n';
            total += s[i];
        }
        Py_END_ALLOW_THREADS
        if (!ascii) {
            PyErr_SetString(PyExc_ValueError, "format_rows: the lines are not ASCII");
        } else {
            PyObject *text = PyUnicode_DecodeASCII(buffer, at - buffer, "strict");
            if (text) result = Py_BuildValue("NL", text, total);
        }
        PyMem_RawFree(buffer);
    }
    PyBuffer_Release(&data);
    PyBuffer_Release(&scores);
    PyBuffer_Release(&words);
    return result;
}

static PyMethodDef methods[] = {
    {"score_batch", score_batch, METH_VARARGS, score_batch_doc},
    {"solve_one", solve_one, METH_VARARGS, solve_one_doc},
    {"plain_codes", plain_codes, METH_VARARGS, plain_codes_doc},
    {"format_rows", format_rows, METH_VARARGS, format_rows_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_kernel", "The fast engine's walk, compiled ahead of time (see _kernel.c).", -1, methods,
};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&module); }
