"""Self-checks of the harness: expected-failure files and the generated tables."""

from __future__ import annotations

from pathlib import Path

import pytest

from array_api_tests import DEFAULT_MODULE, ENV_VAR, module_name, xfail_name
from array_api_tests.conftest import XFAIL_DIR, read_xfails
from array_api_tests.special_cases import SPECIAL_CASES

NDARRAY_OPERATOR_REASON = (
    "numpy.ndarray.__floordiv__ follows Python floor semantics for infinite operands; "
    "a namespace of native NumPy arrays cannot change ndarray operators"
)


def test_entry_without_reason_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "mod.txt"
    path.write_text("test_x.py::test_y\n")
    with pytest.raises(pytest.UsageError):
        read_xfails(path)
    path.write_text("# comment\n\ntest_x.py::test_y  # rule broken\n")
    assert read_xfails(path) == [("test_x.py::test_y", "rule broken")]


@pytest.mark.parametrize("path", sorted(XFAIL_DIR.glob("*.txt")), ids=lambda p: p.name)
def test_xfail_files_parse(path: Path) -> None:
    for test_id, reason in read_xfails(path):
        assert test_id.startswith("test_")
        assert reason


def test_cunumpy_lists_only_ndarray_operators() -> None:
    for test_id, reason in read_xfails(XFAIL_DIR / "cunumpy.txt"):
        assert test_id.startswith("test_special_cases.py::test_operator["), test_id
        assert "floordiv__" in test_id, test_id
        assert reason == NDARRAY_OPERATOR_REASON


def test_cunumpy_on_cupy_lists_only_cupy_ndarray_operators() -> None:
    entries = read_xfails(XFAIL_DIR / "cunumpy-cupy.txt")
    assert entries
    for test_id, reason in entries:
        assert test_id.startswith("test_special_cases.py::test_operator[remainder-"), test_id
        assert test_id.endswith(("-__mod__]", "-__imod__]", "-__rmod__]")), test_id
        assert reason.startswith("cupy.ndarray.__mod__ runs CuPy's cupy_remainder kernel")


def test_expected_failure_file_follows_the_backend(monkeypatch: pytest.MonkeyPatch) -> None:
    import cunumpy

    monkeypatch.delenv(ENV_VAR, raising=False)
    with cunumpy.use_backend("numpy"):
        assert xfail_name() == "cunumpy"
    monkeypatch.setenv(ENV_VAR, "array_api_strict")
    assert xfail_name() == "array_api_strict"
    if cunumpy.cupy_available():
        monkeypatch.delenv(ENV_VAR)
        with cunumpy.use_backend("cupy", strict=True):
            assert xfail_name() == "cunumpy-cupy"


def test_module_selection(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    assert module_name() == DEFAULT_MODULE == "cunumpy"
    monkeypatch.setenv(ENV_VAR, "array_api_strict")
    assert module_name() == "array_api_strict"


def test_special_case_table_covers_functions() -> None:
    functions = {f for f, _, _ in SPECIAL_CASES}
    for name in ("floor_divide", "pow", "atan2", "remainder", "divide", "log", "sqrt", "round"):
        assert name in functions
