"""The standard's names whose NumPy function (and CuPy's) has another name.

NumPy's calls at the top level (``cunumpy/_calls/_numpy_calls.py``) run the library's function
of the same meaning; ``tools/generate_api.py`` names it in the docstrings. NumPy 2 has
the standard's names as aliases too, CuPy does not: the older names work on both.
"""

__all__ = ["NUMPY_NAMES"]

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
