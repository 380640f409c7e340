"""Argument objects: groups flattened into several kernel parameters, or packed into one struct."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ._struct import CudaStruct, CudaStructValue

__all__ = ["CudaArguments", "CudaStructArguments"]


class CudaArguments:
    """Base class of objects passed to a CUDA kernel as several arguments.

    A :class:`~cunumpy.kernels.CudaKernel` replaces an argument that has a
    ``__cuda_args__()`` method by the values it returns, in order; subclassing is
    optional, any object with that method is flattened.

    Parameters
    ----------
    *values
        The kernel arguments the object stands for, in the signature's order.

    Examples
    --------
    >>> import numpy as np
    >>> from cunumpy import arguments
    >>> class Particles(arguments.CudaArguments):
    ...     def __init__(self, positions, velocities):
    ...         super().__init__(positions, velocities, positions.shape[0])
    >>> Particles(np.zeros(2), np.ones(2)).__cuda_args__()
    (array([0., 0.]), array([1., 1.]), 2)
    """

    def __init__(self, *values: Any) -> None:
        self._cuda_args = tuple(values)

    def __cuda_args__(self) -> tuple[Any, ...]:
        """The kernel arguments this object stands for."""
        return self._cuda_args


class CudaStructArguments(CudaArguments):
    """Base class of argument objects passed to CUDA kernels as one C struct.

    A subclass sets ``struct_name`` and ``fields`` (as for :class:`CudaStruct`), stores
    each field as an attribute of the same name and calls :meth:`pack` at the end of its
    constructor. It reaches the kernel as the packed struct, repacked whenever a field
    changed (another array, shape, strides or scalar), so a field may be a property that
    reads an owner's current array. A subclass that sets neither is an intermediate base
    class; setting one of the two raises ``TypeError``.

    Attributes
    ----------
    struct_name : str
        The struct's C name.
    fields : sequence of (str, str)
        ``(field name, C type)`` pairs.
    struct : CudaStruct
        The struct type, made once when the subclass is defined.

    Examples
    --------
    >>> from cunumpy import arguments
    >>> class StepArguments(arguments.CudaStructArguments):
    ...     struct_name = "StepArgs"
    ...     fields = (("dt", "double"), ("n_steps", "int"))
    ...
    ...     def __init__(self, dt, n_steps):
    ...         self.dt = dt
    ...         self.n_steps = n_steps
    ...         self.pack()
    >>> print(StepArguments.struct.declaration, end="")
    struct StepArgs {
        double dt;
        int n_steps;
    };
    >>> step = StepArguments(0.5, 3)
    >>> step.n_steps = 4  # repacked at the next use
    >>> int(step.packed["n_steps"])
    4
    """

    struct_name: ClassVar[str]
    fields: ClassVar[Sequence[tuple[str, str]]]
    struct: ClassVar[CudaStruct]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        has_name, has_fields = "struct_name" in cls.__dict__, "fields" in cls.__dict__
        if has_name != has_fields:
            msg = (
                f"{cls.__qualname__}: a CudaStructArguments subclass sets both `struct_name` "
                "and `fields`, or neither (an intermediate base class)."
            )
            raise TypeError(msg)
        if has_name:
            cls.struct = CudaStruct(cls.struct_name, cls.fields)

    def _values(self, struct: CudaStruct) -> dict[str, Any]:
        values = {}
        for field in struct.fields:
            try:
                values[field.name] = getattr(self, field.name)
            except AttributeError:
                msg = (
                    f"{type(self).__qualname__} has no attribute {field.name!r} for the "
                    f"field of struct {struct.name}; set self.{field.name} before pack()."
                )
                raise AttributeError(msg) from None
        return values

    def pack(self) -> None:
        """Pack the field attributes now, so that a bad value raises in the constructor.

        Raises
        ------
        TypeError
            If the class defines no struct, or a value does not fit its field.
        AttributeError
            If a field has no attribute.
        """
        struct = getattr(type(self), "struct", None)
        if struct is None:
            msg = f"{type(self).__qualname__} defines no `struct_name` and `fields` to pack."
            raise TypeError(msg)
        values = self._values(struct)
        self._state = _state(struct, values)
        self._value: CudaStructValue = struct(**values)

    @property
    def packed(self) -> np.void:
        """The packed struct, repacked first if a field changed since."""
        if "_value" not in self.__dict__:
            self.pack()
            return self._value.packed
        struct = type(self).struct
        values = self._values(struct)
        state = _state(struct, values)
        if state != self._state:
            self._value = struct(**values)
            self._state = state
        return self._value.packed

    def __cuda_args__(self) -> tuple[np.void]:
        """The one kernel argument this object stands for: the packed struct."""
        return (self.packed,)

    def __getstate__(self) -> dict[str, Any]:
        # the packed bytes hold device addresses that a copy or another process lacks
        return {k: v for k, v in self.__dict__.items() if k not in ("_value", "_state")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.pack()


def _state(struct: CudaStruct, values: Mapping[str, Any]) -> tuple[Any, ...]:
    """What the packed bytes depend on: each array's address, shape, strides; each scalar."""
    state: list[Any] = []
    for field in struct.fields:
        value = values[field.name]
        if field.pointer or field.view_ndim is not None:
            pointer = getattr(getattr(value, "data", None), "ptr", None)
            shape = tuple(getattr(value, "shape", ()))
            state.append((id(value),) if pointer is None else (pointer, shape, value.strides))
        elif isinstance(value, (bool, int, float, complex, np.generic)):
            state.append((type(value), value))
        else:
            state.append((id(value),))
    return tuple(state)
