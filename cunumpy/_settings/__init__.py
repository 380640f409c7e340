"""Settings and errors: what the backend choice and every floor above are decided from.

The backends' names (``_backend_names``), whether CuPy is usable (``_cupy_probe``), the
distributions and the install hints of optional dependencies (``_distributions``), the
public home of public classes (``_homes``), the user's frame on the stack
(``_user_frames``), the backends' errors restated with the function and the argument
(``_errors``) and the top level's dtype rule (``_dtype_rules``). The lowest floor: it
imports no other cunumpy package, in functions neither. The choice itself (the process
default backend and its context-local overrides) is ``_backend_choice``'s, above the
backends' namespaces.
"""
