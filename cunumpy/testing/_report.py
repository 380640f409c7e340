"""The failure messages of the assertions: what both operands are, how many elements fail,
where, by how much, and both arrays (summarized when they are large)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._compare import MAX_ROWS, Failures, first_failing

__all__ = ["Operand", "metadata_message", "shape_message", "values_message"]

_HINTS = {
    "namespaces": "check_namespace=False",
    "shapes": "check_shape=False",
    "dtypes": "check_dtype=False",
    "devices": "check_device=False",
}


@dataclass(frozen=True)
class Operand:
    """One side of a comparison, described without touching its data."""

    name: str
    shape: tuple[int, ...]
    dtype: str
    device: str
    namespace: str

    def line(self, width: int) -> str:
        label = f"{self.name}:".ljust(width + 1)
        return (
            f"  {label} shape {self.shape}, dtype {self.dtype}, device {self.device}, "
            f"namespace {self.namespace}"
        )


def _head(func: str, headline: str, err_msg: str, operands: Sequence[Operand]) -> list[str]:
    lines = [f"{func}: {headline}"]
    if err_msg:
        lines.append(f"  {err_msg}")
    width = max(len(op.name) for op in operands)
    lines.extend(op.line(width) for op in operands)
    return lines


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def metadata_message(
    func: str, differing: Sequence[str], operands: Sequence[Operand], err_msg: str
) -> str:
    """The message when namespaces, shapes, dtypes or devices differ (values not compared)."""
    hint = ", ".join(_HINTS[what] for what in differing)
    headline = (
        f"the {_and(differing)} differ; the values were not compared "
        f"(pass {hint} to compare them anyway)"
    )
    return "\n".join(_head(func, headline, err_msg, operands))


def shape_message(func: str, operands: Sequence[Operand], err_msg: str) -> str:
    """The message when ``check_shape=False`` and the shapes do not broadcast."""
    first, second = operands
    headline = f"the shapes {first.shape} and {second.shape} do not broadcast together"
    return "\n".join(_head(func, headline, err_msg, operands))


def _number(value: float) -> str:
    if np.isnan(value):
        return "nan"
    return f"{value:.6g}"


def _index(key: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(i) for i in key) + "]" if key else "[()]"


def _element(x: np.ndarray, key: tuple[int, ...]) -> str:
    return str(x[key])


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Left-aligned columns; the last cell of each row (a note, often empty) has no header."""
    table = [[*header, ""], *rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    return [
        ("    " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths))).rstrip()
        for row in table
    ]


def _array_lines(name: str, x: np.ndarray, width: int) -> list[str]:
    label = f"  {f'{name}:'.ljust(width + 1)} "
    with np.printoptions(threshold=120, edgeitems=3, linewidth=88):
        text = np.array_repr(x)
    pad = " " * len(label)
    first, *rest = text.splitlines()
    return [label + first, *(pad + line for line in rest)]


def _largest(values: np.ndarray, mask: np.ndarray) -> tuple[float, tuple[int, ...]] | None:
    """The largest non-NaN value of ``values`` where ``mask`` is set, and its index."""
    candidates = np.where(mask & ~np.isnan(values), values, -np.inf)
    if candidates.size == 0 or not np.any(mask & ~np.isnan(values)):
        return None
    flat = int(np.argmax(candidates))
    key = tuple(int(i) for i in np.unravel_index(flat, values.shape))
    return float(values[key]), key


def values_message(
    func: str,
    headline: str,
    operands: Sequence[Operand],
    hosts: Sequence[np.ndarray],
    failures: Failures,
    *,
    err_msg: str,
    criterion: str,
    error_names: Sequence[tuple[str, str]],
) -> str:
    """The message for failing elements.

    ``error_names`` pairs each error column with its label in the summary lines, e.g.
    ``("abs error", "largest absolute error")``; an empty label leaves the summary out.
    """
    lines = _head(func, headline, err_msg, operands)
    columns: list[np.ndarray] = [failures.difference, failures.relative][: len(error_names)]
    for (_, summary), values in zip(error_names, columns):
        if not summary:
            continue
        found = _largest(values, failures.mask)
        if found is None:
            lines.append(f"  {summary}: none (every failing element involves NaN)")
        else:
            value, key = found
            lines.append(f"  {summary}: {_number(value)} at index {_index(key)}")
    first, second = hosts
    shown = first_failing(failures.mask, MAX_ROWS)
    rows = []
    for key in shown:
        row = [_index(key), _element(first, key), _element(second, key)]
        row += [_number(float(values[key])) for values in columns]
        row.append(failures.notes.get(key, ""))
        rows.append(row)
    header = ["index", operands[0].name, operands[1].name, *(name for name, _ in error_names)]
    lines.append(f"  failing elements ({criterion}):")
    lines.extend(_table(header, rows))
    if failures.count > len(shown):
        lines.append(f"    ... and {failures.count - len(shown)} more")
    width = max(len(op.name) for op in operands)
    for operand, host in zip(operands, hosts):
        lines.extend(_array_lines(operand.name, host, width))
    return "\n".join(lines)


def fraction(count: int, total: int, plural: str, singular: str) -> str:
    """``"2 of 6 elements (33.3%) differ"``: the verb agrees with ``count``."""
    noun = "element" if total == 1 else "elements"
    verb = singular if count == 1 else plural
    return f"{count} of {total} {noun} ({100.0 * count / total:.3g}%) {verb}"


def format_tolerance(value: Any) -> str:
    """A tolerance as the user would type it."""
    return f"{float(value):g}"
