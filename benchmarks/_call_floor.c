/* The least a call of an object that is not a builtin function costs in CPython.
 *
 * `Identity()` is a callable that returns its first argument and does nothing else:
 * cunumpy's compiled fast path (cunumpy/_calls/_fastcall.c) does no less for
 * `asarray(ndarray)`. CPython 3.11 specializes the call of a builtin function such as
 * `numpy.asarray` (PRECALL_BUILTIN_FAST_WITH_KEYWORDS) and of no other callable, so
 * `Identity()(a)` against `numpy.asarray(a)` is the floor of any top level made of
 * objects that carry their declaration (`__wrapped__`, ufunc methods). Built at run time
 * by `benchmarks/bench_numpy_calls.py`, for that figure only; not part of cunumpy.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
} Identity;

static PyObject *
identity_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    if (PyVectorcall_NARGS(nargsf) != 1 || kwnames != NULL) {
        PyErr_SetString(PyExc_TypeError, "Identity() takes one positional argument");
        return NULL;
    }
    return Py_NewRef(args[0]);
}

static PyObject *
identity_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    Identity *self = (Identity *)type->tp_alloc(type, 0);
    if (self != NULL) {
        self->vectorcall = identity_vectorcall;
    }
    return (PyObject *)self;
}

static PyTypeObject IdentityType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_call_floor.Identity",
    .tp_basicsize = sizeof(Identity),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_vectorcall_offset = offsetof(Identity, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_new = identity_new,
};

static struct PyModuleDef call_floor_module = {
    PyModuleDef_HEAD_INIT, "_call_floor", "A do-nothing callable: the floor of a call.", -1,
};

PyMODINIT_FUNC
PyInit__call_floor(void)
{
    if (PyType_Ready(&IdentityType) < 0) {
        return NULL;
    }
    PyObject *module = PyModule_Create(&call_floor_module);
    if (module != NULL && PyModule_AddObjectRef(module, "Identity", (PyObject *)&IdentityType) < 0) {
        Py_CLEAR(module);
    }
    return module;
}
