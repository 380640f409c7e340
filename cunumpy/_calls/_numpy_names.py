"""The NumPy function that each of cunumpy's names means, where NumPy spells it otherwise.

NumPy's calls at the top level (``cunumpy/_calls/_numpy_calls.py``) run the library's function
of the same meaning; ``tools/generate_api.py`` names it in the docstrings; Numba compiles a
cunumpy name as this NumPy name (``cunumpy/_numba_names.py``). NumPy 2 has the standard's
names as aliases too (``numpy.permute_dims`` is a function of its own), CuPy does not: the
older names work on both.
"""

__all__ = ["NUMPY_MODULES", "NUMPY_NAMES", "numpy_name"]

NUMPY_NAMES = {
    "acos": "arccos",
    "acosh": "arccosh",
    "asin": "arcsin",
    "asinh": "arcsinh",
    "atan": "arctan",
    "atan2": "arctan2",
    "atanh": "arctanh",
    "bitwise_invert": "invert",
    "bitwise_left_shift": "left_shift",
    "bitwise_right_shift": "right_shift",
    "concat": "concatenate",
    "permute_dims": "transpose",
    "pow": "power",
}

#: The NumPy module that each public module of cunumpy with NumPy's names stands for.
NUMPY_MODULES = {"cunumpy": "numpy", "cunumpy.linalg": "numpy.linalg", "cunumpy.fft": "numpy.fft"}


def numpy_name(module: str, name: str) -> tuple[str, str]:
    """NumPy's module and name of the function that cunumpy's ``module.name`` means.

    ``module`` is a key of ``NUMPY_MODULES``; the name is NumPy's own spelling of the
    standard's name (``NUMPY_NAMES``), whether or not NumPy has it.

    Examples
    --------
    >>> numpy_name("cunumpy", "acos")
    ('numpy', 'arccos')
    >>> numpy_name("cunumpy.linalg", "solve")
    ('numpy.linalg', 'solve')
    """
    return NUMPY_MODULES[module], NUMPY_NAMES.get(name, name)
