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
 * The walk itself (_walk.h) is shared with the WebAssembly build the static web
 * page runs (web/wasm/solver.c); this file adds Python's argument checks.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_walk.h"

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

/* ---- board lines in every notation: parse and format a block without holding the GIL ---- */

/* A line's status in parse_lines' `meta` rows (status, start, end, rows, cols, first code). */
enum { LINE_BOARD = 0, LINE_SKIP = 1, LINE_PYTHON = 2 };
#define PLAIN_ONLY (1 << 30) /* a token table's flag: this face stands only in a plain line (see batch.py) */

static inline int is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* The code of `len` bytes at `text` in a packed table (entries: length byte, bytes, int32 code); -1: absent. */
static int32_t packed_lookup(const unsigned char *table, Py_ssize_t size, const unsigned char *text, Py_ssize_t len) {
    Py_ssize_t at = 0;
    while (at < size) {
        Py_ssize_t n = table[at];
        if (at + 1 + n + 4 > size) return -1;
        if (n == len && memcmp(table + at + 1, text, (size_t)n) == 0) {
            int32_t code;
            memcpy(&code, table + at + 1 + n, 4);
            return code;
        }
        at += 1 + n + 4;
    }
    return -1;
}

typedef struct {
    const int32_t *ascii;
    const unsigned char *singles, *brackets;
    Py_ssize_t singles_len, brackets_len;
    Py_ssize_t plain_r, plain_c, size_r, size_c;
} Notation;

static Py_ssize_t isqrt_exact(Py_ssize_t n) {
    Py_ssize_t r = 0;
    while ((r + 1) * (r + 1) <= n) r++;
    return r * r == n ? r : -1;
}

/* One line [p, e): its status, the stripped text's bounds, shape and codes (written at `out`). */
static void parse_line(const Notation *t, const unsigned char *d, Py_ssize_t p, Py_ssize_t e, int32_t *out,
                       int64_t *meta) {
    meta[0] = LINE_PYTHON;
    meta[3] = meta[4] = 0;
    while (p < e && is_space(d[p])) p++;
    while (e - p >= 3 && d[p] == 0xEF && d[p + 1] == 0xBB && d[p + 2] == 0xBF) p += 3; /* BOMs (files joined) */
    while (p < e && is_space(d[p])) p++;
    while (e > p && is_space(d[e - 1])) e--;
    meta[1] = p;
    meta[2] = e;
    if (p == e || d[p] == '#') {
        meta[0] = LINE_SKIP;
        return;
    }
    Py_ssize_t rows = 0, width = -1, cur = 0, n = 0;
    int explicit = 0, plain = 1, plain_only = 0, ragged = 0;
    Py_ssize_t q = p;
    while (q <= e) {
        unsigned char c = q < e ? d[q] : ' ';
        int32_t code;
        if (is_space(c) || c == '/') { /* a row ends */
            if (c == '/') explicit = 1;
            if (q < e) plain = 0;
            if (cur) {
                if (width < 0) width = cur;
                else if (width != cur) ragged = 1;
                rows++;
                cur = 0;
            }
            q++;
            continue;
        }
        if (c == '.') {
            code = 0;
            plain = 0;
            q++;
        } else if (c == '[') {
            unsigned char face[64];
            Py_ssize_t k = 0, r = q + 1;
            while (r < e && d[r] != ']' && !is_space(d[r]) && d[r] != '/' && k < 64) {
                unsigned char b = d[r++];
                face[k++] = (b >= 'A' && b <= 'Z') ? (unsigned char)(b + 32) : b;
            }
            if (r >= e || d[r] != ']') return; /* unclosed, or odd: Python says what is wrong */
            code = k ? packed_lookup(t->brackets, t->brackets_len, face, k) : 0;
            if (code < 0) return;
            plain = 0;
            q = r + 1;
        } else if (c < 0x80) {
            code = t->ascii[c];
            if (code < 0) return;
            q++;
        } else {
            Py_ssize_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
            if (!len || q + len > e) return;
            code = packed_lookup(t->singles, t->singles_len, d + q, len);
            if (code < 0) return;
            q += len;
        }
        if (code & PLAIN_ONLY) {
            plain_only = 1;
            code &= ~PLAIN_ONLY;
        }
        out[n++] = code;
        cur++;
    }
    if (!n || ragged) return;
    Py_ssize_t r = rows, w = width;
    int flat = rows == 1 && n > 1 && !explicit;
    if (plain) { /* a plain string of one-character faces: the dice set's shape first, then a square */
        Py_ssize_t side = t->plain_r ? (t->plain_r * t->plain_c == n ? 1 : -1) : isqrt_exact(n);
        if (side > 0) {
            r = t->plain_r ? t->plain_r : side;
            w = t->plain_r ? t->plain_c : side;
            goto done;
        }
    }
    if (plain_only) return;
    if (flat) {
        if (t->size_r) {
            if (t->size_r * t->size_c != n) return;
            r = t->size_r, w = t->size_c;
        } else {
            Py_ssize_t side = isqrt_exact(n);
            if (side < 0) return;
            r = w = side;
        }
    } else if (t->size_r && (r != t->size_r || w != t->size_c)) {
        return;
    }
done:
    meta[0] = LINE_BOARD;
    meta[3] = r;
    meta[4] = w;
}

PyDoc_STRVAR(parse_lines_doc,
             "parse_lines(data, ascii, singles, brackets, plain_shape, size, codes, meta) -> (lines, n_codes)\n\n"
             "Board lines (whole lines, each ending in a newline) in compact notation: face codes into `codes` "
             "(int32, at least len(data)), one int64[6] `meta` row a line: status (0 board, 1 blank or comment, 2 "
             "for Python to read: anything odd or wrong), stripped text start and end, rows, cols, first code. "
             "`ascii` int32[256] and the packed `singles`/`brackets` tables give faces' codes; the shapes are "
             "(rows, cols) tuples, (0, 0) for none. batch.py states the rules this follows.");

static PyObject *parse_lines(PyObject *self, PyObject *args) {
    Py_buffer data, ascii, singles, brackets, codes, meta;
    Notation t;
    if (!PyArg_ParseTuple(args, "y*y*y*y*(nn)(nn)w*w*", &data, &ascii, &singles, &brackets, &t.plain_r, &t.plain_c,
                          &t.size_r, &t.size_c, &codes, &meta))
        return NULL;
    PyObject *result = NULL;
    const unsigned char *d = data.buf;
    Py_ssize_t lines = 0;
    for (Py_ssize_t i = 0; i < data.len; i++) lines += d[i] == '\n';
    if (ascii.len != 256 * 4) {
        PyErr_SetString(PyExc_ValueError, "ascii: int32[256]");
    } else if (codes.len < data.len * 4 || meta.len < lines * 6 * 8 || (data.len && d[data.len - 1] != '\n')) {
        PyErr_SetString(PyExc_ValueError, "parse_lines: whole lines; codes int32[len(data)], meta int64[lines, 6]");
    } else {
        t.ascii = ascii.buf;
        t.singles = singles.buf;
        t.singles_len = singles.len;
        t.brackets = brackets.buf;
        t.brackets_len = brackets.len;
        int32_t *out = codes.buf;
        int64_t *m = meta.buf;
        Py_ssize_t used = 0, start = 0;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t i = 0; i < lines; i++) {
            Py_ssize_t end = start;
            while (d[end] != '\n') end++;
            int64_t *row = m + i * 6;
            parse_line(&t, d, start, end, out + used, row);
            row[5] = used;
            if (row[0] == LINE_BOARD) used += row[3] * row[4];
            start = end + 1;
        }
        Py_END_ALLOW_THREADS
        result = Py_BuildValue("nn", lines, used);
    }
    PyBuffer_Release(&data);
    PyBuffer_Release(&ascii);
    PyBuffer_Release(&singles);
    PyBuffer_Release(&brackets);
    PyBuffer_Release(&codes);
    PyBuffer_Release(&meta);
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

PyDoc_STRVAR(format_lines_doc,
             "format_lines(data, meta, lines, scores, words) -> (text, total)\n\n`board<TAB>score<TAB>words` for "
             "each board line of a block parse_lines read (its text as typed, a tab shown as a space; blank lines "
             "and comments left out), scores int64[boards] and words int32[boards] in order; and their sum.");

static PyObject *format_lines(PyObject *self, PyObject *args) {
    Py_buffer data, meta, scores, words;
    Py_ssize_t lines;
    if (!PyArg_ParseTuple(args, "y*y*ny*y*", &data, &meta, &lines, &scores, &words)) return NULL;
    PyObject *result = NULL;
    const int64_t *m = meta.buf;
    Py_ssize_t boards = 0, bytes = 0, bad = 0;
    if (lines < 0 || meta.len < lines * 6 * 8) {
        bad = 1;
    } else {
        for (Py_ssize_t i = 0; i < lines; i++) {
            const int64_t *row = m + i * 6;
            if (row[0] == LINE_BOARD) {
                if (row[1] < 0 || row[2] < row[1] || row[2] > data.len) bad = 1;
                else boards++, bytes += row[2] - row[1];
            } else if (row[0] != LINE_SKIP) {
                bad = 1;
            }
        }
    }
    char *buffer = NULL;
    if (bad || scores.len != boards * 8 || words.len != boards * 4) {
        PyErr_SetString(PyExc_ValueError, "format_lines: board and blank lines only; scores and words a board");
    } else if (!(buffer = PyMem_RawMalloc((size_t)bytes + (size_t)boards * 36 + 1))) {
        PyErr_NoMemory();
    } else {
        const char *in = data.buf;
        const int64_t *s = scores.buf;
        const int32_t *w = words.buf;
        char *at = buffer;
        long long total = 0;
        Py_BEGIN_ALLOW_THREADS
        Py_ssize_t b = 0;
        for (Py_ssize_t i = 0; i < lines; i++) {
            const int64_t *row = m + i * 6;
            if (row[0] != LINE_BOARD) continue;
            for (int64_t k = row[1]; k < row[2]; k++) *at++ = in[k] == '\t' ? ' ' : in[k];
            *at++ = '\t';
            at = put_int(at, s[b]);
            *at++ = '\t';
            at = put_int(at, w[b]);
            *at++ = '\n';
            total += s[b++];
        }
        Py_END_ALLOW_THREADS
        PyObject *text = PyUnicode_DecodeUTF8(buffer, at - buffer, "strict");
        if (text) result = Py_BuildValue("NL", text, total);
        PyMem_RawFree(buffer);
    }
    PyBuffer_Release(&data);
    PyBuffer_Release(&meta);
    PyBuffer_Release(&scores);
    PyBuffer_Release(&words);
    return result;
}

static PyMethodDef methods[] = {
    {"score_batch", score_batch, METH_VARARGS, score_batch_doc},
    {"solve_one", solve_one, METH_VARARGS, solve_one_doc},
    {"parse_lines", parse_lines, METH_VARARGS, parse_lines_doc},
    {"format_lines", format_lines, METH_VARARGS, format_lines_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_kernel", "The fast engine's walk, compiled ahead of time (see _kernel.c).", -1, methods,
};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&module); }
