"""``python -m cunumpy``: the report, the self-check, --json and the exit status."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import cunumpy
from cunumpy.__main__ import collect_report, main


def test_report_runs_and_passes() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "cunumpy"], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    for needle in (
        "numpy:",
        "cupy",
        "array-api-compat:",
        "mpi4py:",
        "current: numpy",
        "Self-check",
    ):
        assert needle in out
    verdict = out.strip().splitlines()[-1]
    if cunumpy.cupy_available():
        assert verdict.startswith("OK: all ")
    else:  # says that CuPy is not usable, and why, rather than a bare "OK"
        assert verdict.startswith("OK on NumPy: all ")
        assert verdict.endswith(f"; CuPy not usable: {cunumpy.cupy_unavailable_reason()}")


def test_json_report_matches_the_environment() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "cunumpy", "--json"], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["versions"]["cunumpy"] == cunumpy.__version__
    assert report["backends"]["numpy"]["usable"] is True
    assert report["backends"]["cupy"]["usable"] is cunumpy.cupy_available()
    assert report["backends"]["cupy"]["reason"] == cunumpy.cupy_unavailable_reason()
    assert report["ok"] is True
    assert report["environment"]["variable"] == "CUNUMPY_BACKEND"
    assert report["environment"]["error"] is None
    assert all(r["ok"] for r in report["self_check"]["numpy"])


def test_self_check_failure_gives_exit_status_one(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    import cunumpy.__main__ as cli

    wrong_reference = ("deliberately wrong", lambda xp: xp.ones(2), lambda: [1.0, 2.0])
    monkeypatch.setattr(cli, "_CHECKS", (wrong_reference,))
    assert main([]) == 1
    # every usable backend runs the checks: with a GPU, CuPy fails the wrong one too
    failed = ["numpy: deliberately wrong"]
    if cunumpy.cupy_available():
        failed.append("cupy: deliberately wrong")
    verdict = f"FAILED: {len(failed)} check(s) failed ({'; '.join(failed)})"
    assert verdict in capsys.readouterr().out


def test_no_check_report_has_no_verdict() -> None:
    report = collect_report(run_checks=False)
    assert "verdict" not in report and report["current_backend"] == "numpy"


def test_version_option_prints_the_version(capsys) -> None:  # type: ignore[no-untyped-def]
    import pytest

    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out == f"cunumpy {cunumpy.__version__}\n"
    result = subprocess.run(
        [sys.executable, "-m", "cunumpy", "--version"], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0 and result.stdout == f"cunumpy {cunumpy.__version__}\n"


def test_the_console_script_is_the_same_main() -> None:
    """``cunumpy --version`` runs this ``main`` (the script is ``cunumpy.__main__:main``)."""
    from pathlib import Path

    pyproject = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text()
    assert 'cunumpy = "cunumpy.__main__:main"' in pyproject.split("[project.scripts]", 1)[1]


def test_a_reader_that_stops_early_gets_no_traceback() -> None:
    """``python -m cunumpy --json | head -1``: the pipe closes before the report is out."""
    for args in (["--json"], []):
        with subprocess.Popen(
            [sys.executable, "-m", "cunumpy", "--no-check", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        ) as process:  # fmt: skip
            assert process.stdout is not None and process.stderr is not None
            process.stdout.close()  # before cunumpy is imported: every write finds it closed
            errors = process.stderr.read()
            process.wait(timeout=300)
        assert "Traceback" not in errors and "BrokenPipeError" not in errors, errors


@pytest.mark.fake_cupy
def test_under_the_fake_cupy_every_cupy_line_says_so_and_no_gpu_is_claimed() -> None:
    """Fake CuPy (CPU): the report must not look like a working GPU (issue 26, item 3)."""
    import os

    result = subprocess.run(
        [sys.executable, "-m", "cunumpy"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "CUNUMPY_FAKE_CUPY": "1", "CUNUMPY_BACKEND": "cupy"},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    about_cupy = [line for line in lines if "cupy" in line.lower() or "gpu" in line.lower()]
    assert len(about_cupy) >= 10, result.stdout  # version, backend, current, GPUs, 7 checks
    for line in about_cupy:
        if line.strip() == "GPUs":
            continue
        assert "fake CuPy (CPU)" in line, line
    verdict = lines[-1]
    assert verdict.startswith("OK on NumPy and on the fake CuPy (CPU): all "), verdict
    assert "no GPU was used" in verdict, verdict
    assert "checks passed on numpy, cupy" not in result.stdout


@pytest.mark.fake_cupy
def test_the_json_report_marks_the_fake_cupy_and_lists_no_gpu() -> None:
    import os

    result = subprocess.run(
        [sys.executable, "-m", "cunumpy", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "CUNUMPY_FAKE_CUPY": "1"},
    )
    report = json.loads(result.stdout)
    assert report["backends"]["cupy"]["fake"] is True
    assert report["gpus"] == []
    assert report["versions"]["cupy"].startswith("fake CuPy (CPU)")
    assert "no GPU was used" in report["verdict"]
