"""Moving arrays between the CPU and GPUs: ``device``, ``to_device``, ``to_numpy``, ``to_cupy``."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._namespaces._array_namespace import _library_name, namespace_of, refuse_subclass, renamed
from .._namespaces._array_predicates import is_cupy_array, is_dask_array, is_numpy_array
from .._placement._devices import DLPACK_HOST, canonical_device, library_device
from .._placement._keep_alive import OPEN, note_use
from .._placement._transfer_log import active, describe, nbytes_of, note_transfer
from .._settings._cupy_probe import require_cupy

__all__ = ["device", "move_to", "to_cupy", "to_device", "to_numpy"]


def device(x: Any, /) -> Any:
    """Return the device ``x`` lives on: ``"cpu"`` for NumPy, a ``cupy.cuda.Device`` for CuPy.

    Parameters
    ----------
    x : array
        An array of any supported library.

    Returns
    -------
    device
        A device object, accepted by every ``device=`` argument of cunumpy.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> xp.device(np.zeros(3))
    'cpu'
    """
    if is_numpy_array(x):
        return "cpu"
    if is_cupy_array(x):
        return x.device
    if is_dask_array(x):  # the device of its chunks, read from its meta (cunumpy.dask)
        from .._backends.dask import device as dask_device

        return dask_device(x)
    _foreign_namespace(x, "device")  # TypeError for what is not an array
    import array_api_compat

    return array_api_compat.device(x)


_NOT_ARRAYS = (type(None), bool, int, float, complex, list, tuple, dict, str, bytes)


def _foreign_namespace(x: Any, func: str) -> Any:
    """The namespace of an array cunumpy does not own; TypeError naming ``func`` otherwise."""
    if isinstance(x, _NOT_ARRAYS):
        shown = "None" if x is None else f"{type(x).__qualname__} {x!r:.60}"
        msg = f"{func}: `x` must be an array, not {shown}."
        raise TypeError(msg)
    namespace = namespace_of((x,), func)
    if namespace is None:
        msg = f"{func}: `x` must be an array, not {type(x).__qualname__} {x!r:.60}."
        raise TypeError(msg)
    return namespace


def to_device(x: Any, device: Any, /, *, stream: Any = None) -> Any:
    """Return ``x`` on ``device``, copying it only when it is elsewhere.

    For NumPy and CuPy arrays, ``"cpu"`` gives a NumPy array and a GPU device gives a
    CuPy array on that GPU; when ``x`` already lives on ``device``, ``x`` itself is
    returned. Arrays of other libraries (array-api-strict, PyTorch, JAX, ...) stay in
    their library: their own ``to_device`` moves them, to one of that library's devices
    or to the one that ``"cpu"`` (or ``"cuda:N"``) names.

    Parameters
    ----------
    x : array
        An array of any supported library.
    device : device
        ``"cpu"``, an int GPU index, ``"cuda:N"``, a ``cupy.cuda.Device``, an array's
        ``.device``, or a device of another library (``torch.device``, a JAX device,
        ``array_api_strict.Device``).
    stream : stream, optional
        The CUDA stream to queue the copy on, and on which the result is ready: a stream
        from ``cunumpy.cuda.stream()``, a ``cupy.cuda.Stream``, or an int stream handle
        (the DLPack convention), of the GPU that receives the copy (for a copy to the
        CPU, of the GPU that holds ``x``). ``None`` means the current stream of that
        GPU. Only meaningful for copies that involve a GPU.

    Notes
    -----
    The copy follows the stream-ordering model of the user guide ("Devices, memory and
    streams"): it starts after the work already queued on the current stream of the
    GPU that holds ``x``; a copy to the CPU returns when the data is on the host; a
    copy from the host returns when the host buffer may be reused (for pinned memory
    this waits for the copy itself); with ``stream=s`` the result is ready on ``s``
    (use it inside ``with cunumpy.cuda.stream(s):`` or after
    ``cunumpy.cuda.synchronize(stream=s)``). The memory of ``x`` may be released as
    soon as the call returns.

    Returns
    -------
    array
        ``x`` on ``device``.

    Raises
    ------
    TypeError
        If ``x`` is not an array or ``device`` is not a device.
    ValueError
        If ``device`` is not valid for ``x``'s library, or ``stream`` is given for a copy
        that no GPU takes part in, or belongs to another GPU.
    RuntimeError
        If a GPU is asked for and CuPy is not usable.

    Errors from another library's ``to_device`` are raised again, with the same type
    where possible, naming this function.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> x = np.arange(3)
    >>> xp.to_device(x, "cpu") is x
    True
    """
    return move_to(x, device, stream, "to_device")


def move_to(x: Any, device: Any, stream: Any, caller: str) -> Any:
    """``to_device(x, device, stream=stream)``; the transfer counters see ``caller`` as the function."""
    if is_numpy_array(x):
        refuse_subclass(x, "to_device")
        if stream is not None:
            from ..cuda._streams import _check_stream_type  # the streams load on first use

            _check_stream_type(stream, "to_device")  # a TypeError before any ValueError
        target = canonical_device(device, "to_device")
        if target == "cpu":
            if stream is not None:
                msg = (
                    f"to_device: `stream` {stream!r} cannot be honoured for a NumPy array "
                    f"that stays on the CPU; pass stream=None."
                )
                raise ValueError(msg)
            return x
        require_cupy("to_device")
        from .._backends.cupy._creation import copy_from_host
        from ..cuda._streams import on_device_and_stream

        with on_device_and_stream(target, stream, "to_device"):
            return copy_from_host(x, caller)
    if is_cupy_array(x):
        target = canonical_device(device, "to_device")
        if OPEN:  # read inside a stream() block: alive until the block has run
            note_use((x,))
        from .._backends.cupy._device_copies import copy_from_other_gpu, ready_on, to_host
        from ..cuda._streams import as_cupy_stream, on_device_and_stream

        source = int(x.device.id)
        if target == "cpu":
            return to_host(x, as_cupy_stream(stream, source, "to_device"), caller)
        if target == source:
            ready_on(x, as_cupy_stream(stream, source, "to_device"))
            return x
        with on_device_and_stream(target, stream, "to_device"):
            return copy_from_other_gpu(x, caller)
    if is_dask_array(x):  # each chunk moves when computed (cunumpy.dask)
        from .._backends.dask import to_device as dask_to_device

        return dask_to_device(x, device, stream=stream)
    return _foreign_to_device(x, device, stream, caller)


def _foreign_to_device(x: Any, device: Any, stream: Any, caller: str) -> Any:
    """Move an array of another library with that library's own ``to_device``."""
    namespace = _foreign_namespace(x, "to_device")
    target = library_device(x, device, namespace, "to_device")
    import array_api_compat  # knows the libraries whose arrays lack ``to_device``

    try:
        result = array_api_compat.to_device(x, target, stream=stream)
    except Exception as exc:
        msg = f"to_device: {_library_name(x)} could not move the array to {device!r}: {exc}"
        raise renamed(exc, msg) from exc
    if active() and result is not x:
        _note_foreign_copy(x, result, caller)
    return result


def _note_foreign_copy(x: Any, result: Any, caller: str) -> None:
    """Tell the transfer counters of another library's copy between host and GPU."""
    try:
        kinds = (int(x.__dlpack_device__()[0]), int(result.__dlpack_device__()[0]))
    except (AttributeError, TypeError, ValueError, BufferError):
        return  # no DLPack device: where the data went is unknown
    host = tuple(kind in DLPACK_HOST for kind in kinds)
    if host == (True, False):
        kind = "to_device"
    elif host == (False, True):
        kind = "to_host"
    else:
        return  # on one side of the host/GPU divide: no transfer between them
    detail = f"{_library_name(x)} to {result.device!r}"
    note_transfer(kind, describe(caller, x, detail), nbytes=nbytes_of(result))


def to_numpy(x: Any, /) -> np.ndarray:
    """Return ``x`` as a NumPy array, copying from the GPU when needed.

    NumPy arrays are returned as they are; CuPy arrays are copied to the host after the
    work queued on the current stream of their GPU, which, by the stream-ordering model,
    includes every ``cunumpy.cuda.stream()`` block that has ended; other arrays, Python
    scalars and sequences go through ``numpy.asarray``.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> xp.to_numpy([1, 2])
    array([1, 2])
    """
    if type(x) is np.ndarray:
        return x
    refuse_subclass(x, "to_numpy")
    if is_cupy_array(x):
        from .._backends.cupy._device_copies import to_host

        return to_host(x, None)
    if hasattr(x, "__dlpack__") and not is_numpy_array(x):
        try:
            return np.from_dlpack(x)
        except (BufferError, TypeError, RuntimeError, ValueError):
            pass
    result = np.asarray(x)
    if result.dtype.kind in "OUSVMm":  # None, strings, objects: no array of numbers
        msg = (
            f"to_numpy: cannot make an array of numbers from {type(x).__qualname__} "
            f"{x!r:.60} (NumPy would give dtype {result.dtype}); pass an array, numbers or "
            f"nested lists of numbers."
        )
        raise TypeError(msg)
    return result


def to_cupy(x: Any, /) -> Any:
    """Return ``x`` as a CuPy array on the current GPU (``x`` itself if it is one).

    The copy is queued on the current stream of the current GPU. The call returns when
    the host buffer may be refilled (for pinned memory it waits for the copy itself), as
    the stream-ordering model of the user guide says.

    Raises
    ------
    RuntimeError
        If CuPy is not usable; the message gives the reason (not installed, no GPU, ...).

    Examples
    --------
    >>> import cunumpy as xp
    >>> if xp.cupy_available():
    ...     assert xp.is_cupy_array(xp.to_cupy([1.0, 2.0]))
    """
    refuse_subclass(x, "to_cupy")  # a masked array's mask would be lost
    require_cupy("to_cupy")
    if is_cupy_array(x):
        return x
    if not (is_numpy_array(x) or isinstance(x, (list, tuple, int, float, complex, bool))):
        x = to_numpy(x)
    from .._backends.cupy._creation import copy_from_host

    return copy_from_host(x, "to_cupy")
