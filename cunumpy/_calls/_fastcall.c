/* cunumpy._calls._fastcall: the compiled fast path of the top-level standard functions.
 *
 * A FastCall object stands at the top level (`cunumpy.sqrt`) in front of a generated
 * Python function (`cunumpy._api.elementwise.sqrt`, its `slow` path) and takes, in C, the
 * calls whose answer it knows is `fast(*args)`, the NumPy function the Python function
 * itself would end up calling:
 *
 *   - as many positional arguments as `kinds` has letters (the generator writes them:
 *     tools/generate_api.py, FAST_PATHS), and keywords of the `keywords` table whose
 *     values it accepts (any value; True or False; an int; True, False or None: the
 *     Python function's own checks); with `extras`, also NumPy's further positional
 *     arguments (1) and any keywords (2) whose values are host values (an exact ndarray,
 *     a Python scalar, None, a str, a type or a tuple of ints);
 *   - each argument of its letter's kind:
 *       'a' an exact numpy.ndarray             's' an ndarray or a Python scalar
 *       'o' an ndarray or None                  'n' an ndarray, a Python scalar or None
 *       'b' an ndarray of dtype bool            'q' a list or tuple of ndarrays, not empty
 *       'p' a Python bool/int/float or a tuple (the arguments of a creation function)
 *       'x' any value (the NumPy function checks it; an error goes to `slow`)
 *       'd' a key of `casts`, passed on as its value, unless the first argument's dtype
 *           is complex and that value's is not (`astype`: the standard refuses the cast);
 *   - with `data` (the Python function's NumPy's-call route calls `fast` too), Python
 *     scalars, and lists or tuples whose first item is a Python scalar, are accepted in
 *     any array place: NumPy's calls `sqrt(2.0)`, `sum([1, 2])`, `maximum(lst, 0)`;
 *   - where no argument is an array (and for every creation function, `placed`), only
 *     while the running context's backend is NumPy: a flag kept by a listener of the
 *     backend landscape says NumPy is the backend everywhere, else the ContextVar is read
 *     as `_current()` reads it.
 *
 * Any other call, and any call whose fast path raises an Exception, is
 * `slow(*args, **kwargs)`, so every error, warning-as-error and message is the Python
 * function's. With `identity`, an ndarray argument is returned as it is (`asarray`).
 *
 * Attributes the object lacks (`__doc__`, `__wrapped__`, ufunc methods such as `reduce`)
 * are the Python function's. Nothing here imports CuPy or knows other libraries: every
 * array that is not an exact ndarray takes the Python path, which dispatches on it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>

/* Attribute names, interned once. */
static PyObject *str_namespace;
static PyObject *str_dtype;
static PyObject *str_kind;

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyObject *fast;            /* NumPy's function */
    PyObject *slow;            /* the generated Python function */
    PyTypeObject *ndarray;     /* numpy.ndarray, compared by identity */
    PyObject *kinds;           /* bytes: one letter per positional argument */
    PyObject *backend;         /* the ContextVar of the running backend */
    PyObject *numpy;           /* the NumPy namespace module, the backend on_numpy() wants */
    PyObject *reduce_value;    /* what __reduce__ returns (pickled by name) */
    PyObject *everywhere;      /* [bool]: NumPy is the backend of every context (kept by
                                * a listener of cunumpy's backend landscape) */
    PyObject *bool_dtype;      /* numpy.dtype(bool), for 'b' */
    int placed;
    int identity;
    int data;
    int extras;                /* 0: the table's arity only; 1: more positional host
                                * values; 2: and keywords with host values */
    PyObject *keywords;        /* dict: keyword -> what it accepts (0 any, 1 bool,
                                * 2 int, 3 bool or None), or None */
    PyObject *casts;           /* dict for 'd': a dtype argument -> the dtype passed on */
    PyObject *real_dtype;      /* the last source dtype 'd' found real (a cache), or NULL */
} FastCall;

static int
is_scalar(PyObject *a)
{
    return PyFloat_CheckExact(a) || PyLong_CheckExact(a) || PyBool_Check(a)
           || PyComplex_CheckExact(a);
}

/* Whether the running context's backend is NumPy (`_current().namespace is numpy`). */
static int
on_numpy(FastCall *self)
{
    PyObject *state = NULL;
    if (PyContextVar_Get(self->backend, NULL, &state) < 0 || state == NULL) {
        PyErr_Clear();
        return 0;
    }
    PyObject *namespace = PyObject_GetAttr(state, str_namespace);
    Py_DECREF(state);
    if (namespace == NULL) {
        PyErr_Clear();
        return 0;
    }
    int answer = namespace == self->numpy;
    Py_DECREF(namespace);
    return answer;
}

/* Whether `a` is Python data NumPy converts: a list or tuple whose first item is a
 * Python scalar (the Python route does not scan such a sequence either). */
static int
is_data(PyObject *a)
{
    if (!PyList_CheckExact(a) && !PyTuple_CheckExact(a)) {
        return 0;
    }
    Py_ssize_t size = PySequence_Fast_GET_SIZE(a);
    return size > 0 && is_scalar(PySequence_Fast_GET_ITEM(a, 0));
}

/* Whether `a` is a non-empty list or tuple of exact ndarrays ('q'). */
static int
is_arrays(FastCall *self, PyObject *a)
{
    if (!PyList_CheckExact(a) && !PyTuple_CheckExact(a)) {
        return 0;
    }
    Py_ssize_t size = PySequence_Fast_GET_SIZE(a);
    if (size == 0) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        if (!Py_IS_TYPE(PySequence_Fast_GET_ITEM(a, i), self->ndarray)) {
            return 0;
        }
    }
    return 1;
}

static int
has_bool_dtype(FastCall *self, PyObject *a)
{
    PyObject *dtype = PyObject_GetAttr(a, str_dtype);
    if (dtype == NULL) {
        PyErr_Clear();
        return 0;
    }
    int answer = dtype == self->bool_dtype;
    Py_DECREF(dtype);
    return answer;
}

/* A value that leaves NumPy's call on NumPy (`_ufunc_methods._HOST_TYPES`, and tuples of
 * ints): an exact ndarray, a Python scalar, None, a str, a type, a tuple of ints. */
static int
is_host_value(FastCall *self, PyObject *a)
{
    if (Py_IS_TYPE(a, self->ndarray) || a == Py_None || is_scalar(a) || PyUnicode_CheckExact(a)
        || PyType_CheckExact(a)) {
        return 1;
    }
    if (!PyTuple_CheckExact(a)) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(a); i++) {
        if (!PyLong_CheckExact(PyTuple_GET_ITEM(a, i))) return 0;
    }
    return 1;
}

/* Whether a dtype's kind is 'c' (1), is not (0), or cannot be read (-1). */
static int
is_complex_dtype(PyObject *dtype)
{
    PyObject *kind = PyObject_GetAttr(dtype, str_kind);
    if (kind == NULL) {
        PyErr_Clear();
        return -1;
    }
    int answer = PyUnicode_Check(kind) && PyUnicode_GET_LENGTH(kind) == 1
                 && PyUnicode_READ_CHAR(kind, 0) == 'c';
    Py_DECREF(kind);
    return answer;
}

/* 1: the call is fast(*args, **kwargs); 0: it is slow's. */
static int
takes(FastCall *self, PyObject *const *args, Py_ssize_t n, PyObject *kwnames, PyObject **cast)
{
    const char *kinds = PyBytes_AS_STRING(self->kinds);
    Py_ssize_t given = PyBytes_GET_SIZE(self->kinds);
    if (n < given || (n > given && self->extras < 1)) {
        return 0;
    }
    Py_ssize_t keywords = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t i = given; i < n; i++) { /* NumPy's further positional arguments */
        if (!is_host_value(self, args[i])) return 0;
    }
    for (Py_ssize_t i = 0; i < keywords; i++) {
        PyObject *value = args[n + i];
        if (self->extras >= 2) { /* NumPy's keywords: host values */
            if (!is_host_value(self, value)) return 0;
            continue;
        }
        if (self->keywords == Py_None) return 0;
        PyObject *mode = PyDict_GetItemWithError(self->keywords, PyTuple_GET_ITEM(kwnames, i));
        if (mode == NULL) {
            PyErr_Clear();
            return 0; /* not one the C code may pass on */
        }
        switch (PyLong_AsLong(mode)) {
        case 0:
            break;
        case 1:
            if (value != Py_True && value != Py_False) return 0;
            break;
        case 2:
            if (!PyLong_CheckExact(value)) return 0;
            break;
        case 3:
            if (value != Py_True && value != Py_False && value != Py_None) return 0;
            break;
        default:
            return 0;
        }
    }
    n = given;
    int arrays = 0; /* whether an argument is an ndarray: compute follows it */
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *a = args[i];
        char kind = kinds[i];
        if (kind == 'x') {
            continue;
        }
        if (kind == 'd') {
            if (self->casts == Py_None || i == 0) return 0;
            PyObject *target = PyDict_GetItemWithError(self->casts, a); /* borrowed */
            if (target == NULL) {
                PyErr_Clear(); /* not a key, or unhashable: the Python path says so */
                return 0;
            }
            PyObject *source = PyObject_GetAttr(args[0], str_dtype);
            if (source == NULL) {
                PyErr_Clear();
                return 0;
            }
            if (source != self->real_dtype) { /* not the dtype seen last: read its kind */
                int complex_source = is_complex_dtype(source);
                if (complex_source < 0 || (complex_source && is_complex_dtype(target) != 1)) {
                    Py_DECREF(source);
                    return 0; /* complex to real: the Python path refuses it */
                }
                if (!complex_source) {
                    Py_XSETREF(self->real_dtype, Py_NewRef(source));
                }
            }
            Py_DECREF(source);
            *cast = target;
            continue;
        }
        if (kind == 'p') {
            if (!PyLong_CheckExact(a) && !PyFloat_CheckExact(a) && !PyBool_Check(a)
                && !PyTuple_CheckExact(a))
                return 0;
        }
        else if (kind == 'q') {
            if (!is_arrays(self, a)) return 0;
            arrays = 1;
        }
        else if (Py_IS_TYPE(a, self->ndarray)) {
            if (kind == 'b' && !has_bool_dtype(self, a)) return 0;
            arrays = 1;
        }
        else if (a == Py_None) {
            if (kind != 'o' && kind != 'n') return 0;
        }
        else if (is_scalar(a)) {
            if (kind != 's' && kind != 'n' && !self->data) return 0;
        }
        else if (!self->data || kind == 'b' || !is_data(a)) {
            return 0;
        }
    }
    if (arrays && !self->placed) {
        return 1;
    }
    if (!self->placed && !self->data) {
        return 0; /* Python values alone: NumPy's call, which only `data` says is fast's */
    }
    return PyList_GET_ITEM(self->everywhere, 0) == Py_True || on_numpy(self);
}

static PyObject *
fastcall_vectorcall(PyObject *op, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    FastCall *self = (FastCall *)op;
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    if (self->identity && n == 1 && kwnames == NULL && Py_IS_TYPE(args[0], self->ndarray)
        && PyList_GET_ITEM(self->everywhere, 0) == Py_True) {
        return Py_NewRef(args[0]); /* asarray(ndarray) with NumPy everywhere: the array */
    }
    PyObject *cast = NULL;
    if (takes(self, args, n, kwnames, &cast)) {
        if (self->identity && n == 1 && kwnames == NULL && Py_IS_TYPE(args[0], self->ndarray)) {
            return Py_NewRef(args[0]);
        }
        PyObject *result;
        if (cast == NULL) {
            result = PyObject_Vectorcall(self->fast, args, nargsf, kwnames);
        }
        else if (n == 2 && kwnames == NULL) {
            PyObject *stack[2] = {args[0], cast};
            result = PyObject_Vectorcall(self->fast, stack, 2, NULL);
        }
        else {
            return PyObject_Vectorcall(self->slow, args, nargsf, kwnames);
        }
        if (result != NULL || !PyErr_ExceptionMatches(PyExc_Exception)) {
            return result;
        }
        PyErr_Clear(); /* the Python function raises it again, in its own words */
    }
    return PyObject_Vectorcall(self->slow, args, nargsf, kwnames);
}

static PyObject *
fastcall_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"fast", "slow", "ndarray", "kinds", "backend", "numpy",
                            "everywhere", "reduce_value", "bool_dtype", "placed",
                            "identity", "data", "extras", "keywords", "casts", NULL};
    PyObject *fast, *slow, *kinds, *backend, *numpy, *everywhere, *reduce_value;
    PyObject *bool_dtype = Py_None, *keyword_modes = Py_None, *casts = Py_None;
    PyTypeObject *ndarray;
    int placed = 0, identity = 0, data = 0, extras = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO!SOOO!O|OpppiOO:FastCall", names, &fast,
                                     &slow, &PyType_Type, &ndarray, &kinds, &backend,
                                     &numpy, &PyList_Type, &everywhere, &reduce_value,
                                     &bool_dtype, &placed, &identity, &data, &extras,
                                     &keyword_modes, &casts)) {
        return NULL;
    }
    if (casts != Py_None && !PyDict_CheckExact(casts)) {
        PyErr_Format(PyExc_TypeError, "FastCall: `casts` must be a dict or None, not %R", casts);
        return NULL;
    }
    if (keyword_modes != Py_None && !PyDict_CheckExact(keyword_modes)) {
        PyErr_Format(PyExc_TypeError, "FastCall: `keywords` must be a dict or None, not %R",
                     keyword_modes);
        return NULL;
    }
    if (PyList_GET_SIZE(everywhere) != 1) {
        PyErr_SetString(PyExc_ValueError, "FastCall: `everywhere` must be a list of one bool");
        return NULL;
    }
    if (!PyCallable_Check(fast) || !PyCallable_Check(slow)) {
        PyErr_Format(PyExc_TypeError, "FastCall: `fast` and `slow` must be callable, not %R, %R",
                     fast, slow);
        return NULL;
    }
    if (!PyContextVar_CheckExact(backend)) {
        PyErr_Format(PyExc_TypeError, "FastCall: `backend` must be a ContextVar, not %R",
                     backend);
        return NULL;
    }
    FastCall *self = (FastCall *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->fast = Py_NewRef(fast);
    self->slow = Py_NewRef(slow);
    self->ndarray = (PyTypeObject *)Py_NewRef((PyObject *)ndarray);
    self->kinds = Py_NewRef(kinds);
    self->backend = Py_NewRef(backend);
    self->numpy = Py_NewRef(numpy);
    self->reduce_value = Py_NewRef(reduce_value);
    self->everywhere = Py_NewRef(everywhere);
    self->bool_dtype = Py_NewRef(bool_dtype);
    self->placed = placed;
    self->identity = identity;
    self->data = data;
    self->extras = extras;
    self->keywords = Py_NewRef(keyword_modes);
    self->casts = Py_NewRef(casts);
    self->real_dtype = NULL;
    self->vectorcall = fastcall_vectorcall;
    return (PyObject *)self;
}

static int
fastcall_traverse(FastCall *self, visitproc visit, void *arg)
{
    Py_VISIT(self->fast);
    Py_VISIT(self->slow);
    Py_VISIT(self->ndarray);
    Py_VISIT(self->backend);
    Py_VISIT(self->numpy);
    Py_VISIT(self->reduce_value);
    Py_VISIT(self->everywhere);
    Py_VISIT(self->bool_dtype);
    Py_VISIT(self->keywords);
    Py_VISIT(self->casts);
    Py_VISIT(self->real_dtype);
    return 0;
}

static int
fastcall_clear(FastCall *self)
{
    Py_CLEAR(self->fast);
    Py_CLEAR(self->slow);
    Py_CLEAR(self->ndarray);
    Py_CLEAR(self->kinds);
    Py_CLEAR(self->backend);
    Py_CLEAR(self->numpy);
    Py_CLEAR(self->reduce_value);
    Py_CLEAR(self->everywhere);
    Py_CLEAR(self->bool_dtype);
    Py_CLEAR(self->keywords);
    Py_CLEAR(self->casts);
    Py_CLEAR(self->real_dtype);
    return 0;
}

static void
fastcall_dealloc(FastCall *self)
{
    PyObject_GC_UnTrack(self);
    fastcall_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The object's own attributes first (its type's), then the Python function's. */
static PyObject *
fastcall_getattro(PyObject *op, PyObject *name)
{
    /* The object's own attributes are all dunders: any other name (`reduce`, `nin`) is
     * the function's, found without raising and clearing an AttributeError first. */
    if (PyUnicode_Check(name) && PyUnicode_GET_LENGTH(name) > 1
        && PyUnicode_READ_CHAR(name, 0) != '_') {
        return PyObject_GetAttr(((FastCall *)op)->slow, name);
    }
    PyObject *result = PyObject_GenericGetAttr(op, name);
    if (result != NULL || !PyErr_ExceptionMatches(PyExc_AttributeError)) {
        return result;
    }
    PyErr_Clear();
    return PyObject_GetAttr(((FastCall *)op)->slow, name);
}

static PyObject *
fastcall_repr(FastCall *self)
{
    return PyObject_Repr(self->slow);
}

static PyObject *
fastcall_wrapped(FastCall *self, void *closure)
{
    return Py_NewRef(self->slow);
}

static PyObject *
fastcall_get_fast(FastCall *self, void *closure)
{
    return Py_NewRef(self->fast);
}

/* `__doc__`, `__name__`, `__qualname__` and `__module__` are the Python function's (the
 * type's own would otherwise answer first). */
static PyObject *
fastcall_slow_attribute(FastCall *self, void *name)
{
    return PyObject_GetAttrString(self->slow, (const char *)name);
}

static PyObject *
fastcall_reduce(FastCall *self, PyObject *unused)
{
    return Py_NewRef(self->reduce_value);
}

static PyGetSetDef fastcall_getset[] = {
    {"__wrapped__", (getter)fastcall_wrapped, NULL, "The generated Python function.", NULL},
    {"__fast__", (getter)fastcall_get_fast, NULL, "NumPy's function of the fast path.", NULL},
    {"__doc__", (getter)fastcall_slow_attribute, NULL, NULL, "__doc__"},
    {"__name__", (getter)fastcall_slow_attribute, NULL, NULL, "__name__"},
    {"__qualname__", (getter)fastcall_slow_attribute, NULL, NULL, "__qualname__"},
    {"__module__", (getter)fastcall_slow_attribute, NULL, NULL, "__module__"},
    {NULL},
};

static PyMethodDef fastcall_methods[] = {
    {"__reduce__", (PyCFunction)fastcall_reduce, METH_NOARGS, NULL},
    {NULL},
};

static PyTypeObject FastCallType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "cunumpy._calls._fastcall.FastCall",
    .tp_doc = "A top-level standard function with its NumPy fast path in C.",
    .tp_basicsize = sizeof(FastCall),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_HAVE_GC,
    .tp_vectorcall_offset = offsetof(FastCall, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_new = fastcall_new,
    .tp_dealloc = (destructor)fastcall_dealloc,
    .tp_traverse = (traverseproc)fastcall_traverse,
    .tp_clear = (inquiry)fastcall_clear,
    .tp_getattro = fastcall_getattro,
    .tp_repr = (reprfunc)fastcall_repr,
    .tp_getset = fastcall_getset,
    .tp_methods = fastcall_methods,
};

static struct PyModuleDef fastcall_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "cunumpy._calls._fastcall",
    .m_doc = "The compiled fast path of cunumpy's top-level standard functions.",
    .m_size = -1,
};

PyMODINIT_FUNC
PyInit__fastcall(void)
{
    str_namespace = PyUnicode_InternFromString("namespace");
    str_dtype = PyUnicode_InternFromString("dtype");
    str_kind = PyUnicode_InternFromString("kind");
    if (str_namespace == NULL || str_dtype == NULL || str_kind == NULL
        || PyType_Ready(&FastCallType) < 0) {
        return NULL;
    }
    PyObject *module = PyModule_Create(&fastcall_module);
    if (module == NULL) {
        return NULL;
    }
    if (PyModule_AddObjectRef(module, "FastCall", (PyObject *)&FastCallType) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
