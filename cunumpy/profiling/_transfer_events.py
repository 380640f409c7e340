"""One copy between host and device, as the transfer counters record it."""

from __future__ import annotations

from dataclasses import dataclass

from .._placement._transfer_log import KINDS

__all__ = ["TransferEvent", "check_kind"]


def check_kind(kind: object, func: str) -> str:
    """``kind`` if it is one of the transfer kinds, else a ``ValueError`` naming ``func``."""
    if not isinstance(kind, str):
        msg = f"{func}: `kind` must be a str, one of {KINDS}, not {kind!r}."
        raise TypeError(msg)
    if kind not in KINDS:
        msg = f"{func}: unknown transfer kind {kind!r}; expected one of {KINDS}."
        raise ValueError(msg)
    return kind


@dataclass(frozen=True)
class TransferEvent:
    """One copy between host and device (or a marker) seen by :func:`count_transfers`.

    Attributes
    ----------
    kind : str
        ``"to_host"`` or ``"to_device"`` (a copy between host and device),
        ``"kernel_conversion"`` or ``"fallback"`` (a kernel call that ran on the host with
        device data: one marker per call), ``"device_copy"`` (a copy that stays on GPUs)
        or ``"sync"`` (the host waited for a GPU).
    description : str
        What was copied, such as ``"to_numpy(shape=(1000,), dtype=float64) from cuda:0"``.
    where : str
        The call site that caused it, as ``"file:line"``: the innermost frame outside
        cunumpy's package.
    nbytes : int or None
        Bytes copied; ``None`` for markers and syncs.
    blocking : bool
        Whether the host waited for the copy to end.
    implicit : bool
        Whether the program did not ask for it explicitly.

    Examples
    --------
    >>> from cunumpy import profiling
    >>> event = profiling.TransferEvent("to_host", "x", "step.py:12", nbytes=8)
    >>> print(event)
    step.py:12: to_host: x
    >>> event.label
    'x'
    """

    kind: str
    description: str
    where: str
    nbytes: int | None = None
    blocking: bool = True
    implicit: bool = False

    @property
    def label(self) -> str:
        """``description``, marked ``[async]`` when not blocking and ``[implicit]`` when implicit."""
        marks = ("" if self.blocking else " [async]") + (" [implicit]" if self.implicit else "")
        return self.description + marks

    def __str__(self) -> str:
        return f"{self.where}: {self.kind}: {self.label}"
