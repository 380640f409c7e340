"""Configuration and errors: the only global state, and what it is decided from.

The process default backend and its context-local overrides (``_config``,
``_environment``, ``_landscape``), whether CuPy is usable (``_cupy_probe``), versions
(``_versions``), the distributions and the install hints of optional dependencies
(``_distributions``), the public home of public classes (``_homes``), the user's frame
on the stack (``_user_frames``), the backends' errors restated with the function and
the argument (``_errors``) and the top level's dtype rule (``_dtype_rules``). The lowest floor: at module level it imports no other
cunumpy package.
"""
