/* The tokenizer's inner loop in C for text without Chinese characters: the tokens
 * tokens._LATIN_TOKEN finds (for ASCII text, _ASCII_TOKEN: the same tokens), hashed
 * through the dict of remembered hashes, with their digit flags, in one pass and without a
 * list of tokens. Its Python twin is the regular expression path of tokens._append_tokens,
 * used where this module is not built; tests hold the two to the same answers.
 *
 * The character classes are the re module's for str patterns: \d is Py_UNICODE_ISDECIMAL,
 * \w is Py_UNICODE_ISALNUM or '_'. A letter is [^\W\d_] less the CJK ranges of
 * tokens._CJK; a token is digits joined by single separators among .,:/- , or letters
 * joined by single apostrophes (' or U+2019), as the patterns' greedy repeats match them. */
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

/* the remembered hash of text[start:end], asked of the dict (its __missing__ computes it) */
static int token_hash(PyObject *text, Py_ssize_t start, Py_ssize_t end, PyObject *memo,
                      uint64_t *hash) {
    PyObject *token = PyUnicode_Substring(text, start, end);
    if (!token) return 0;
    PyObject *value = PyDict_GetItemWithError(memo, token); /* borrowed */
    PyObject *made = NULL;
    if (!value && !PyErr_Occurred()) value = made = PyObject_GetItem(memo, token);
    Py_DECREF(token);
    if (!value) return 0;
    *hash = PyLong_AsUnsignedLongLong(value);
    Py_XDECREF(made);
    return !(*hash == (uint64_t)-1 && PyErr_Occurred());
}

PyDoc_STRVAR(latin_tokens_doc,
             "latin_tokens(text, memo, min_run): (hashes as uint64 bytes, digit flags as "
             "bytes) of the tokens of text without Chinese characters, each hash memo[token]; "
             "None when the text holds a Chinese character or min_run one-letter tokens in "
             "a row (letters spaced out: the Python path joins them first).");

static PyObject *latin_tokens(PyObject *self, PyObject *args) {
    PyObject *text, *memo;
    int min_run;
    if (!PyArg_ParseTuple(args, "UO!i", &text, &PyDict_Type, &memo, &min_run)) return NULL;
    if (min_run < 1) {
        PyErr_SetString(PyExc_ValueError, "min_run must be at least 1");
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
        int digit;
        if (is_digit(c)) {
            digit = 1;
            while (at < n && is_digit(PyUnicode_READ(kind, data, at))) at++;
            while (at + 1 < n && is_separator(PyUnicode_READ(kind, data, at)) &&
                   is_digit(PyUnicode_READ(kind, data, at + 1))) {
                at += 2;
                while (at < n && is_digit(PyUnicode_READ(kind, data, at))) at++;
            }
        } else if (is_letter(c)) {
            digit = 0;
            while (at < n && is_letter(PyUnicode_READ(kind, data, at))) at++;
            while (at + 1 < n && is_apostrophe(PyUnicode_READ(kind, data, at)) &&
                   is_letter(PyUnicode_READ(kind, data, at + 1))) {
                at += 2;
                while (at < n && is_letter(PyUnicode_READ(kind, data, at))) at++;
            }
        } else {
            if (is_cjk(c)) goto declined;
            at++;
            continue;
        }
        singles = at - start == 1 && !digit ? singles + 1 : 0;
        if (singles >= min_run) goto declined;
        uint64_t hash;
        if (!token_hash(text, start, at, memo, &hash) || !found_add(&found, hash, (char)digit)) {
            if (!PyErr_Occurred()) PyErr_NoMemory();
            goto done;
        }
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
    {"latin_tokens", latin_tokens, METH_VARARGS, latin_tokens_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "token_loops",
    "The tokenizer's inner loop in C (see tokens.py).", -1, methods,
};

PyMODINIT_FUNC PyInit_token_loops(void) { return PyModule_Create(&module); }
