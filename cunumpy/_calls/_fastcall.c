/* cunumpy._calls._fastcall: the compiled fast path of the top-level standard functions.
 *
 * A FastCall object stands at the top level (`cunumpy.sqrt`) for a generated Python
 * function (`cunumpy._api.elementwise.sqrt`, its `slow` path) and takes, in C, the calls
 * that function's own NumPy fast path would take:
 *
 *   - no keywords and exactly as many positional arguments as `kinds` has letters;
 *   - each argument of the kind its letter names (the generator writes them, see
 *     tools/generate_api.py, FAST_PATHS):
 *       'a' an exact numpy.ndarray           's' an ndarray or a Python bool/int/float/complex
 *       'o' an ndarray or None                'n' an ndarray, a Python scalar or None
 *       'p' a Python bool/int/float or a tuple (the arguments of a creation function)
 *       'S' (first only) an ndarray, or a Python scalar on the NumPy backend (`sqrt(2.0)`);
 *   - the first argument an exact ndarray, or, for a creation function (`placed`) and for
 *     a scalar under 'S', the running context's backend NumPy (read from the ContextVar,
 *     as `_current()` does).
 *
 * Such a call is `fast(*args)`: the NumPy function the Python fast path calls. Any other
 * call, and any call whose fast path raises an Exception, is `slow(*args, **kwargs)`, so
 * every error, warning-as-error and message is the Python function's. With `identity`,
 * the fast path returns its one argument (`asarray` of an ndarray on NumPy).
 *
 * Attributes the object lacks (`__doc__`, `__wrapped__`, ufunc methods such as `reduce`)
 * are the Python function's. Nothing here imports CuPy or knows other libraries: every
 * array that is not an exact ndarray takes the Python path, which dispatches on it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>

static PyObject *str_namespace; /* "namespace", interned once */

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyObject *fast;            /* NumPy's function */
    PyObject *slow;            /* the generated Python function */
    PyTypeObject *ndarray;     /* numpy.ndarray, compared by identity */
    PyObject *kinds;           /* bytes: one letter per positional argument */
    PyObject *backend;         /* the ContextVar of the running backend, or None */
    PyObject *numpy;           /* the NumPy namespace module, for `placed` */
    PyObject *reduce_value;    /* what __reduce__ returns (pickled by name) */
    PyObject *everywhere;      /* [bool]: NumPy is the backend of every context (kept by
                                * a listener of cunumpy's backend landscape) */
    int placed;
    int identity;
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

static int
takes(FastCall *self, PyObject *const *args, Py_ssize_t n)
{
    const char *kinds = PyBytes_AS_STRING(self->kinds);
    if (n != PyBytes_GET_SIZE(self->kinds)) {
        return 0;
    }
    int backend = self->placed; /* whether the answer depends on the running backend */
    if (!self->placed && (n == 0 || !Py_IS_TYPE(args[0], self->ndarray))) {
        if (n == 0 || kinds[0] != 'S' || !is_scalar(args[0])) {
            return 0;
        }
        backend = 1; /* sqrt(2.0): NumPy's ufunc on the NumPy backend */
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *a = args[i];
        int array = Py_IS_TYPE(a, self->ndarray);
        switch (kinds[i]) {
        case 'S':
            if (!array && !is_scalar(a)) return 0;
            break;
        case 'a':
            if (!array) return 0;
            break;
        case 's':
            if (!array && !is_scalar(a)) return 0;
            break;
        case 'o':
            if (!array && a != Py_None) return 0;
            break;
        case 'n':
            if (!array && a != Py_None && !is_scalar(a)) return 0;
            break;
        case 'p':
            if (!PyLong_CheckExact(a) && !PyFloat_CheckExact(a) && !PyBool_Check(a)
                && !PyTuple_CheckExact(a))
                return 0;
            break;
        default:
            return 0;
        }
    }
    return !backend || PyList_GET_ITEM(self->everywhere, 0) == Py_True || on_numpy(self);
}

static PyObject *
fastcall_vectorcall(PyObject *op, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    FastCall *self = (FastCall *)op;
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    if (kwnames == NULL && takes(self, args, n)) {
        if (self->identity) {
            return Py_NewRef(args[0]);
        }
        PyObject *result = PyObject_Vectorcall(self->fast, args, nargsf, NULL);
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
                            "everywhere", "reduce_value", "placed", "identity", NULL};
    PyObject *fast, *slow, *kinds, *backend, *numpy, *everywhere, *reduce_value;
    PyTypeObject *ndarray;
    int placed = 0, identity = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO!SOOO!O|pp:FastCall", names, &fast,
                                     &slow, &PyType_Type, &ndarray, &kinds, &backend,
                                     &numpy, &PyList_Type, &everywhere, &reduce_value,
                                     &placed, &identity)) {
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
    self->placed = placed;
    self->identity = identity;
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
    if (str_namespace == NULL || PyType_Ready(&FastCallType) < 0) {
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
