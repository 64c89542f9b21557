/* The tokenizer's inner loop in C: the tokens tokens._TOKEN_RUN finds (for text without
 * Chinese characters _LATIN_TOKEN, for ASCII text _ASCII_TOKEN: the same tokens), runs of
 * Chinese characters cut into words by the segmenter it is handed, every token hashed
 * through the dict of remembered hashes, with its digit flag, in one pass and without a
 * list of tokens or a match object. Its Python twin is the regular expression path of
 * tokens._append_tokens, used where this module is not built; tests hold the two to the
 * same answers.
 *
 * The character classes are the re module's for str patterns: \d is Py_UNICODE_ISDECIMAL,
 * \w is Py_UNICODE_ISALNUM or '_'. A letter is [^\W\d_] less the CJK ranges of
 * tokens._CJK; a token is a run of CJK characters, digits joined by single separators among
 * .,:/- , or letters joined by single apostrophes (' or U+2019), as the patterns' greedy
 * repeats match them. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

static int is_cjk(Py_UCS4 c) { /* tokens._CJK */
    return (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x4E00 && c <= 0x9FFF) ||
           (c >= 0xF900 && c <= 0xFAFF);
}

static int is_digit(Py_UCS4 c) { return Py_UNICODE_ISDECIMAL(c); }

static int is_letter(Py_UCS4 c) {
    return c != '_' && Py_UNICODE_ISALNUM(c) && !Py_UNICODE_ISDECIMAL(c) && !is_cjk(c);
}

static int is_separator(Py_UCS4 c) {
    return c == '.' || c == ',' || c == ':' || c == '/' || c == '-';
}

static int is_apostrophe(Py_UCS4 c) { return c == '\'' || c == 0x2019; }

typedef int (*char_class)(Py_UCS4);

/* Where the token starting at `at` ends: members, then (a joiner and members) as often as
 * they follow: `m+(?:jm+)*`, greedy, as the patterns match it. */
static Py_ssize_t joined_run_end(int kind, const void *data, Py_ssize_t n, Py_ssize_t at,
                                 char_class member, char_class joiner) {
    while (at < n && member(PyUnicode_READ(kind, data, at))) at++;
    while (at + 1 < n && joiner(PyUnicode_READ(kind, data, at)) &&
           member(PyUnicode_READ(kind, data, at + 1))) {
        at += 2;
        while (at < n && member(PyUnicode_READ(kind, data, at))) at++;
    }
    return at;
}

typedef struct {
    uint64_t *hashes;
    char *digits;
    Py_ssize_t size, capacity;
} Found;

static int found_add(Found *found, uint64_t hash, char digit) {
    if (found->size == found->capacity) {
        Py_ssize_t capacity = found->capacity ? 2 * found->capacity : 256;
        uint64_t *hashes = PyMem_Realloc(found->hashes, sizeof(uint64_t) * (size_t)capacity);
        if (!hashes) return 0;
        found->hashes = hashes;
        char *digits = PyMem_Realloc(found->digits, (size_t)capacity);
        if (!digits) return 0;
        found->digits = digits;
        found->capacity = capacity;
    }
    found->hashes[found->size] = hash;
    found->digits[found->size++] = digit;
    return 1;
}

/* the remembered hash of a token, asked of the dict (its __missing__ computes it) */
static int token_hash(PyObject *token, PyObject *memo, uint64_t *hash) {
    PyObject *value = PyDict_GetItemWithError(memo, token); /* borrowed */
    PyObject *made = NULL;
    if (!value && !PyErr_Occurred()) value = made = PyObject_GetItem(memo, token);
    if (!value) return 0;
    *hash = PyLong_AsUnsignedLongLong(value);
    Py_XDECREF(made);
    return !(*hash == (uint64_t)-1 && PyErr_Occurred());
}

/* text[start:end] as a token: its hash added with its digit flag */
static int add_token(PyObject *text, Py_ssize_t start, Py_ssize_t end, char digit,
                     PyObject *memo, Found *found) {
    PyObject *token = PyUnicode_Substring(text, start, end);
    if (!token) return 0;
    uint64_t hash;
    int done = token_hash(token, memo, &hash);
    Py_DECREF(token);
    return done && found_add(found, hash, digit);
}

/* the words `cut` gives of the Chinese run text[start:end], each added (not digits) */
static int add_words(PyObject *text, Py_ssize_t start, Py_ssize_t end, PyObject *cut,
                     PyObject *memo, Found *found) {
    PyObject *run = PyUnicode_Substring(text, start, end);
    if (!run) return 0;
    PyObject *words = PyObject_CallOneArg(cut, run);
    Py_DECREF(run);
    if (!words) return 0;
    PyObject *seq = PySequence_Fast(words, "the cut must give a sequence of words");
    Py_DECREF(words);
    if (!seq) return 0;
    int done = 1;
    for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(seq) && done; k++) {
        uint64_t hash;
        done = token_hash(PySequence_Fast_GET_ITEM(seq, k), memo, &hash) &&
               found_add(found, hash, 0);
    }
    Py_DECREF(seq);
    return done;
}

PyDoc_STRVAR(text_tokens_doc,
             "text_tokens(text, memo, min_run, cut): (hashes as uint64 bytes, digit flags as "
             "bytes) of the tokens of normalized text, each hash memo[token], a run of Chinese "
             "characters cut into words by cut(run) (None: such a text is declined); None "
             "when declined, or at min_run one-letter tokens in a row (a one-character "
             "Chinese run counts as one): letters spaced out, which the Python joins first.");

static PyObject *text_tokens(PyObject *self, PyObject *args) {
    PyObject *text, *memo, *cut;
    int min_run;
    if (!PyArg_ParseTuple(args, "UO!iO", &text, &PyDict_Type, &memo, &min_run, &cut))
        return NULL;
    if (min_run < 1 || (cut != Py_None && !PyCallable_Check(cut))) {
        PyErr_SetString(PyExc_ValueError, "min_run below 1, or cut neither None nor callable");
        return NULL;
    }
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), at = 0;
    Found found = {NULL, NULL, 0, 0};
    PyObject *result = NULL;
    int singles = 0; /* one-letter tokens in a row */
    while (at < n) {
        Py_UCS4 c = PyUnicode_READ(kind, data, at);
        Py_ssize_t start = at;
        int added;
        if (is_cjk(c)) { /* _TOKEN_RUN's first alternative */
            if (cut == Py_None) goto declined;
            while (at < n && is_cjk(PyUnicode_READ(kind, data, at))) at++;
            added = add_words(text, start, at, cut, memo, &found);
            singles = at - start == 1 ? singles + 1 : 0;
        } else if (is_digit(c)) {
            at = joined_run_end(kind, data, n, at, is_digit, is_separator);
            added = add_token(text, start, at, 1, memo, &found);
            singles = 0;
        } else if (is_letter(c)) {
            at = joined_run_end(kind, data, n, at, is_letter, is_apostrophe);
            added = add_token(text, start, at, 0, memo, &found);
            singles = at - start == 1 ? singles + 1 : 0;
        } else {
            at++;
            continue;
        }
        if (!added) {
            if (!PyErr_Occurred()) PyErr_NoMemory();
            goto done;
        }
        if (singles >= min_run) goto declined;
    }
    result = Py_BuildValue("y#y#", found.size ? (const char *)found.hashes : "",
                           found.size * (Py_ssize_t)sizeof(uint64_t),
                           found.size ? found.digits : "", found.size);
    goto done;
declined:
    result = Py_NewRef(Py_None);
done:
    PyMem_Free(found.hashes);
    PyMem_Free(found.digits);
    return result;
}

static PyMethodDef methods[] = {
    {"text_tokens", text_tokens, METH_VARARGS, text_tokens_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "token_loops",
    "The tokenizer's inner loop in C (see tokens.py).", -1, methods,
};

PyMODINIT_FUNC PyInit_token_loops(void) { return PyModule_Create(&module); }
