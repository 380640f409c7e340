"""array_api_tests/public_suite/run.py: the backends' modules and lists, --module, --no-shrink."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from array_api_tests.public_suite import run

pytest_plugins = ["pytester"]


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    (tmp_path / "array_api_tests").mkdir()
    (tmp_path / "array-api" / "src").mkdir(parents=True)
    return tmp_path


def _launched(monkeypatch: pytest.MonkeyPatch, checkout: Path, *argv: str) -> dict[str, Any]:
    seen: dict[str, Any] = {}

    def fake_run(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        seen["command"], seen["env"] = command, kwargs["env"]
        seen["xfails"] = Path(
            next(a for a in command if a.startswith("--xfails-file=")).split("=", 1)[1]
        ).read_text()
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(run.subprocess, "run", fake_run)
    monkeypatch.setattr(run, "missing_prerequisite", lambda: None)  # the suite's own packages
    assert run.main([str(checkout), *argv]) == 0
    return seen


def test_the_dask_backend_tests_cunumpy_dask_with_its_own_list(
    monkeypatch: pytest.MonkeyPatch, checkout: Path
) -> None:
    seen = _launched(monkeypatch, checkout, "--backend", "dask", "--max-examples", "20")
    assert seen["env"]["ARRAY_API_TESTS_MODULE"] == "cunumpy.dask"
    assert seen["env"]["CUNUMPY_BACKEND"] == "numpy"
    assert "test_unique_values" in seen["xfails"]
    assert "no_shrink_plugin" not in seen["command"]


def test_module_and_no_shrink(monkeypatch: pytest.MonkeyPatch, checkout: Path) -> None:
    seen = _launched(
        monkeypatch, checkout, "--backend", "dask", "--module", "array_api_compat.dask.array",
        "--no-shrink",
    )  # fmt: skip
    assert seen["env"]["ARRAY_API_TESTS_MODULE"] == "array_api_compat.dask.array"
    assert "no_shrink_plugin" in seen["command"]
    assert seen["command"][seen["command"].index("no_shrink_plugin") - 1] == "-p"
    assert str(run.HERE) in seen["env"]["PYTHONPATH"].split(":")


def test_every_dask_entry_has_a_reason_naming_dask() -> None:
    entries = run.read_entries(run.HERE / "xfails-dask.txt")
    assert len(entries) == 34
    assert all("dask" in reason.lower() or "Dask" in reason for _, reason in entries)


def test_the_no_shrink_plugin_drops_the_shrink_phase(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    # In subprocesses: the plugin loads a Hypothesis profile, which is global state.
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join([str(run.HERE), os.environ.get("PYTHONPATH", "")])
    )
    pytester.makepyfile(
        test_phases="""
        from hypothesis import Phase, settings

        def test_no_shrink():
            assert Phase.shrink not in settings().phases
            assert Phase.generate in settings().phases
        """
    )
    assert pytester.runpytest_subprocess("-p", "no_shrink_plugin").ret == 0
    assert pytester.runpytest_subprocess().ret == 1  # without it, the default profile shrinks


def test_a_missing_prerequisite_is_one_line_naming_the_package_and_the_extra(
    monkeypatch: pytest.MonkeyPatch, checkout: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    real = run.importlib.util.find_spec
    monkeypatch.setattr(
        run.importlib.util, "find_spec", lambda name: None if name == "ndindex" else real(name)
    )
    with pytest.raises(SystemExit) as info:
        run.main([str(checkout)])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.endswith(
        "the public Array API test suite needs ndindex, which is not installed: pip install "
        "ndindex (from a source checkout of cunumpy: pip install '.[conformance]')\n"
    )
    assert err.count("\n") == 1
