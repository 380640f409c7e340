/* cunumpy._calls._fastcall: the mechanism of the compiled fast path of the top level.
 *
 * A FastCall object stands in front of a Python function (`slow`: the def that
 * `@fast_path` declares, cunumpy/_calls/_fast_path.py) and calls `fast` (a NumPy function)
 * with the arguments as given when every argument passes the tests its record asks for.
 * The policy (which function, which kinds, which keywords, how errors are restated) is
 * Python's: the record passes it in as data, read once here.
 *
 *   - `kinds`: one byte per positional argument, the flags of its kind in
 *     `cunumpy/_calls/_kinds.py` (KINDS): an exact ndarray, one of dtype bool, a Python
 *     scalar, None, a non-empty list or tuple of exact ndarrays, a shape (Python
 *     bool/int/float or a tuple), any value, or a key of `casts` (passed on as its value,
 *     unless the first argument is complex and the value is not);
 *   - `keywords`: keyword -> the mode of value it accepts (KEYWORD_MODES: any; True or
 *     False; an exact int; True, False or None);
 *   - `extras`: 1, NumPy's further positional arguments (without keywords), and 2, any
 *     keyword too, each a host value (an exact ndarray, a Python scalar, None, a str, a type, a tuple of ints);
 *   - `data`: Python scalars, and lists or tuples whose first item is a Python scalar, in
 *     an ndarray's place;
 *   - where no argument is an array (and for creation, `placed`), only while the running
 *     context's backend is NumPy: `everywhere[0]` (kept by a listener of the backend
 *     landscape) says so at once, else the ContextVar is read as `_current()` reads it.
 *
 * Any other call is `slow(*args, **kwargs)`. A call `fast` takes runs once: its error
 * propagates, handed first to `restate(error, args, kwargs)`, which raises it in the
 * Python function's words (or returns, and the error is raised as it is).
 *
 * Attributes the object lacks (`__doc__`, `__wrapped__`, `__signature__`, ufunc methods
 * such as `reduce`) are the Python function's. Nothing here imports CuPy or knows other libraries.
 *
 * The module uses multi-phase initialisation; the type is a heap type and the interned
 * names live in the module state. The objects hold no mutable state of their own, but the
 * module declares that it needs the GIL (Py_MOD_GIL_USED): `everywhere` is a list the
 * listener writes while calls read it (docs/architecture.md says what a free-threaded
 * build would need).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <structmember.h>

/* The flags of a kind (cunumpy/_calls/_kinds.py, ACCEPTS: the same values). */
enum {
    ACCEPT_NDARRAY = 1,
    ACCEPT_BOOL_NDARRAY = 2,
    ACCEPT_SCALAR = 4,
    ACCEPT_NONE = 8,
    ACCEPT_NDARRAYS = 16,
    ACCEPT_SHAPE = 32,
    ACCEPT_ANY = 64,
    ACCEPT_CAST = 128,
};

/* The modes of a keyword's value (cunumpy/_calls/_kinds.py, KEYWORD_MODES). */
enum { MODE_ANY = 0, MODE_BOOL = 1, MODE_INT = 2, MODE_BOOL_OR_NONE = 3 };

typedef struct {
    PyObject *str_namespace;
    PyObject *str_dtype;
    PyObject *str_kind;
    PyObject *fastcall_type;
} module_state;

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyObject *fast;            /* NumPy's function */
    PyObject *slow;            /* the Python function */
    PyObject *restate;         /* restate(error, args, kwargs), or None */
    PyTypeObject *ndarray;     /* numpy.ndarray, compared by identity */
    PyObject *kinds;           /* bytes: the flags of each positional argument's kind */
    PyObject *backend;         /* the ContextVar of the running backend */
    PyObject *numpy;           /* the NumPy namespace module, the backend on_numpy() wants */
    PyObject *reduce_value;    /* what __reduce__ returns (pickled by name) */
    PyObject *everywhere;      /* [bool]: NumPy is the backend of every context */
    PyObject *bool_dtype;      /* numpy.dtype(bool) */
    PyObject *dtype_descriptor; /* ndarray.__dict__["dtype"], whose getter is read once */
    PyGetSetDef *dtype_getter; /* its getter, or NULL (then the attribute is looked up) */
    int placed;
    int identity;
    int data;
    int extras;
    PyObject *keywords;        /* dict: keyword -> mode, or None */
    PyObject *casts;           /* dict: a dtype argument -> the dtype passed on, or None */
    PyObject *real_targets;    /* tuple: the real dtypes among casts' values (read once) */
    PyObject *complex_targets; /* tuple: the complex ones */
} FastCall;

static module_state *
state_of(PyObject *self)
{
    return (module_state *)PyType_GetModuleState(Py_TYPE(self));
}

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
    PyObject *namespace = PyObject_GetAttr(state, state_of((PyObject *)self)->str_namespace);
    Py_DECREF(state);
    if (namespace == NULL) {
        PyErr_Clear();
        return 0;
    }
    int answer = namespace == self->numpy;
    Py_DECREF(namespace);
    return answer;
}

/* A list or tuple whose first item is a Python scalar (the Python route does not scan
 * such a sequence either). */
static int
is_data(PyObject *a)
{
    if (!PyList_CheckExact(a) && !PyTuple_CheckExact(a)) {
        return 0;
    }
    Py_ssize_t size = PySequence_Fast_GET_SIZE(a);
    return size > 0 && is_scalar(PySequence_Fast_GET_ITEM(a, 0));
}

/* A non-empty list or tuple of exact ndarrays. */
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

/* An exact ndarray's dtype (a new reference), or NULL with no error set: through the
 * getter read once from the type (no attribute look-up per call). */
static PyObject *
dtype_of(FastCall *self, PyObject *array)
{
    PyObject *dtype = self->dtype_getter != NULL
                          ? self->dtype_getter->get(array, self->dtype_getter->closure)
                          : PyObject_GetAttr(array, state_of((PyObject *)self)->str_dtype);
    if (dtype == NULL) {
        PyErr_Clear();
    }
    return dtype;
}

/* The getter of the type's `dtype` attribute where it is a getset descriptor, or NULL. */
static int
read_dtype_getter(FastCall *self)
{
    PyObject *descriptor =
        PyObject_GetAttr((PyObject *)self->ndarray, state_of((PyObject *)self)->str_dtype);
    if (descriptor == NULL) {
        return -1;
    }
    self->dtype_descriptor = descriptor;
    self->dtype_getter = Py_IS_TYPE(descriptor, &PyGetSetDescr_Type)
                             ? ((PyGetSetDescrObject *)descriptor)->d_getset
                             : NULL;
    return 0;
}

static int
has_bool_dtype(FastCall *self, PyObject *a)
{
    PyObject *dtype = dtype_of(self, a);
    if (dtype == NULL) {
        return 0;
    }
    int answer = dtype == self->bool_dtype;
    Py_DECREF(dtype);
    return answer;
}

/* An exact ndarray, a Python scalar, None, a str, a type, a tuple of ints. */
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
is_complex_dtype(FastCall *self, PyObject *dtype)
{
    PyObject *kind = PyObject_GetAttr(dtype, state_of((PyObject *)self)->str_kind);
    if (kind == NULL) {
        PyErr_Clear();
        return -1;
    }
    int answer = PyUnicode_Check(kind) && PyUnicode_GET_LENGTH(kind) == 1
                 && PyUnicode_READ_CHAR(kind, 0) == 'c';
    Py_DECREF(kind);
    return answer;
}

static int
in_tuple(PyObject *tuple, PyObject *item)
{
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(tuple); i++) {
        if (PyTuple_GET_ITEM(tuple, i) == item) return 1;
    }
    return 0;
}

/* The dtype a cast argument stands for, or NULL: the call is slow's. A complex source
 * takes a complex target only; a source that is one of the real targets (the dtype
 * objects of native arrays) needs no look-up of its kind. */
static PyObject *
cast_target(FastCall *self, PyObject *source_array, PyObject *argument)
{
    if (self->casts == Py_None) return NULL;
    PyObject *target = PyDict_GetItemWithError(self->casts, argument); /* borrowed */
    if (target == NULL) {
        PyErr_Clear(); /* not a key, or unhashable: the Python function says so */
        return NULL;
    }
    if (in_tuple(self->complex_targets, target)) return target;
    if (!Py_IS_TYPE(source_array, self->ndarray)) return NULL;
    PyObject *source = dtype_of(self, source_array);
    if (source == NULL) return NULL;
    int real = in_tuple(self->real_targets, source) || is_complex_dtype(self, source) == 0;
    Py_DECREF(source);
    return real ? target : NULL; /* complex to real: the Python function refuses */
}

/* The real and the complex dtypes among the values of `casts`, as two tuples. */
static int
split_targets(FastCall *self, PyObject *casts)
{
    PyObject *real = PyList_New(0), *complex = PyList_New(0);
    int failed = real == NULL || complex == NULL;
    if (!failed && casts != Py_None) {
        Py_ssize_t position = 0;
        PyObject *key, *value;
        while (!failed && PyDict_Next(casts, &position, &key, &value)) {
            int kind = is_complex_dtype(self, value);
            failed = kind < 0 || PyList_Append(kind ? complex : real, value) < 0;
        }
    }
    if (!failed) {
        self->real_targets = PyList_AsTuple(real);
        self->complex_targets = PyList_AsTuple(complex);
        failed = self->real_targets == NULL || self->complex_targets == NULL;
    }
    Py_XDECREF(real);
    Py_XDECREF(complex);
    if (failed && !PyErr_Occurred()) {
        PyErr_SetString(PyExc_TypeError, "FastCall: the values of `casts` must be dtypes.");
    }
    return failed ? -1 : 0;
}

static int
keyword_accepted(long mode, PyObject *value)
{
    switch (mode) {
    case MODE_ANY:
        return 1;
    case MODE_BOOL:
        return value == Py_True || value == Py_False;
    case MODE_INT:
        return PyLong_CheckExact(value);
    case MODE_BOOL_OR_NONE:
        return value == Py_True || value == Py_False || value == Py_None;
    default:
        return 0;
    }
}

/* 1: the call is fast's; 0: it is slow's. */
static int
takes(FastCall *self, PyObject *const *args, Py_ssize_t n, PyObject *kwnames, PyObject **cast)
{
    const unsigned char *kinds = (const unsigned char *)PyBytes_AS_STRING(self->kinds);
    Py_ssize_t given = PyBytes_GET_SIZE(self->kinds);
    if (n < given || (n > given && self->extras < 1)) {
        return 0;
    }
    Py_ssize_t keywords = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    if (n > given && keywords > 0 && self->extras < 2) {
        return 0; /* NumPy's call: the Python route leaves out keywords at their defaults */
    }
    for (Py_ssize_t i = given; i < n; i++) { /* NumPy's further positional arguments */
        if (!is_host_value(self, args[i])) return 0;
    }
    for (Py_ssize_t i = 0; i < keywords; i++) {
        PyObject *value = args[n + i];
        if (self->extras >= 2) { /* any keyword, with a host value */
            if (!is_host_value(self, value)) return 0;
            continue;
        }
        if (self->keywords == Py_None) return 0;
        PyObject *mode = PyDict_GetItemWithError(self->keywords, PyTuple_GET_ITEM(kwnames, i));
        if (mode == NULL) {
            PyErr_Clear();
            return 0; /* not one the record passes on */
        }
        if (!keyword_accepted(PyLong_AsLong(mode), value)) return 0;
    }
    int arrays = 0; /* whether an argument is an ndarray: compute follows it */
    for (Py_ssize_t i = 0; i < given; i++) {
        PyObject *a = args[i];
        unsigned char accepts = kinds[i];
        if (accepts & ACCEPT_ANY) {
            continue;
        }
        if (accepts & ACCEPT_CAST) {
            if (i == 0 || (*cast = cast_target(self, args[0], a)) == NULL) return 0;
            continue;
        }
        if (accepts & ACCEPT_SHAPE) {
            if (!PyLong_CheckExact(a) && !PyFloat_CheckExact(a) && !PyBool_Check(a)
                && !PyTuple_CheckExact(a))
                return 0;
            continue;
        }
        if (accepts & ACCEPT_NDARRAYS) {
            if (!is_arrays(self, a)) return 0;
            arrays = 1;
            continue;
        }
        if (Py_IS_TYPE(a, self->ndarray)) {
            if (accepts & ACCEPT_BOOL_NDARRAY) {
                if (!has_bool_dtype(self, a)) return 0;
            }
            else if (!(accepts & ACCEPT_NDARRAY)) {
                return 0;
            }
            arrays = 1;
        }
        else if (a == Py_None) {
            if (!(accepts & ACCEPT_NONE)) return 0;
        }
        else if (is_scalar(a)) {
            if (!(accepts & ACCEPT_SCALAR) && !self->data) return 0;
        }
        else if (!self->data || !(accepts & ACCEPT_NDARRAY) || !is_data(a)) {
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

/* The error of `fast`, handed to `restate` with the call's arguments; returns NULL. */
static PyObject *
raise_restated(FastCall *self, PyObject *const *args, Py_ssize_t n, PyObject *kwnames)
{
    if (self->restate == Py_None || !PyErr_ExceptionMatches(PyExc_Exception)) {
        return NULL;
    }
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    PyErr_NormalizeException(&type, &value, &traceback);
    if (traceback != NULL) {
        PyException_SetTraceback(value, traceback);
    }
    PyObject *positional = PyTuple_New(n);
    PyObject *keywords = PyDict_New();
    PyObject *answer = NULL;
    if (positional != NULL && keywords != NULL) {
        for (Py_ssize_t i = 0; i < n; i++) {
            PyTuple_SET_ITEM(positional, i, Py_NewRef(args[i]));
        }
        Py_ssize_t count = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
        int failed = 0;
        for (Py_ssize_t i = 0; i < count && !failed; i++) {
            failed = PyDict_SetItem(keywords, PyTuple_GET_ITEM(kwnames, i), args[n + i]) < 0;
        }
        if (!failed) {
            answer = PyObject_CallFunctionObjArgs(self->restate, value, positional, keywords,
                                                  NULL);
        }
    }
    Py_XDECREF(positional);
    Py_XDECREF(keywords);
    if (answer == NULL) { /* the restated error (or a failure of restate's own) */
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(traceback);
        return NULL;
    }
    Py_DECREF(answer);
    PyErr_Restore(type, value, traceback); /* restate kept it: raised as it is */
    return NULL;
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
    if (!takes(self, args, n, kwnames, &cast)) {
        return PyObject_Vectorcall(self->slow, args, nargsf, kwnames);
    }
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
    if (result != NULL) {
        return result;
    }
    return raise_restated(self, args, n, kwnames);
}

static PyObject *
fastcall_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"fast", "slow", "ndarray", "kinds", "backend", "numpy",
                            "everywhere", "reduce_value", "bool_dtype", "restate", "placed",
                            "identity", "data", "extras", "keywords", "casts", NULL};
    PyObject *fast, *slow, *kinds, *backend, *numpy, *everywhere, *reduce_value;
    PyObject *bool_dtype = Py_None, *restate = Py_None, *keyword_modes = Py_None;
    PyObject *casts = Py_None;
    PyTypeObject *ndarray;
    int placed = 0, identity = 0, data = 0, extras = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO!SOOO!O|OOpppiOO:FastCall", names,
                                     &fast, &slow, &PyType_Type, &ndarray, &kinds, &backend,
                                     &numpy, &PyList_Type, &everywhere, &reduce_value,
                                     &bool_dtype, &restate, &placed, &identity, &data, &extras,
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
        PyErr_SetString(PyExc_ValueError, "FastCall: `everywhere` must be a list of one bool.");
        return NULL;
    }
    if (!PyCallable_Check(fast) || !PyCallable_Check(slow)
        || (restate != Py_None && !PyCallable_Check(restate))) {
        PyErr_Format(PyExc_TypeError,
                     "FastCall: `fast`, `slow` and `restate` must be callable, not %R, %R, %R",
                     fast, slow, restate);
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
    self->restate = Py_NewRef(restate);
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
    self->real_targets = NULL;
    self->complex_targets = NULL;
    self->dtype_descriptor = NULL;
    self->dtype_getter = NULL;
    self->vectorcall = fastcall_vectorcall;
    if (split_targets(self, casts) < 0 || read_dtype_getter(self) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static int
fastcall_traverse(FastCall *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(self->fast);
    Py_VISIT(self->slow);
    Py_VISIT(self->restate);
    Py_VISIT(self->ndarray);
    Py_VISIT(self->backend);
    Py_VISIT(self->numpy);
    Py_VISIT(self->reduce_value);
    Py_VISIT(self->everywhere);
    Py_VISIT(self->bool_dtype);
    Py_VISIT(self->dtype_descriptor);
    Py_VISIT(self->keywords);
    Py_VISIT(self->casts);
    Py_VISIT(self->real_targets);
    Py_VISIT(self->complex_targets);
    return 0;
}

static int
fastcall_clear(FastCall *self)
{
    Py_CLEAR(self->fast);
    Py_CLEAR(self->slow);
    Py_CLEAR(self->restate);
    Py_CLEAR(self->ndarray);
    Py_CLEAR(self->kinds);
    Py_CLEAR(self->backend);
    Py_CLEAR(self->numpy);
    Py_CLEAR(self->reduce_value);
    Py_CLEAR(self->everywhere);
    Py_CLEAR(self->bool_dtype);
    Py_CLEAR(self->dtype_descriptor);
    Py_CLEAR(self->keywords);
    Py_CLEAR(self->casts);
    Py_CLEAR(self->real_targets);
    Py_CLEAR(self->complex_targets);
    return 0;
}

static void
fastcall_dealloc(FastCall *self)
{
    PyTypeObject *type = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    fastcall_clear(self);
    type->tp_free((PyObject *)self);
    Py_DECREF(type);
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

/* `__doc__`, `__name__`, `__qualname__` and `__module__` are the Python function's. */
static PyObject *
fastcall_slow_attribute(FastCall *self, void *name)
{
    return PyObject_GetAttrString(self->slow, (const char *)name);
}

/* `__get__` returns the object itself: a FastCall in a class is not bound, as before and
 * as a builtin function is not. Having the slot makes it a routine to `inspect` (a method
 * descriptor), so `help()` shows its signature: the def's `__signature__`, read through
 * `fastcall_getattro` (cunumpy/_calls/_shown_signatures.py). */
static PyObject *
fastcall_descr_get(PyObject *self, PyObject *obj, PyObject *type)
{
    return Py_NewRef(self);
}

static PyObject *
fastcall_reduce(FastCall *self, PyObject *unused)
{
    return Py_NewRef(self->reduce_value);
}

static PyGetSetDef fastcall_getset[] = {
    {"__wrapped__", (getter)fastcall_wrapped, NULL, "The Python function.", NULL},
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

static PyMemberDef fastcall_members[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(FastCall, vectorcall), READONLY, NULL},
    {NULL},
};

static PyType_Slot fastcall_slots[] = {
    {Py_tp_call, PyVectorcall_Call},
    {Py_tp_new, fastcall_new},
    {Py_tp_dealloc, fastcall_dealloc},
    {Py_tp_traverse, fastcall_traverse},
    {Py_tp_clear, fastcall_clear},
    {Py_tp_getattro, fastcall_getattro},
    {Py_tp_repr, fastcall_repr},
    {Py_tp_descr_get, fastcall_descr_get},
    {Py_tp_getset, fastcall_getset},
    {Py_tp_methods, fastcall_methods},
    {Py_tp_members, fastcall_members},
    {0, NULL},
};

static PyType_Spec fastcall_spec = {
    .name = "cunumpy._calls._fastcall.FastCall",
    .basicsize = sizeof(FastCall),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_HAVE_GC,
    .slots = fastcall_slots,
};

static int
fastcall_exec(PyObject *module)
{
    module_state *state = (module_state *)PyModule_GetState(module);
    state->str_namespace = PyUnicode_InternFromString("namespace");
    state->str_dtype = PyUnicode_InternFromString("dtype");
    state->str_kind = PyUnicode_InternFromString("kind");
    if (state->str_namespace == NULL || state->str_dtype == NULL || state->str_kind == NULL) {
        return -1;
    }
    state->fastcall_type = PyType_FromModuleAndSpec(module, &fastcall_spec, NULL);
    if (state->fastcall_type == NULL) {
        return -1;
    }
    return PyModule_AddObjectRef(module, "FastCall", state->fastcall_type);
}

static int
module_traverse(PyObject *module, visitproc visit, void *arg)
{
    module_state *state = (module_state *)PyModule_GetState(module);
    Py_VISIT(state->fastcall_type);
    return 0;
}

static int
module_clear(PyObject *module)
{
    module_state *state = (module_state *)PyModule_GetState(module);
    Py_CLEAR(state->str_namespace);
    Py_CLEAR(state->str_dtype);
    Py_CLEAR(state->str_kind);
    Py_CLEAR(state->fastcall_type);
    return 0;
}

static void
module_free(void *module)
{
    module_clear((PyObject *)module);
}

static PyModuleDef_Slot fastcall_module_slots[] = {
    {Py_mod_exec, fastcall_exec},
#ifdef Py_mod_multiple_interpreters
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
#endif
#ifdef Py_mod_gil
    {Py_mod_gil, Py_MOD_GIL_USED},
#endif
    {0, NULL},
};

static struct PyModuleDef fastcall_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "cunumpy._calls._fastcall",
    .m_doc = "The mechanism of cunumpy's compiled fast path (see cunumpy/_calls/_fast_path.py).",
    .m_size = sizeof(module_state),
    .m_slots = fastcall_module_slots,
    .m_traverse = module_traverse,
    .m_clear = module_clear,
    .m_free = module_free,
};

PyMODINIT_FUNC
PyInit__fastcall(void)
{
    return PyModuleDef_Init(&fastcall_module);
}
