"""The fake CuPy's ``mgrid``, ``ogrid``, ``r_`` and ``c_``: CuPy's objects, making device arrays.

NumPy's objects would make NumPy arrays, which CuPy's indexing refuses. These follow
CuPy 14.2's code (``cupy/_creation/ranges.py``'s ``nd_grid`` and
``cupy/_indexing/generate.py``'s ``AxisConcatenator``) on the host buffers, with CuPy's
limits: ``ogrid`` gives a list, and ``r_``/``c_`` refuse slices (``r_[1:3]``) and string
directives (``r_["0,2", x]``) with ``NotImplementedError``. Host data (scalars, lists,
NumPy arrays) is copied in, as CuPy copies it to the GPU.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._ndarray import ndarray

__all__ = ["c_", "mgrid", "ogrid", "r_"]


def _host(value: Any) -> Any:
    """A fake array's host buffer, also inside lists and tuples; other data as it is."""
    if type(value) is ndarray:
        return value._a
    if isinstance(value, (list, tuple)):
        return [_host(item) for item in value]
    return value


class _NdGrid:
    """CuPy's ``nd_grid``: dense (``mgrid``) or open (``ogrid``) mesh grids."""

    def __init__(self, sparse: bool = False) -> None:
        self.sparse = sparse

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, slice):
            start = 0 if key.start is None else key.start
            step = key.step
            if isinstance(step, complex):
                step = abs(step)
                length = int(step)
                if step != 1:
                    step = (key.stop - start) / float(step - 1)
                return ndarray._of(np.arange(0, length, 1, dtype=float) * step + start)
            return ndarray._of(np.arange(start, key.stop, step))
        size = []
        typ: type = int
        for part in key:
            start = 0 if part.start is None else part.start
            step = 1 if part.step is None else part.step
            if isinstance(step, complex):
                size.append(int(abs(step)))
                typ = float
            else:
                size.append(math.ceil((part.stop - start) / (step * 1.0)))
            if isinstance(step, float) or isinstance(start, float) or isinstance(part.stop, float):
                typ = float
        grids: Any = (
            [np.arange(n, dtype=typ) for n in size] if self.sparse else np.indices(size, typ)
        )
        for k, part in enumerate(key):
            start = 0 if part.start is None else part.start
            step = 1 if part.step is None else part.step
            if isinstance(step, complex):
                step = int(abs(step))
                if step != 1:
                    step = (part.stop - start) / float(step - 1)
            grids[k] = grids[k] * step + start
        if not self.sparse:
            return ndarray._of(grids)
        out = []
        for k, grid in enumerate(grids):
            shape = [1] * len(size)
            shape[k] = grid.size
            out.append(ndarray._of(grid.reshape(shape)))
        return out  # a list, as CuPy's

    def __len__(self) -> int:
        return 0


class _AxisConcatenator:
    """CuPy's ``AxisConcatenator``: arrays and scalars joined along ``axis``."""

    def __init__(self, axis: int = 0, ndmin: int = 1, trans1d: int = -1) -> None:
        self.axis = axis
        self.ndmin = ndmin
        self.trans1d = trans1d

    def _output_obj(self, obj: np.ndarray, ndim: int, ndmin: int, trans1d: int) -> np.ndarray:
        k2 = ndmin - ndim
        if trans1d < 0:
            trans1d += k2 + 1
        defaxes = list(range(ndmin))
        axes = defaxes[:trans1d] + defaxes[k2:] + defaxes[trans1d:k2]
        return obj.transpose(axes)

    def __getitem__(self, key: Any) -> ndarray:
        if isinstance(key, str):
            raise NotImplementedError
        if not isinstance(key, tuple):
            key = (key,)
        objs: list[np.ndarray] = []
        arrays: list[np.ndarray] = []
        scalars: list[int] = []
        for i, k in enumerate(key):
            if isinstance(k, slice):
                raise NotImplementedError
            if isinstance(k, str):
                if i != 0:
                    msg = "special directives must be the first entry."
                    raise ValueError(msg)
                raise NotImplementedError
            if type(k) in np.ScalarType:
                new = np.array(k, ndmin=self.ndmin)
                scalars.append(i)
            else:
                host = _host(k)
                new = np.array(host, ndmin=self.ndmin)
                ndim = np.ndim(host)
                if self.ndmin > 1 and self.trans1d != -1 and ndim < self.ndmin:
                    new = self._output_obj(new, ndim, self.ndmin, self.trans1d)
                arrays.append(new)
            objs.append(new)
        final_dtype = np.result_type(*arrays, *[key[k] for k in scalars])
        for k in scalars:
            objs[k] = objs[k].astype(final_dtype)
        return ndarray._of(np.concatenate(tuple(objs), axis=self.axis))

    def __len__(self) -> int:
        return 0


mgrid = _NdGrid(sparse=False)
ogrid = _NdGrid(sparse=True)
r_ = _AxisConcatenator()
c_ = _AxisConcatenator(-1, ndmin=2, trans1d=0)
