"""``CudaStructValue``: one packed value of a struct, as a kernel argument."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

__all__ = ["CudaStructValue"]


class CudaStructValue:
    """A packed value of a :class:`CudaStruct`, passed to a kernel as one argument.

    It keeps the arrays it points to alive, flattens into the packed struct through
    ``__cuda_args__()``, and gives the field values as ``value["name"]``.

    Parameters
    ----------
    struct : CudaStruct
        The struct type.
    packed : numpy.void
        The packed bytes, with the C layout.
    values : dict
        The field values by name.

    Examples
    --------
    >>> from cunumpy import arguments
    >>> Params = arguments.CudaStruct("Params", [("dt", "double"), ("n", "int")])
    >>> value = Params(dt=0.1, n=10)
    >>> value["n"], value.packed["n"]
    (10, np.int32(10))
    """

    def __init__(self, struct: Any, packed: np.void, values: Mapping[str, Any]) -> None:
        self._struct = struct
        self._packed = packed
        self._values = dict(values)

    def __repr__(self) -> str:
        return f"<value of struct {self._struct.name}>"

    @property
    def struct(self) -> Any:
        """The struct type."""
        return self._struct

    @property
    def packed(self) -> np.void:
        """The packed bytes, with the C struct's layout."""
        return self._packed

    def __getitem__(self, field: str) -> Any:
        return self._values[field]

    def __cuda_args__(self) -> tuple[np.void]:
        """The one kernel argument this value stands for: the packed struct."""
        return (self._packed,)
