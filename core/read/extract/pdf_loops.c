/* The PDF reader's inner loops in C: PDFium's per-character and per-object calls, the
 * grouping of a page's lines into boxes and of its boxes into a tree (pdf_boxes'
 * line_boxes and pdf_order's group_merges), and the whole layout of a page's characters into the
 * texts of its boxes (pdf_layout's page_texts). Each has its Python twin, used where this
 * module is not built; the tests hold the two to the same answers.
 *
 * PDFium's per-character calls made in a C loop: through ctypes each call costs about
 * 0.3 us of argument handling, as much as PDFium's own work for the call, and a PDF has two
 * or three such calls a character. PDFium is not linked here: the caller hands over the
 * address of the PDFium function pypdfium2 already loaded (one library, one state), the
 * text page's handle, the character indices and a buffer for the answers. The types each
 * function is called with here are pdfium_signatures.C_SIGNATURES, checked against
 * pypdfium2's declarations before the loops are used.
 *
 * The GIL is kept around PDFium's calls, as ctypes' PYFUNCTYPE calls keep it: PDFium is not
 * thread safe, and the GIL is what keeps two threads of one process out of it at once. The
 * layout loops let it go on large pages, where they touch no Python object. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int (*int_call)(void *, int);
typedef void *(*pointer_call)(void *, int);
typedef int (*rect_call)(void *, int, float *);

/* Parses (function address, handle address, int32 indices, writable answers) and checks
 * that the answers hold `width` items of `item` bytes per index. */
static int parse(PyObject *args, void **function, void **handle, Py_buffer *indices,
                 Py_buffer *answers, Py_ssize_t item, Py_ssize_t width) {
    unsigned long long f, h;
    if (!PyArg_ParseTuple(args, "KKy*w*", &f, &h, indices, answers))
        return 0;
    Py_ssize_t count = indices->len / (Py_ssize_t)sizeof(int32_t);
    if (!f || !h || indices->len % (Py_ssize_t)sizeof(int32_t) ||
        answers->len < count * item * width) {
        PyBuffer_Release(indices);
        PyBuffer_Release(answers);
        PyErr_SetString(PyExc_ValueError, "no function or handle, or answers too short");
        return 0;
    }
    *function = (void *)(uintptr_t)f;
    *handle = (void *)(uintptr_t)h;
    return 1;
}

static PyObject *done(Py_buffer *indices, Py_buffer *answers) {
    PyBuffer_Release(indices);
    PyBuffer_Release(answers);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(ints_doc, "ints(function, textpage, indices, answers): answers[i] = "
                       "function(textpage, indices[i]) as int32 (IsGenerated, "
                       "HasUnicodeMapError, GetUnicode).");

static PyObject *ints(PyObject *self, PyObject *args) {
    void *function, *handle;
    Py_buffer indices, answers;
    if (!parse(args, &function, &handle, &indices, &answers, sizeof(int32_t), 1))
        return NULL;
    const int32_t *at = indices.buf;
    int32_t *out = answers.buf;
    Py_ssize_t count = indices.len / (Py_ssize_t)sizeof(int32_t);
    for (Py_ssize_t i = 0; i < count; i++)
        out[i] = (int32_t)((int_call)function)(handle, at[i]);
    return done(&indices, &answers);
}

PyDoc_STRVAR(pointers_doc, "pointers(function, textpage, indices, answers): answers[i] = "
                           "function(textpage, indices[i]) as uint64 (GetTextObject).");

static PyObject *pointers(PyObject *self, PyObject *args) {
    void *function, *handle;
    Py_buffer indices, answers;
    if (!parse(args, &function, &handle, &indices, &answers, sizeof(uint64_t), 1))
        return NULL;
    const int32_t *at = indices.buf;
    uint64_t *out = answers.buf;
    Py_ssize_t count = indices.len / (Py_ssize_t)sizeof(int32_t);
    for (Py_ssize_t i = 0; i < count; i++)
        out[i] = (uint64_t)(uintptr_t)((pointer_call)function)(handle, at[i]);
    return done(&indices, &answers);
}

PyDoc_STRVAR(rects_doc, "rects(function, textpage, indices, answers): the FS_RECTF "
                        "function(textpage, indices[i], rect) writes, four float32 each; "
                        "left as it was where the call fails (GetLooseCharBox).");

static PyObject *rects(PyObject *self, PyObject *args) {
    void *function, *handle;
    Py_buffer indices, answers;
    if (!parse(args, &function, &handle, &indices, &answers, sizeof(float), 4))
        return NULL;
    const int32_t *at = indices.buf;
    float *out = answers.buf;
    Py_ssize_t count = indices.len / (Py_ssize_t)sizeof(int32_t);
    for (Py_ssize_t i = 0; i < count; i++)
        ((rect_call)function)(handle, at[i], out + 4 * i);
    return done(&indices, &answers);
}


/* ---- pdf_order.group_merges: pdfminer's group_textboxes on a page's boxes ----
 * The steps and floating-point operations of the Python (see its docstring), in the same
 * order: every distance is ((x1 - x0) * (y1 - y0) - a.area) - b.area of the pair's common
 * rectangle, with x1 = a.x1 > b.x1 ? a.x1 : b.x1 and so on. Only for finite boxes of
 * moderate size (|value| <= MAX_VALUE): then every area is finite, so the heap's keys
 * (checked, area, i, j, owner) are in a total order and all distinct, and any heap pops
 * them as Python's heapq does; the caller falls back to Python for any other page. */

#define GRID 50
#define MAX_VALUE 1e12
/* pdfminer's INF, 2**31 - 1: where its boxes and lines start (`LTExpandableContainer`,
 * `LTTextLineHorizontal._x1`); coordinates beyond it are cut to it there, as in the Python */
#define PDFMINER_INF 2147483647.0
/* pdfminer's grouping holds every pair of boxes (quadratic memory, worse time): a page of
 * more boxes is read in the order pdfminer gives a group's members (flow_key), no tree */
#define MAX_GROUPED_BOXES 1000
/* the GIL is let go around pure-C work on pages of at least this many items */
#define NOGIL_ITEMS 200

typedef struct {
    double x0, y0, x1, y1, area;
    long long cx0, cx1, cy0, cy1; /* squares of pdfminer's Plane: [cx0, cx1) x [cy0, cy1) */
} Spot;

typedef struct {
    int checked;
    double area;
    int i, j, owner;
} Entry;

typedef struct {
    double area;
    int other;
} Pair;

static long long floor_div(long long a, long long b) {
    long long q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* int(v) // GRID, int() truncating toward zero as C's cast does */
static long long cell(double v) { return floor_div((long long)v, GRID); }

static Spot make_spot(double x0, double y0, double x1, double y1, const double *page) {
    Spot s = {x0, y0, x1, y1, (x1 - x0) * (y1 - y0), 0, 0, 0, 0};
    double left = page[0], bottom = page[1], right = page[2], top = page[3];
    if (x1 <= left || right <= x0 || y1 <= bottom || top <= y0)
        return s;
    s.cx0 = cell(x0 > left ? x0 : left);
    s.cx1 = cell((x1 < right ? x1 : right) + GRID);
    s.cy0 = cell(y0 > bottom ? y0 : bottom);
    s.cy1 = cell((y1 < top ? y1 : top) + GRID);
    return s;
}

static double added_area(const Spot *a, const Spot *b) {
    double x0 = a->x0 < b->x0 ? a->x0 : b->x0;
    double y0 = a->y0 < b->y0 ? a->y0 : b->y0;
    double x1 = a->x1 > b->x1 ? a->x1 : b->x1;
    double y1 = a->y1 > b->y1 ? a->y1 : b->y1;
    return (x1 - x0) * (y1 - y0) - a->area - b->area;
}

static int entry_less(const Entry *a, const Entry *b) {
    if (a->checked != b->checked) return a->checked < b->checked;
    if (a->area != b->area) return a->area < b->area;
    if (a->i != b->i) return a->i < b->i;
    if (a->j != b->j) return a->j < b->j;
    return a->owner < b->owner;
}

typedef struct {
    Entry *items;
    int size, capacity;
} Heap;

/* 0 when out of memory */
static int heap_push(Heap *heap, Entry e) {
    if (heap->size == heap->capacity) {
        int capacity = heap->capacity ? 2 * heap->capacity : 64;
        Entry *grown = realloc(heap->items, sizeof(Entry) * (size_t)capacity);
        if (!grown) return 0;
        heap->items = grown;
        heap->capacity = capacity;
    }
    Entry *items = heap->items;
    int k = heap->size++;
    while (k > 0) {
        int parent = (k - 1) / 2;
        if (!entry_less(&e, &items[parent])) break;
        items[k] = items[parent];
        k = parent;
    }
    items[k] = e;
    return 1;
}

static Entry heap_pop(Heap *heap) {
    Entry *items = heap->items;
    Entry top = items[0], last = items[--heap->size];
    int k = 0, n = heap->size;
    for (;;) {
        int child = 2 * k + 1;
        if (child >= n) break;
        if (child + 1 < n && entry_less(&items[child + 1], &items[child])) child++;
        if (!entry_less(&items[child], &last)) break;
        items[k] = items[child];
        k = child;
    }
    if (n) items[k] = last;
    return top;
}

static int pair_less(const Pair *a, const Pair *b) {
    return a->area < b->area || (a->area == b->area && a->other < b->other);
}

static int pair_compare(const void *a, const void *b) {
    return pair_less(a, b) ? -1 : pair_less(b, a) ? 1 : 0;
}

typedef struct {
    double area;
    int i, j;
} FirstPair;

static int first_compare(const void *a, const void *b) {
    const FirstPair *p = a, *q = b;
    if (p->area != q->area) return p->area < q->area ? -1 : 1;
    if (p->i != q->i) return p->i < q->i ? -1 : 1;
    return (p->j > q->j) - (p->j < q->j);
}

static int any_between(int i, int j, const int *placed, int count, const Spot *spots,
                       const double *page) {
    const Spot *a = &spots[i], *b = &spots[j];
    double x0 = a->x0 < b->x0 ? a->x0 : b->x0;
    double y0 = a->y0 < b->y0 ? a->y0 : b->y0;
    double x1 = a->x1 > b->x1 ? a->x1 : b->x1;
    double y1 = a->y1 > b->y1 ? a->y1 : b->y1;
    double left = page[0], bottom = page[1], right = page[2], top = page[3];
    if (x1 <= left || right <= x0 || y1 <= bottom || top <= y0) return 0;
    long long from_x = cell(left >= x0 ? left : x0);
    long long to_x = cell((right <= x1 ? right : x1) + GRID);
    long long from_y = cell(bottom >= y0 ? bottom : y0);
    long long to_y = cell((top <= y1 ? top : y1) + GRID);
    for (int n = 0; n < count; n++) {
        int k = placed[n];
        const Spot *c = &spots[k];
        if (c->x1 <= x0 || x1 <= c->x0 || c->y1 <= y0 || y1 <= c->y0 || k == i || k == j)
            continue;
        if ((c->cx0 > from_x ? c->cx0 : from_x) < (c->cx1 < to_x ? c->cx1 : to_x) &&
            (c->cy0 > from_y ? c->cy0 : from_y) < (c->cy1 < to_y ? c->cy1 : to_y))
            return 1;
    }
    return 0;
}

static void remove_placed(int *placed, int *count, int item) {
    for (int n = 0; n < *count; n++)
        if (placed[n] == item) {
            memmove(placed + n, placed + n + 1, (size_t)(*count - n - 1) * sizeof(int));
            (*count)--;
            return;
        }
}

/* The merges of n boxes (x0, y0, x1, y1 each) into merges[2 * (n - 1)]: 1 when made,
 * 0 when the page is not one this loop takes (the caller runs the Python), -1 out of
 * memory. Called with the GIL held; lets it go for large pages. */
static int merge_groups_held(const double *boxes, int n, const double *page, int32_t *merges);

static int merge_groups(const double *boxes, int n, const double *page, int32_t *merges) {
    PyThreadState *save = n >= NOGIL_ITEMS ? PyEval_SaveThread() : NULL;
    int result = merge_groups_held(boxes, n, page, merges);
    if (save) PyEval_RestoreThread(save);
    return result;
}

static int merge_groups_held(const double *boxes, int n, const double *page, int32_t *merges) {
    for (int k = 0; k < 4 * n; k++)
        if (!(fabs(boxes[k]) <= MAX_VALUE)) return 0;
    for (int k = 0; k < 4; k++)
        if (!(fabs(page[k]) <= MAX_VALUE)) return 0;
    int items = 2 * n - 1;
    size_t pairs = (size_t)n * (size_t)(n - 1) / 2;
    Spot *spots = malloc(sizeof(Spot) * (size_t)items);
    FirstPair *first = malloc(sizeof(FirstPair) * pairs);
    int *placed = malloc(sizeof(int) * (size_t)items);
    char *grouped = calloc((size_t)items, 1);
    /* each group's pairs with the items placed before it, nearest first, read from `next` */
    Pair **streams = calloc((size_t)items, sizeof(Pair *));
    int *next = calloc((size_t)items, sizeof(int));
    int *length = calloc((size_t)items, sizeof(int));
    Heap heap = {NULL, 0, 0};
    int result = -1;
    if (!spots || !first || !placed || !grouped || !streams || !next || !length) goto done;
    for (int k = 0; k < n; k++) {
        const double *b = boxes + 4 * k;
        spots[k] = make_spot(b[0], b[1], b[2], b[3], page);
        placed[k] = k;
    }
    size_t p = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            FirstPair pair = {added_area(&spots[i], &spots[j]), i, j};
            first[p++] = pair;
        }
    qsort(first, pairs, sizeof(FirstPair), first_compare);
    int count = n, made = 0, owner = 0;
    size_t at = 0;
    while (count > 1) {
        if (owner == 0) {
            while (at < pairs) {
                FirstPair f = first[at++];
                if (!(grouped[f.i] || grouped[f.j])) {
                    Entry e = {0, f.area, f.i, f.j, 0};
                    if (!heap_push(&heap, e)) goto done;
                    break;
                }
            }
        } else if (owner > 0 && !grouped[owner]) {
            while (next[owner] < length[owner]) {
                Pair pair = streams[owner][next[owner]++];
                if (!grouped[pair.other]) {
                    Entry e = {0, pair.area, owner, pair.other, owner};
                    if (!heap_push(&heap, e)) goto done;
                    break;
                }
            }
        }
        if (heap.size == 0) { /* Python fails here too: let it */
            result = 0;
            goto done;
        }
        Entry e = heap_pop(&heap);
        owner = e.owner;
        if (grouped[e.i] || grouped[e.j]) continue;
        if (!e.checked && any_between(e.i, e.j, placed, count, spots, page)) {
            Entry again = {1, e.area, e.i, e.j, -1};
            if (!heap_push(&heap, again)) goto done;
            continue;
        }
        merges[2 * made] = e.i;
        merges[2 * made + 1] = e.j;
        made++;
        grouped[e.i] = grouped[e.j] = 1;
        remove_placed(placed, &count, e.i);
        remove_placed(placed, &count, e.j);
        int k = n + made - 1;
        const Spot *a = &spots[e.i], *b = &spots[e.j];
        spots[k] = make_spot(a->x0 < b->x0 ? a->x0 : b->x0, a->y0 < b->y0 ? a->y0 : b->y0,
                             a->x1 > b->x1 ? a->x1 : b->x1, a->y1 > b->y1 ? a->y1 : b->y1,
                             page);
        if (count) {
            Pair *stream = malloc(sizeof(Pair) * (size_t)count);
            if (!stream) goto done;
            for (int m = 0; m < count; m++) {
                stream[m].area = added_area(&spots[k], &spots[placed[m]]);
                stream[m].other = placed[m];
            }
            qsort(stream, (size_t)count, sizeof(Pair), pair_compare);
            streams[k] = stream;
            length[k] = count;
            next[k] = 1;
            Entry g = {0, stream[0].area, k, stream[0].other, k};
            if (!heap_push(&heap, g)) goto done;
        }
        placed[count++] = k;
    }
    result = 1;
done:
    if (streams)
        for (int k = 0; k < items; k++) free(streams[k]);
    free(spots);
    free(first);
    free(placed);
    free(grouped);
    free(streams);
    free(next);
    free(length);
    free(heap.items);
    return result;
}

PyDoc_STRVAR(group_merges_doc,
             "group_merges(boxes, left, bottom, right, top, merges): pdf_order.group_merges "
             "of n boxes (float64, x0 y0 x1 y1 each) written into merges (int32, 2 (n - 1)); "
             "False when the page needs the Python (values not finite or too large).");

static PyObject *group_merges(PyObject *self, PyObject *args) {
    Py_buffer boxes, merges;
    double page[4];
    if (!PyArg_ParseTuple(args, "y*ddddw*", &boxes, &page[0], &page[1], &page[2], &page[3],
                          &merges))
        return NULL;
    Py_ssize_t n = boxes.len / (Py_ssize_t)(4 * sizeof(double));
    int result = 0;
    if (boxes.len % (Py_ssize_t)(4 * sizeof(double)) || n < 2 || n > MAX_GROUPED_BOXES ||
        merges.len < (n - 1) * 2 * (Py_ssize_t)sizeof(int32_t)) {
        PyErr_SetString(PyExc_ValueError,
                        "boxes not whole, fewer than 2 or too many, or merges too short");
    } else {
        result = merge_groups(boxes.buf, (int)n, page, merges.buf);
        if (result < 0) PyErr_NoMemory();
    }
    PyBuffer_Release(&boxes);
    PyBuffer_Release(&merges);
    if (PyErr_Occurred()) return NULL;
    return PyBool_FromLong(result);
}

/* ---- pdf_boxes.line_boxes: pdfminer's group_textlines on a page's lines ----
 * The Python's numbers and order: a line's neighbours by (first square of the plane
 * shared, row then column, then line), the boxes merged through them as the dict of the
 * Python merges them. For finite lines of moderate size only (|value| <= MAX_VALUE). */

typedef struct {
    long long first_y, first_x;
    int line;
} Neighbour;

static int neighbour_compare(const void *a, const void *b) {
    const Neighbour *p = a, *q = b;
    if (p->first_y != q->first_y) return p->first_y < q->first_y ? -1 : 1;
    if (p->first_x != q->first_x) return p->first_x < q->first_x ? -1 : 1;
    return (p->line > q->line) - (p->line < q->line);
}

typedef struct {
    int *members;
    int size;
} Box;

/* `lines`: x0, y0, x1, y1 rows of n. Boxes written as members (a partition of the n lines)
 * and starts (box b is members[starts[b]:starts[b + 1]]); returns how many, 0 for a page
 * the Python must take, -1 out of memory. Called with the GIL held; lets it go for large
 * pages (n * n steps). */
static int group_lines_held(const double *lines, int n, const double *page, double margin,
                            int32_t *members_out, int32_t *starts);

static int group_lines(const double *lines, int n, const double *page, double margin,
                       int32_t *members_out, int32_t *starts) {
    PyThreadState *save = n >= NOGIL_ITEMS ? PyEval_SaveThread() : NULL;
    int result = group_lines_held(lines, n, page, margin, members_out, starts);
    if (save) PyEval_RestoreThread(save);
    return result;
}

static int group_lines_held(const double *lines, int n, const double *page, double margin,
                            int32_t *members_out, int32_t *starts) {
    const double *x0 = lines, *y0 = lines + n, *x1 = lines + 2 * n, *y1 = lines + 3 * n;
    double left = page[0], bottom = page[1], right = page[2], top = page[3];
    for (int k = 0; k < 4 * n; k++)
        if (!(fabs(lines[k]) <= MAX_VALUE)) return 0;
    for (int k = 0; k < 4; k++)
        if (!(fabs(page[k]) <= MAX_VALUE)) return 0;
    if (!(fabs(margin) <= MAX_VALUE)) return 0;
    int result = -1;
    /* squares of the lines (fx to tx, fy to ty) and of their queries (q...) */
    long long *cells = malloc(sizeof(long long) * 8 * (size_t)n);
    double *below = malloc(sizeof(double) * 2 * (size_t)n);
    Neighbour *found = malloc(sizeof(Neighbour) * (size_t)n);
    int *box_of = malloc(sizeof(int) * (size_t)n);
    Box *boxes = calloc((size_t)n, sizeof(Box));
    char *seen = calloc((size_t)n + 1, 1);
    char *listed = calloc((size_t)n + 1, 1);
    int box_count = 0;
    if (!cells || !below || !found || !box_of || !boxes || !seen || !listed) goto done;
    double *above = below + n;
    long long *fx = cells, *tx = cells + n, *fy = cells + 2 * n, *ty = cells + 3 * n;
    long long *qfx = cells + 4 * n, *qtx = cells + 5 * n, *qfy = cells + 6 * n;
    long long *qty = cells + 7 * n;
    for (int k = 0; k < n; k++) {
        double d = margin * (y1[k] - y0[k]);
        below[k] = y0[k] - d;
        above[k] = y1[k] + d;
        int off_x = x1[k] <= left || right <= x0[k];
        int off = off_x || y1[k] <= bottom || top <= y0[k];
        int off_query = off_x || above[k] <= bottom || top <= below[k];
        long long from_x = cell(left >= x0[k] ? left : x0[k]);
        long long to_x = cell((right <= x1[k] ? right : x1[k]) + GRID);
        fx[k] = off ? 0 : from_x;
        tx[k] = off ? 0 : to_x;
        fy[k] = off ? 0 : cell(bottom >= y0[k] ? bottom : y0[k]);
        ty[k] = off ? 0 : cell((top <= y1[k] ? top : y1[k]) + GRID);
        qfx[k] = off_query ? 0 : from_x;
        qtx[k] = off_query ? 0 : to_x;
        qfy[k] = off_query ? 0 : cell(bottom >= below[k] ? bottom : below[k]);
        qty[k] = off_query ? 0 : cell((top <= above[k] ? top : above[k]) + GRID);
        box_of[k] = -1;
    }
    for (int i = 0; i < n; i++) {
        double height = y1[i] - y0[i], tolerance = margin * height;
        double middle = (x0[i] + x1[i]) / 2;
        int count = 0;
        for (int j = 0; j < n; j++) {
            long long first_x = qfx[i] > fx[j] ? qfx[i] : fx[j];
            long long first_y = qfy[i] > fy[j] ? qfy[i] : fy[j];
            int near = first_x < (qtx[i] < tx[j] ? qtx[i] : tx[j]) &&
                       first_y < (qty[i] < ty[j] ? qty[i] : ty[j]) &&
                       !(x1[j] <= x0[i] || x1[i] <= x0[j] || y1[j] <= below[i] ||
                         above[i] <= y0[j]) &&
                       fabs((y1[j] - y0[j]) - height) <= tolerance &&
                       (fabs(x0[j] - x0[i]) <= tolerance || fabs(x1[j] - x1[i]) <= tolerance ||
                        fabs((x0[j] + x1[j]) / 2 - middle) <= tolerance);
            if (!near && j != i) continue; /* i is its own neighbour: see _line_boxes */
            Neighbour nb = {first_y, first_x, j};
            found[count++] = nb;
        }
        qsort(found, (size_t)count, sizeof(Neighbour), neighbour_compare);
        /* i, then each neighbour and the box it was in (as the dict pops it) */
        int *gathered = malloc(sizeof(int) * (size_t)(1 + count) * 2 + sizeof(int) * (size_t)n);
        if (!gathered) goto done;
        int g = 0;
        gathered[g++] = i;
        for (int m = 0; m < count; m++) {
            int j = found[m].line;
            gathered[g++] = j;
            int b = box_of[j];
            if (b >= 0) {
                box_of[j] = -1; /* boxes.pop(j): only j's entry goes */
                int *grown = realloc(gathered, sizeof(int) * (size_t)(g + boxes[b].size + count));
                if (!grown) {
                    free(gathered);
                    goto done;
                }
                gathered = grown;
                memcpy(gathered + g, boxes[b].members, sizeof(int) * (size_t)boxes[b].size);
                g += boxes[b].size;
            }
        }
        /* dict.fromkeys: first occurrences in order */
        int *unique = malloc(sizeof(int) * (size_t)g);
        if (!unique) {
            free(gathered);
            goto done;
        }
        int u = 0;
        for (int m = 0; m < g; m++) {
            int line = gathered[m];
            if (!seen[line]) {
                seen[line] = 1;
                unique[u++] = line;
            }
        }
        for (int m = 0; m < u; m++) seen[unique[m]] = 0;
        free(gathered);
        boxes[box_count].members = unique;
        boxes[box_count].size = u;
        for (int m = 0; m < u; m++) box_of[unique[m]] = box_count;
        box_count++;
    }
    /* the boxes in the order of their first line, each once */
    int written = 0, made = 0;
    for (int i = 0; i < n; i++) {
        int b = box_of[i];
        if (b < 0 || listed[b]) continue;
        listed[b] = 1;
        if (boxes[b].size > n - written) { /* not a partition: never, but not past n */
            result = 0;
            goto done;
        }
        starts[made++] = written;
        memcpy(members_out + written, boxes[b].members, sizeof(int32_t) * (size_t)boxes[b].size);
        written += boxes[b].size;
    }
    starts[made] = written;
    result = written == n ? made : 0;
done:
    if (boxes)
        for (int b = 0; b < box_count; b++) free(boxes[b].members);
    free(cells);
    free(below);
    free(found);
    free(box_of);
    free(boxes);
    free(seen);
    free(listed);
    return result;
}

PyDoc_STRVAR(line_boxes_doc,
             "line_boxes(lines, left, bottom, right, top, line_margin, members, starts): "
             "pdf_boxes.line_boxes of n lines (float64 x0, y0, x1, y1 rows) written as "
             "members (int32, n) and starts (int32, n + 1); the number of boxes, 0 when "
             "the page needs the Python.");

static PyObject *line_boxes(PyObject *self, PyObject *args) {
    Py_buffer lines, members, starts;
    double page[4], margin;
    if (!PyArg_ParseTuple(args, "y*dddddw*w*", &lines, &page[0], &page[1], &page[2], &page[3],
                          &margin, &members, &starts))
        return NULL;
    Py_ssize_t n = lines.len / (Py_ssize_t)(4 * sizeof(double));
    int result = 0;
    if (lines.len % (Py_ssize_t)(4 * sizeof(double)) || n < 1 || n > 1000000 ||
        members.len < n * (Py_ssize_t)sizeof(int32_t) ||
        starts.len < (n + 1) * (Py_ssize_t)sizeof(int32_t)) {
        PyErr_SetString(PyExc_ValueError, "lines not whole or none, or answers too short");
    } else {
        result = group_lines(lines.buf, (int)n, page, margin, members.buf, starts.buf);
        if (result < 0) PyErr_NoMemory();
    }
    PyBuffer_Release(&lines);
    PyBuffer_Release(&members);
    PyBuffer_Release(&starts);
    if (PyErr_Occurred()) return NULL;
    return PyLong_FromLong(result);
}

/* ---- pdfium._text_looks: the text objects of a page and of its forms ----
 * The walk of the Python twin, call for call: holders (the page, then forms) on a stack,
 * each holder's objects in order; a text or form object whose matrix turns, shears or
 * flips, a font size PDFium does not give, or forms nested deeper than the limit end the
 * walk (not complete: the objects before it are kept). For each text object: its address,
 * render mode, font size as drawn (size * |d| * the forms' scale, in that order) and its
 * render mode and fill and stroke colours packed (look_key). */

typedef struct {
    float a, b, c, d, e, f;
} Matrix; /* FS_MATRIX */

enum { COUNT_PAGE, PAGE_OBJECT, COUNT_FORM, FORM_OBJECT, KIND, MATRIX, FONT_SIZE, FONT,
       RENDER_MODE, FILL, STROKE, FUNCTIONS };
#define TEXT_KIND 1
#define FORM_KIND 5

typedef struct {
    void *holder;
    int count, depth;
    double scale;
} Holder;

typedef struct {
    uint64_t *addresses;
    int32_t *modes;
    uint64_t *keys; /* render mode and colours packed (look_key) */
    double *sizes;
    Py_ssize_t size, capacity;
    int packed; /* 0 when a mode or colour did not fit its key */
} Looks;

static int looks_grow(Looks *looks) {
    Py_ssize_t capacity = looks->capacity ? 2 * looks->capacity : 256;
    uint64_t *addresses = realloc(looks->addresses, sizeof(uint64_t) * (size_t)capacity);
    if (addresses) looks->addresses = addresses;
    int32_t *modes = realloc(looks->modes, sizeof(int32_t) * (size_t)capacity);
    if (modes) looks->modes = modes;
    uint64_t *keys = realloc(looks->keys, sizeof(uint64_t) * (size_t)capacity);
    if (keys) looks->keys = keys;
    double *sizes = realloc(looks->sizes, sizeof(double) * (size_t)capacity);
    if (sizes) looks->sizes = sizes;
    if (!addresses || !modes || !keys || !sizes) return 0;
    looks->capacity = capacity;
    return 1;
}

/* A text object's render mode and colours in one number: mode + 1 in bits 48-55, whether
 * the fill and the stroke colour are given in bits 57 and 56, their red, green and blue
 * (0-255, as PDFium gives them) in bits 40-47, 32-39, 24-31 and 16-23, 8-15, 0-7. */
static uint64_t look_key(int mode, int fill, const unsigned *fill_rgb, int stroke,
                         const unsigned *stroke_rgb, Looks *looks) {
    if (mode < -1 || mode > 254) looks->packed = 0;
    uint64_t key = (uint64_t)((mode + 1) & 0xff) << 48 | (uint64_t)fill << 57 |
                   (uint64_t)stroke << 56;
    for (int c = 0; c < 3; c++) {
        if (fill_rgb[c] > 255 || stroke_rgb[c] > 255) looks->packed = 0;
        key |= (uint64_t)(fill_rgb[c] & 0xff) << (40 - 8 * c);
        key |= (uint64_t)(stroke_rgb[c] & 0xff) << (16 - 8 * c);
    }
    return key;
}

/* 1 complete, 0 ended early, -1 out of memory */
static int walk_text_objects(void *page, void *const *f, int max_depth, Looks *looks) {
    Holder *stack = NULL;
    int size = 0, capacity = 0, result = -1;
    Holder first = {page, ((int (*)(void *))f[COUNT_PAGE])(page), 0, 1.0};
    capacity = 16;
    stack = malloc(sizeof(Holder) * (size_t)capacity);
    if (!stack) return -1;
    stack[size++] = first;
    while (size) {
        Holder h = stack[--size];
        if (h.depth > max_depth) {
            result = 0;
            goto done;
        }
        for (int index = 0; index < h.count; index++) {
            void *obj = h.depth ? ((void *(*)(void *, unsigned long))f[FORM_OBJECT])(
                                      h.holder, (unsigned long)index)
                                : ((void *(*)(void *, int))f[PAGE_OBJECT])(h.holder, index);
            int kind = ((int (*)(void *))f[KIND])(obj);
            if (kind != TEXT_KIND && kind != FORM_KIND) continue;
            Matrix m;
            if (!(((int (*)(void *, Matrix *))f[MATRIX])(obj, &m) && m.b == 0 && m.c == 0 &&
                  0 < m.a && m.a < INFINITY && -INFINITY < m.d && m.d < INFINITY)) {
                result = 0;
                goto done;
            }
            if (kind == FORM_KIND) {
                if (size == capacity) {
                    Holder *grown = realloc(stack, sizeof(Holder) * (size_t)(2 * capacity));
                    if (!grown) goto done;
                    stack = grown;
                    capacity *= 2;
                }
                Holder form = {obj, ((int (*)(void *))f[COUNT_FORM])(obj), h.depth + 1,
                               h.scale * fabs((double)m.d)};
                stack[size++] = form;
                continue;
            }
            int mode = ((int (*)(void *))f[RENDER_MODE])(obj);
            float font_size = 1.0f;
            if (((void *(*)(void *))f[FONT])(obj) &&
                !((int (*)(void *, float *))f[FONT_SIZE])(obj, &font_size)) {
                result = 0;
                goto done;
            }
            if (looks->size == looks->capacity && !looks_grow(looks)) goto done;
            Py_ssize_t k = looks->size++;
            unsigned rgba[8] = {0};
            typedef int (*colour_call)(void *, unsigned *, unsigned *, unsigned *, unsigned *);
            int fill = ((colour_call)f[FILL])(obj, &rgba[0], &rgba[1], &rgba[2], &rgba[3]);
            int stroke = ((colour_call)f[STROKE])(obj, &rgba[4], &rgba[5], &rgba[6], &rgba[7]);
            looks->keys[k] = look_key(mode, fill != 0, rgba, stroke != 0, rgba + 4, looks);
            looks->addresses[k] = (uint64_t)(uintptr_t)obj;
            looks->modes[k] = mode;
            looks->sizes[k] = (double)font_size * fabs((double)m.d) * h.scale;
        }
    }
    result = 1;
done:
    free(stack);
    return result;
}

/* The `count` function addresses of a tuple of ints into f: 1, or 0 with an error set. */
static int function_addresses(PyObject *functions, void **f, int count) {
    if (PyTuple_GET_SIZE(functions) != count) {
        PyErr_Format(PyExc_ValueError, "not the %d functions", count);
        return 0;
    }
    for (int k = 0; k < count; k++) {
        f[k] = PyLong_AsVoidPtr(PyTuple_GET_ITEM(functions, k));
        if (!f[k]) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a function is missing");
            return 0;
        }
    }
    return 1;
}

/* bytes of a buffer that is NULL when empty (Py_BuildValue's y# would give None) */
static PyObject *bytes_of(const void *buffer, Py_ssize_t length) {
    return PyBytes_FromStringAndSize(length ? buffer : "", length);
}

PyDoc_STRVAR(text_objects_doc,
             "text_objects(page, functions, max_depth): (addresses uint64, render modes "
             "int32, font sizes as drawn float64, look keys uint64: render mode and colours) "
             "of the page's text objects as bytes, in the Python twin's order; whether the "
             "walk went to the end; whether every mode and colour fit its key.");

static PyObject *text_objects(PyObject *self, PyObject *args) {
    unsigned long long page;
    PyObject *functions;
    int max_depth;
    void *f[FUNCTIONS];
    if (!PyArg_ParseTuple(args, "KO!i", &page, &PyTuple_Type, &functions, &max_depth))
        return NULL;
    if (!page || !function_addresses(functions, f, FUNCTIONS)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "no page");
        return NULL;
    }
    Looks looks = {NULL, NULL, NULL, NULL, 0, 0, 1};
    int walked = walk_text_objects((void *)(uintptr_t)page, f, max_depth, &looks);
    PyObject *result = NULL;
    if (walked < 0) {
        PyErr_NoMemory();
    } else {
        Py_ssize_t n = looks.size;
        result = Py_BuildValue("NNNNOO", bytes_of(looks.addresses, n * 8),
                               bytes_of(looks.modes, n * 4), bytes_of(looks.sizes, n * 8),
                               bytes_of(looks.keys, n * 8), walked ? Py_True : Py_False,
                               looks.packed ? Py_True : Py_False);
    }
    free(looks.addresses);
    free(looks.modes);
    free(looks.keys);
    free(looks.sizes);
    return result;
}

/* ---- pdfium._drawn_chars' calls per character, in one loop ----
 * The code points as _unicodes reads them (the page's text in one call where it is one
 * UTF-16 unit a character, a character's own value at U+FFFE; else one at a time), which
 * are whitespace (str.isspace) and which glyphs (printable, not whitespace) as _kinds
 * tells them, the characters kept (not a space PDFium generated), whether a glyph has no
 * Unicode value, and the kept characters' loose boxes. */

enum { COUNT_CHARS, GET_TEXT, GET_UNICODE, IS_GENERATED, MAP_ERROR, LOOSE_BOX, CHAR_CALLS };

PyDoc_STRVAR(drawn_chars_doc,
             "drawn_chars(textpage, functions): (code points uint32, whether whitespace "
             "bool, indices int32, boxes float64 as left, bottom, right and top rows) of the "
             "characters kept, as bytes, and whether a glyph lacks a Unicode value; None "
             "when a code point is beyond Unicode (the Python twin tells it).");

static PyObject *drawn_chars(PyObject *self, PyObject *args) {
    unsigned long long page;
    PyObject *functions;
    void *f[CHAR_CALLS];
    if (!PyArg_ParseTuple(args, "KO!", &page, &PyTuple_Type, &functions)) return NULL;
    if (!page || !function_addresses(functions, f, CHAR_CALLS)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "no text page");
        return NULL;
    }
    void *textpage = (void *)(uintptr_t)page;
    int count = ((int (*)(void *))f[COUNT_CHARS])(textpage);
    if (count < 0) count = 0;
    size_t n = (size_t)count;
    unsigned short *units = malloc(sizeof(unsigned short) * (n + 1));
    uint32_t *codes = malloc(sizeof(uint32_t) * (n + 1));
    char *spaces = malloc(n + 1);
    int32_t *kept = malloc(sizeof(int32_t) * (n + 1));
    float *rect = malloc(sizeof(float) * 4 * (n + 1));
    double *boxes = malloc(sizeof(double) * 4 * (n + 1));
    PyObject *result = NULL;
    if (!units || !codes || !spaces || !kept || !rect || !boxes) {
        PyErr_NoMemory();
        goto done;
    }
    int written = count ? ((int (*)(void *, int, int, unsigned short *))f[GET_TEXT])(
                              textpage, 0, count, units)
                        : 0;
    int whole = written == count + 1;
    for (int i = 0; i < count && whole; i++)
        whole = units[i] < 0xD800 || units[i] > 0xDFFF;
    typedef unsigned (*unicode_call)(void *, int);
    for (int i = 0; i < count; i++) {
        codes[i] = whole && units[i] != 0xFFFE ? units[i]
                                               : ((unicode_call)f[GET_UNICODE])(textpage, i);
        if (codes[i] > 0x10FFFF) {
            result = Py_NewRef(Py_None);
            goto done;
        }
    }
    int m = 0, unmapped = 0;
    for (int i = 0; i < count; i++) {
        int space = Py_UNICODE_ISSPACE(codes[i]);
        if (space && ((int_call)f[IS_GENERATED])(textpage, i) != 0) continue;
        if (!space && !unmapped && Py_UNICODE_ISPRINTABLE(codes[i]))
            unmapped = ((int_call)f[MAP_ERROR])(textpage, i) != 0;
        codes[m] = codes[i];
        spaces[m] = (char)space;
        kept[m++] = i;
    }
    memset(rect, 0, sizeof(float) * 4 * (size_t)m);
    for (int k = 0; k < m; k++) ((rect_call)f[LOOSE_BOX])(textpage, kept[k], rect + 4 * k);
    for (int k = 0; k < m; k++) { /* FS_RECTF is left, top, right, bottom */
        boxes[k] = rect[4 * k];
        boxes[m + k] = rect[4 * k + 3];
        boxes[2 * m + k] = rect[4 * k + 2];
        boxes[3 * m + k] = rect[4 * k + 1];
    }
    result = Py_BuildValue("NNNNO", bytes_of(codes, 4 * (Py_ssize_t)m),
                           bytes_of(spaces, (Py_ssize_t)m), bytes_of(kept, 4 * (Py_ssize_t)m),
                           bytes_of(boxes, 32 * (Py_ssize_t)m), unmapped ? Py_True : Py_False);
done:
    free(units);
    free(codes);
    free(spaces);
    free(kept);
    free(rect);
    free(boxes);
    return result;
}


/* ---- pdf_layout.page_texts: a page's characters to its text boxes, in reading order ----
 * The steps of the Python (visual_lines, line_boxes, boxes_in_order, the runs of one size)
 * and its floating-point operations in the same order, for pages of finite characters of
 * moderate size (|value| <= MAX_VALUE) on a page of such numbers; any other page goes to
 * the Python. Sorts that are stable in Python sort here by (key, place). */

typedef struct {
    double key;
    int place, item;
} Keyed;

static int keyed_compare(const void *a, const void *b) {
    const Keyed *p = a, *q = b;
    if (p->key != q->key) return p->key < q->key ? -1 : 1;
    return (p->place > q->place) - (p->place < q->place);
}

/* items[0..n) sorted stably by keys[item] (ascending, or descending when `descending`) */
static void sort_by(int *items, int n, const double *keys, int descending, Keyed *work) {
    int sorted = 1; /* most often they are: a look costs less than a sort */
    for (int m = 1; m < n && sorted; m++)
        sorted = descending ? keys[items[m - 1]] >= keys[items[m]]
                            : keys[items[m - 1]] <= keys[items[m]];
    if (sorted) return;
    for (int m = 0; m < n; m++) {
        work[m].key = descending ? -keys[items[m]] : keys[items[m]];
        work[m].place = m;
        work[m].item = items[m];
    }
    qsort(work, (size_t)n, sizeof(Keyed), keyed_compare);
    for (int m = 0; m < n; m++) items[m] = work[m].item;
}

static int is_cjk(Py_UCS4 c) { /* pdf_text.CJK_RANGES */
    return (c >= 0x3000 && c <= 0x303F) || (c >= 0x3400 && c <= 0x9FFF) ||
           (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFF00 && c <= 0xFFEF);
}

typedef struct {
    const double *x0, *y0, *x1, *y1;
    Py_UCS4 *codes;
    char *cjk;
    int n;
} PageChars;

/* Lines as the Python's Line tuples: boxes as x0, y0, x1, y1 rows of `capacity`, texts in
 * one buffer (spaces in), line k's at text[at[k]..at[k] + length[k]). */
typedef struct {
    double *x0, *y0, *x1, *y1;
    Py_ssize_t *at, *length;
    int count;
    Py_UCS4 *text;
    Py_ssize_t size;
} Lines;

static int lines_init(Lines *lines, int capacity, Py_ssize_t text_capacity) {
    memset(lines, 0, sizeof(Lines));
    lines->x0 = malloc(sizeof(double) * 4 * (size_t)capacity);
    lines->at = malloc(sizeof(Py_ssize_t) * 2 * (size_t)capacity);
    lines->text = malloc(sizeof(Py_UCS4) * (size_t)text_capacity);
    if (!lines->x0 || !lines->at || !lines->text) return 0;
    lines->y0 = lines->x0 + capacity;
    lines->x1 = lines->x0 + 2 * capacity;
    lines->y1 = lines->x0 + 3 * capacity;
    lines->length = lines->at + capacity;
    return 1;
}

static void lines_free(Lines *lines) {
    free(lines->x0);
    free(lines->at);
    free(lines->text);
}

/* a line of the other's line k, box and text */
static void copy_line(Lines *to, const Lines *from, int k) {
    int m = to->count++;
    to->x0[m] = from->x0[k];
    to->y0[m] = from->y0[k];
    to->x1[m] = from->x1[k];
    to->y1[m] = from->y1[k];
    to->at[m] = to->size;
    to->length[m] = from->length[k];
    memcpy(to->text + to->size, from->text + from->at[k], sizeof(Py_UCS4) * (size_t)from->length[k]);
    to->size += from->length[k];
}

/* char_pairs and the lines of runs of characters each aligned with the next (pdfminer's
 * lines), their spaces as visual_lines puts them; `ltr[k]` whether line k's characters
 * come left to right, `starts` where each begins (count + 1 of them). */
static void pdfminer_lines(const PageChars *c, const double *p, Lines *out, char *ltr,
                           int *starts) {
    const double *x0 = c->x0, *y0 = c->y0, *x1 = c->x1, *y1 = c->y1;
    double line_overlap = p[0], char_margin = p[1], word_margin = p[2];
    int n = c->n, count = 0;
    starts[0] = 0;
    int line_cjk = 0, line_start = 0;
    for (int k = 0; k < n; k++) {
        line_cjk |= c->cjk[k];
        int a = k, b = k + 1, breaks = 1;
        if (b < n) {
            double wa = x1[a] - x0[a], wb = x1[b] - x0[b];
            double ha = y1[a] - y0[a], hb = y1[b] - y0[b];
            int apart = !(x0[a] <= x1[b] && x0[b] <= x1[a]);
            double g1 = fabs(x0[a] - x1[b]), g2 = fabs(x1[a] - x0[b]);
            double gap = apart ? (g1 <= g2 ? g1 : g2) : 0.0;
            double o1 = fabs(y0[a] - y1[b]), o2 = fabs(y1[a] - y0[b]);
            breaks = !(y0[b] <= y1[a] && y0[a] <= y1[b] &&
                       (ha <= hb ? ha : hb) * line_overlap < (o1 <= o2 ? o1 : o2) &&
                       gap < (wa >= wb ? wa : wb) * char_margin);
        }
        if (!breaks) continue;
        /* the line line_start..k */
        int m = count++;
        out->at[m] = out->size;
        out->x0[m] = INFINITY;
        out->y0[m] = INFINITY;
        out->x1[m] = -INFINITY;
        out->y1[m] = -INFINITY;
        ltr[m] = 1;
        for (int i = line_start; i <= k; i++) {
            if (i > line_start) {
                if (x0[i] < x0[i - 1]) ltr[m] = 0;
                double w = x1[i] - x0[i], h = y1[i] - y0[i];
                if (word_margin != 0 && x1[i - 1] < x0[i] - word_margin * (w >= h ? w : h) &&
                    !(line_cjk && (c->cjk[i - 1] || c->cjk[i])))
                    out->text[out->size++] = ' ';
            }
            out->text[out->size++] = c->codes[i];
            if (x0[i] < out->x0[m]) out->x0[m] = x0[i];
            if (y0[i] < out->y0[m]) out->y0[m] = y0[i];
            if (x1[i] > out->x1[m]) out->x1[m] = x1[i];
            if (y1[i] > out->y1[m]) out->y1[m] = y1[i];
        }
        out->length[m] = out->size - out->at[m];
        starts[count] = k + 1;
        line_start = k + 1;
        line_cjk = 0;
    }
    out->count = count;
}

typedef struct {
    int at, size, first; /* order[at..at + size): its lines; `first` the least of them */
} Group;

static int group_compare(const void *a, const void *b) {
    const Group *p = a, *q = b;
    return (p->first > q->first) - (p->first < q->first);
}

/* `_touching` of the row order[at..at + size): its runs written as groups */
static int touching(int *order, int at, int size, const Lines *lines, Keyed *work,
                    Group *groups, int count) {
    int *row = order + at;
    sort_by(row, size, lines->x0, 0, work);
    double right = 0.0;
    int start = 0;
    for (int m = 0; m < size; m++) {
        int i = row[m];
        if (m > start && lines->x0[i] - right > 0.6 * (lines->y1[i] - lines->y0[i])) {
            Group g = {at + start, m - start, 0};
            groups[count++] = g;
            start = m;
        }
        right = m > start ? (right >= lines->x1[i] ? right : lines->x1[i]) : lines->x1[i];
    }
    Group g = {at + start, size - start, 0};
    groups[count++] = g;
    return count;
}

/* `_fragment_groups`: groups of the lines to merge, each left to right, in first-drawn
 * order; `order` (count lines) holds their members. Returns how many groups. */
static int fragment_groups(const Lines *lines, int *order, Keyed *work, Group *groups) {
    int n = lines->count, count = 0, row = 0;
    const double *y0 = lines->y0, *y1 = lines->y1;
    for (int i = 0; i < n; i++) order[i] = i;
    sort_by(order, n, y1, 1, work);
    for (int m = 0; m < n; m++) {
        int i = order[m];
        if (m > row) {
            int f = order[row];
            double overlap = 0;
            if (y0[i] <= y1[f] && y0[f] <= y1[i]) {
                double o1 = fabs(y0[f] - y1[i]), o2 = fabs(y1[f] - y0[i]);
                overlap = o1 <= o2 ? o1 : o2;
            }
            double hf = y1[f] - y0[f], hi = y1[i] - y0[i];
            if (overlap <= 0.5 * (hf <= hi ? hf : hi)) {
                count = touching(order, row, m - row, lines, work, groups, count);
                row = m;
            }
        }
    }
    if (n > row) count = touching(order, row, n - row, lines, work, groups, count);
    for (int g = 0; g < count; g++) {
        int first = order[groups[g].at];
        for (int s = 1; s < groups[g].size; s++)
            if (order[groups[g].at + s] < first) first = order[groups[g].at + s];
        groups[g].first = first;
    }
    qsort(groups, (size_t)count, sizeof(Group), group_compare);
    return count;
}

/* `_one_line` of the characters at[0..m): sorted by x0, one printed twice over itself
 * dropped, pdfminer's spaces but beside CJK on a line with CJK; added to `out`. */
static void one_line(const PageChars *c, int *at, int m, double word_margin, Keyed *work,
                     Lines *out) {
    const double *x0 = c->x0, *y0 = c->y0, *x1 = c->x1, *y1 = c->y1;
    sort_by(at, m, x0, 0, work);
    int kept = 0;
    for (int s = 0; s < m; s++) {
        int k = at[s];
        if (kept) {
            int j = at[kept - 1];
            double d1 = fabs(y0[j] - y1[k]), d2 = fabs(y1[j] - y0[k]);
            if (c->codes[j] == c->codes[k] && fabs(x0[j] - x0[k]) < 0.5 * (x1[j] - x0[j]) &&
                y0[k] <= y1[j] && y0[j] <= y1[k] && (d1 <= d2 ? d1 : d2) > 0)
                continue;
        }
        at[kept++] = k;
    }
    int any_cjk = 0;
    for (int s = 0; s < kept; s++) any_cjk |= c->cjk[at[s]];
    int line = out->count++;
    out->at[line] = out->size;
    out->x0[line] = PDFMINER_INF;
    out->y0[line] = PDFMINER_INF;
    out->x1[line] = -PDFMINER_INF;
    out->y1[line] = -PDFMINER_INF;
    double right = PDFMINER_INF; /* a space before a first character beyond it */
    for (int s = 0; s < kept; s++) {
        int k = at[s];
        if (word_margin != 0) {
            double w = x1[k] - x0[k], h = y1[k] - y0[k];
            double margin = word_margin * (w >= h ? w : h);
            int beside_cjk = any_cjk && ((s > 0 && c->cjk[at[s - 1]]) || c->cjk[k]);
            if (right < x0[k] - margin && !beside_cjk) out->text[out->size++] = ' ';
        }
        right = x1[k];
        out->text[out->size++] = c->codes[k];
        if (x0[k] < out->x0[line]) out->x0[line] = x0[k];
        if (y0[k] < out->y0[line]) out->y0[line] = y0[k];
        if (x1[k] > out->x1[line]) out->x1[line] = x1[k];
        if (y1[k] > out->y1[line]) out->y1[line] = y1[k];
    }
    out->length[line] = out->size - out->at[line];
}

/* `visual_lines` without the empty ones (`_empty_line`): 1, or -1 out of memory */
static int visual_lines(const PageChars *c, const double *p, Lines *out) {
    int n = c->n, result = -1;
    Lines drawn = {0}, merged = {0};
    char *ltr = malloc((size_t)n);
    int *starts = malloc(sizeof(int) * ((size_t)n + 1));
    int *order = malloc(sizeof(int) * (size_t)n);
    int *at = malloc(sizeof(int) * (size_t)n);
    Keyed *work = malloc(sizeof(Keyed) * (size_t)n);
    Group *groups = malloc(sizeof(Group) * (size_t)n);
    int made = lines_init(&drawn, n, 2 * (Py_ssize_t)n) && lines_init(&merged, n, 2 * (Py_ssize_t)n);
    if (!made || !ltr || !starts || !order || !at || !work || !groups) goto done;
    pdfminer_lines(c, p, &drawn, ltr, starts);
    int count = fragment_groups(&drawn, order, work, groups);
    for (int g = 0; g < count; g++) {
        const int *members = order + groups[g].at;
        int size = groups[g].size;
        if (size == 1 && ltr[members[0]]) {
            copy_line(&merged, &drawn, members[0]);
            continue;
        }
        int m = 0;
        for (int s = 0; s < size; s++)
            for (int k = starts[members[s]]; k < starts[members[s] + 1]; k++) at[m++] = k;
        one_line(c, at, m, p[2], work, &merged);
    }
    out->count = 0;
    out->size = 0;
    for (int k = 0; k < merged.count; k++) {
        if (merged.x1[k] - merged.x0[k] <= 0 || merged.y1[k] - merged.y0[k] <= 0) continue;
        int blank = 1;
        for (Py_ssize_t s = 0; s < merged.length[k] && blank; s++)
            blank = Py_UNICODE_ISSPACE(merged.text[merged.at[k] + s]);
        if (!blank) copy_line(out, &merged, k);
    }
    result = 1;
done:
    lines_free(&drawn);
    lines_free(&merged);
    free(ltr);
    free(starts);
    free(order);
    free(at);
    free(work);
    free(groups);
    return result;
}

/* LTTextGroupLRTB's key of a box (x0, y0, x1, y1): its members in ascending order */
static double flow_key(const double *r, double flow) {
    return (1 - flow) * r[0] - (1 + flow) * (r[1] + r[3]);
}

/* The boxes' texts in reading order, each box's lines top to bottom in runs of one size
 * (`_box_text` before its strip), appended to `texts`: 1, 0 when the page needs the
 * Python, -1 out of memory or a Python error. */
static int box_texts_of(const Lines *lines, const double *page, const double *p,
                        PyObject *texts) {
    int n = lines->count, result = -1;
    double line_margin = p[3], boxes_flow = p[4];
    double *rows = malloc(sizeof(double) * 4 * (size_t)n);
    int32_t *members = malloc(sizeof(int32_t) * (size_t)n);
    int32_t *starts = malloc(sizeof(int32_t) * ((size_t)n + 1));
    double *rects = malloc(sizeof(double) * 4 * (2 * (size_t)n));
    int *kept = malloc(sizeof(int) * (size_t)n);
    int32_t *merges = malloc(sizeof(int32_t) * 2 * (size_t)n);
    int *pairs = malloc(sizeof(int) * 2 * (size_t)n);
    int *stack = malloc(sizeof(int) * 2 * (size_t)n);
    int *run = malloc(sizeof(int) * (size_t)n);
    Keyed *work = malloc(sizeof(Keyed) * (size_t)n);
    Py_UCS4 *joined = malloc(sizeof(Py_UCS4) * ((size_t)lines->size + (size_t)n));
    if (!rows || !members || !starts || !rects || !kept || !merges || !pairs || !stack || !run ||
        !work || !joined)
        goto done;
    memcpy(rows, lines->x0, sizeof(double) * (size_t)n); /* x0, y0, x1, y1 rows of n */
    memcpy(rows + n, lines->y0, sizeof(double) * (size_t)n);
    memcpy(rows + 2 * n, lines->x1, sizeof(double) * (size_t)n);
    memcpy(rows + 3 * n, lines->y1, sizeof(double) * (size_t)n);
    int count = group_lines(rows, n, page, line_margin, members, starts);
    if (count <= 0) {
        result = count;
        goto done;
    }
    int boxes = 0;
    for (int b = 0; b < count; b++) { /* box_rect, and the empty boxes left out */
        double x0 = PDFMINER_INF, y0 = PDFMINER_INF, x1 = -PDFMINER_INF, y1 = -PDFMINER_INF;
        for (int s = starts[b]; s < starts[b + 1]; s++) {
            int i = members[s];
            if (lines->x0[i] < x0) x0 = lines->x0[i];
            if (lines->y0[i] < y0) y0 = lines->y0[i];
            if (lines->x1[i] > x1) x1 = lines->x1[i];
            if (lines->y1[i] > y1) y1 = lines->y1[i];
        }
        if (x1 - x0 <= 0 || y1 - y0 <= 0) continue;
        double *r = rects + 4 * boxes;
        r[0] = x0, r[1] = y0, r[2] = x1, r[3] = y1;
        kept[boxes++] = b;
    }
    int depth = 0;
    if (boxes == 1) stack[depth++] = 0;
    if (boxes > MAX_GROUPED_BOXES) { /* stable by flow_key: `run` and rects' tail as room */
        double *keys = rects + 4 * boxes;
        for (int b = 0; b < boxes; b++) {
            keys[b] = flow_key(rects + 4 * b, boxes_flow);
            run[b] = b;
        }
        sort_by(run, boxes, keys, 0, work);
        for (int b = boxes - 1; b >= 0; b--) stack[depth++] = run[b];
    } else if (boxes >= 2) { /* boxes_in_order */
        int made = merge_groups(rects, boxes, page, merges);
        if (made <= 0) {
            result = made;
            goto done;
        }
        for (int m = 0; m < boxes - 1; m++) {
            int i = merges[2 * m], j = merges[2 * m + 1];
            const double *a = rects + 4 * i, *b = rects + 4 * j;
            double key_a = flow_key(a, boxes_flow), key_b = flow_key(b, boxes_flow);
            pairs[2 * m] = key_b < key_a ? j : i;
            pairs[2 * m + 1] = key_b < key_a ? i : j;
            double *g = rects + 4 * (boxes + m);
            g[0] = a[0] <= b[0] ? a[0] : b[0]; /* min() and max() give the first of equals */
            g[1] = a[1] <= b[1] ? a[1] : b[1];
            g[2] = a[2] >= b[2] ? a[2] : b[2];
            g[3] = a[3] >= b[3] ? a[3] : b[3];
        }
        stack[depth++] = 2 * boxes - 2;
    }
    while (depth) {
        int item = stack[--depth];
        if (item >= boxes) {
            stack[depth++] = pairs[2 * (item - boxes) + 1];
            stack[depth++] = pairs[2 * (item - boxes)];
            continue;
        }
        int b = kept[item], size = starts[b + 1] - starts[b];
        memcpy(run, members + starts[b], sizeof(int) * (size_t)size);
        sort_by(run, size, lines->y1, 1, work); /* LTTextBoxHorizontal.analyze */
        Py_ssize_t length = 0;
        for (int s = 0; s < size; s++) {
            int i = run[s];
            if (s) {
                int h = run[s - 1];
                double a = lines->y1[h] - lines->y0[h], c = lines->y1[i] - lines->y0[i];
                if (!((a >= c ? a : c) <= 1.15 * (a <= c ? a : c))) { /* _same_size */
                    PyObject *text = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, joined, length);
                    if (!text || PyList_Append(texts, text) < 0) {
                        Py_XDECREF(text);
                        goto done;
                    }
                    Py_DECREF(text);
                    length = 0;
                }
            }
            memcpy(joined + length, lines->text + lines->at[i], sizeof(Py_UCS4) * (size_t)lines->length[i]);
            length += lines->length[i];
            joined[length++] = '\n';
        }
        PyObject *text = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, joined, length);
        if (!text || PyList_Append(texts, text) < 0) {
            Py_XDECREF(text);
            goto done;
        }
        Py_DECREF(text);
    }
    result = 1;
done:
    free(rows);
    free(members);
    free(starts);
    free(rects);
    free(kept);
    free(merges);
    free(pairs);
    free(stack);
    free(run);
    free(work);
    free(joined);
    return result;
}

PyDoc_STRVAR(page_texts_doc,
             "page_texts(text, bounds, left, bottom, right, top, line_overlap, char_margin, "
             "word_margin, line_margin, boxes_flow): the text of each text box of the "
             "page, in reading order, split where the font size changes, lines ended by "
             "'\\n', not stripped (pdf_layout._run_texts); bounds: "
             "float64 x0, y0, x1, y1 rows of the text's characters. None when the page "
             "needs the Python (values not finite or too large).");

static PyObject *page_texts(PyObject *self, PyObject *args) {
    PyObject *text;
    Py_buffer bounds;
    double page[4], p[5];
    if (!PyArg_ParseTuple(args, "Uy*ddddddddd", &text, &bounds, &page[0], &page[1], &page[2],
                          &page[3], &p[0], &p[1], &p[2], &p[3], &p[4]))
        return NULL;
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    PyObject *texts = NULL;
    PageChars c = {NULL, NULL, NULL, NULL, NULL, NULL, (int)n};
    Lines lines = {0};
    int result = 0;
    if (bounds.len != n * 4 * (Py_ssize_t)sizeof(double) || n > 10000000) {
        PyErr_SetString(PyExc_ValueError, "bounds are not 4 rows of the text's length");
        goto done;
    }
    texts = PyList_New(0);
    if (!texts || n == 0) goto done;
    const double *rows = bounds.buf;
    for (Py_ssize_t k = 0; k < 4 * n; k++)
        if (!(fabs(rows[k]) <= MAX_VALUE)) goto done; /* the Python's page */
    for (int k = 0; k < 4; k++)
        if (!(fabs(page[k]) <= MAX_VALUE)) goto done;
    c.x0 = rows, c.y0 = rows + n, c.x1 = rows + 2 * n, c.y1 = rows + 3 * n;
    c.codes = PyUnicode_AsUCS4Copy(text);
    c.cjk = malloc((size_t)n);
    if (!c.codes || !c.cjk || !lines_init(&lines, (int)n, 2 * n)) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < n; k++) c.cjk[k] = (char)is_cjk(c.codes[k]);
    PyThreadState *save = n >= NOGIL_ITEMS ? PyEval_SaveThread() : NULL;
    result = visual_lines(&c, p, &lines); /* pure C: `text` was copied to c.codes */
    if (save) PyEval_RestoreThread(save);
    if (result > 0 && lines.count) result = box_texts_of(&lines, page, p, texts);
    if (result < 0 && !PyErr_Occurred()) PyErr_NoMemory();
done:
    PyBuffer_Release(&bounds);
    PyMem_Free(c.codes);
    free(c.cjk);
    lines_free(&lines);
    if (PyErr_Occurred()) {
        Py_XDECREF(texts);
        return NULL;
    }
    if (result == 0 && n > 0) {
        Py_XDECREF(texts);
        Py_RETURN_NONE;
    }
    return texts;
}

static PyMethodDef methods[] = {
    {"ints", ints, METH_VARARGS, ints_doc},
    {"pointers", pointers, METH_VARARGS, pointers_doc},
    {"rects", rects, METH_VARARGS, rects_doc},
    {"group_merges", group_merges, METH_VARARGS, group_merges_doc},
    {"text_objects", text_objects, METH_VARARGS, text_objects_doc},
    {"line_boxes", line_boxes, METH_VARARGS, line_boxes_doc},
    {"page_texts", page_texts, METH_VARARGS, page_texts_doc},
    {"drawn_chars", drawn_chars, METH_VARARGS, drawn_chars_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "pdf_loops",
    "The PDF reader's inner loops in C (see pdfium.py and pdf_layout.py).", -1, methods,
};

PyMODINIT_FUNC PyInit_pdf_loops(void) {
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddIntConstant(m, "MAX_GROUPED_BOXES", MAX_GROUPED_BOXES) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
