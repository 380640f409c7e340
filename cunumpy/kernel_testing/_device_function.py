"""``device_function_kernel``: a ``__device__`` helper wrapped in an elementwise kernel."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..cuda._signature import strip_comments
from ..kernels._cuda_c._cuda_kernel import CudaKernel

__all__ = ["device_function_kernel"]

_PROTOTYPE = re.compile(
    r"^\s*(?P<result>.+?)\s*\b(?P<name>[A-Za-z_]\w*)\s*\((?P<params>.*)\)\s*;?\s*$", re.DOTALL
)
_QUALIFIERS = {"__device__", "__host__", "__forceinline__", "inline", "static"}


def _parameter(text: str, function: str) -> tuple[str, str, bool]:
    """``(C type, name, pointer or reference)`` of one parameter declaration."""
    match = re.match(r"^(?P<type>.*?[\s*&])(?P<name>[A-Za-z_]\w*)\s*$", text.strip())
    if match is None:
        msg = f"device_function_kernel: cannot read the parameter {text!r} of {function!r}."
        raise ValueError(msg)
    ctype = match.group("type").strip()
    return ctype, match.group("name"), "*" in ctype or "&" in ctype


def device_function_kernel(
    header_source: str,
    signature: str,
    *,
    name: str | None = None,
    includes: Sequence[str] = (),
    n_threads_param: str = "n",
    out_param: str = "out",
    **kwargs: Any,
) -> Any:
    """Wrap a ``__device__`` function in an elementwise kernel, to test it from Python.

    The kernel's parameters are the function's, in order (a scalar ``T x`` becomes an
    array ``const T* x`` read at ``x[i]``; pointers and references pass unchanged), then
    ``R* out`` (unless the function returns ``void``) and ``int n``; thread ``i < n``
    stores the result in ``out[i]``. Launch it with ``n_threads=n``.

    Parameters
    ----------
    header_source : str
        CUDA source defining the device function.
    signature : str
        Its C prototype, e.g. ``"double sq(double x)"``.
    name : str, optional
        The kernel's name; default ``"<function>_kernel"``.
    includes : sequence of str, optional
        Headers to ``#include`` first (``"<a.h>"`` with angle brackets).
    n_threads_param, out_param : str, optional
        Names of the generated parameters.
    **kwargs
        Passed to :class:`~cunumpy.kernels.CudaKernel` (``block_size``, ``include_dirs``,
        ``options``, ...).

    Returns
    -------
    CudaKernel
        The wrapper kernel.

    Raises
    ------
    ValueError
        If the prototype cannot be read, or a parameter is named like a generated one.

    Examples
    --------
    >>> import numpy as np
    >>> from cunumpy.kernel_testing import device_function_kernel, emulate_cuda_kernel
    >>> sq = device_function_kernel("__device__ double sq(double x) { return x * x; }", "double sq(double x)")
    >>> [p.name for p in sq.signature]
    ['x', 'out', 'n']
    >>> x, out = np.arange(4.0), np.empty(4)
    >>> emulate_cuda_kernel(sq, x, out, 4, n_threads=4)
    >>> out
    array([0., 1., 4., 9.])
    """
    match = _PROTOTYPE.match(strip_comments(signature))
    if match is None:
        msg = f"device_function_kernel: cannot read the prototype {signature!r}."
        raise ValueError(msg)
    function = match.group("name")
    result = " ".join(w for w in match.group("result").split() if w not in _QUALIFIERS)
    if "*" in result:
        msg = f"device_function_kernel: {function!r} returns a pointer ({result}); only scalars or void can be collected."
        raise ValueError(msg)
    params_text = match.group("params").strip()
    params = (
        []
        if params_text in ("", "void")
        else [_parameter(p, function) for p in params_text.split(",")]
    )
    declarations, calls = [], []
    for ctype, pname, by_address in params:
        if pname in (out_param, n_threads_param):
            msg = f"device_function_kernel: the parameter {pname!r} of {function!r} clashes with a generated parameter; pass another out_param or n_threads_param."
            raise ValueError(msg)
        if by_address:
            declarations.append(f"{ctype} {pname}")
            calls.append(pname)
        else:
            declarations.append(f"const {ctype}* {pname}")
            calls.append(f"{pname}[i]")
    call = f"{function}({', '.join(calls)})"
    body = f"{call};"
    if result != "void":
        declarations.append(f"{result}* {out_param}")
        body = f"{out_param}[i] = {call};"
    declarations.append(f"int {n_threads_param}")
    name = name or f"{function}_kernel"
    include_lines = "".join(
        f"#include {h}\n" if h.startswith("<") else f'#include "{h}"\n' for h in includes
    )
    source = (
        f"{include_lines}{header_source}\n\n"
        f'extern "C" __global__ void {name}({", ".join(declarations)}) {{\n'
        f"    int i = blockDim.x * blockIdx.x + threadIdx.x;\n"
        f"    if (i >= {n_threads_param}) return;\n"
        f"    {body}\n}}\n"
    )
    return CudaKernel(source, name, **kwargs)
