"""cunumpy.testing.plugin, run in a nested pytest session (pytester) on small test files."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from plugin_entry_point import entry_point_args

import cunumpy

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent
PLUGIN = ("-p", "cunumpy.testing.plugin")
GPU = cunumpy.cupy_available()
JAX = importlib.util.find_spec("jax") is not None
TORCH = importlib.util.find_spec("torch") is not None
STRICT = importlib.util.find_spec("array_api_strict") is not None
# Imported here, before pytester's nested sessions: each of them drops the modules it
# imported, and jaxlib aborts the process, and torch crashes it, when imported a second time.
if JAX:
    importlib.import_module("jax.numpy")
if TORCH:
    importlib.import_module("torch")
# Dask too: a nested session that drops it leaves a broken metadata finder behind.
DASK = importlib.util.find_spec("dask") is not None
if DASK:
    importlib.import_module("cunumpy.dask")

SIMPLE = """
import cunumpy
from cunumpy.testing import assert_close

def test_sum(xp):
    x = xp.asarray([1.0, 2.0, 3.0])
    assert_close(xp.sum(x), xp.asarray(6.0))
"""


def _ids(result: pytest.RunResult, test: str) -> set[str]:
    """The parameter ids of ``test`` in a ``-v`` run's output."""
    found = set()
    for line in result.outlines:
        if line.startswith(f"test_file.py::{test}["):
            found.add(line.split("[", 1)[1].split("]", 1)[0])
    return found


def test_xp_runs_on_every_default_namespace(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_file=SIMPLE)
    result = pytester.runpytest(*PLUGIN, "-v", "-ra")
    expected = {"numpy", "cupy", "array_api_strict", "cunumpy"}
    expected |= {"jax"} if JAX else set()
    expected |= {"torch"} if TORCH else set()
    assert _ids(result, "test_sum") == expected
    usable = {"numpy", "cunumpy"} | ({"cupy"} if GPU else set()) | ({"jax"} if JAX else set())
    usable |= {"torch"} if TORCH else set()
    usable |= {"array_api_strict"} if STRICT else set()
    result.assert_outcomes(passed=len(usable), skipped=len(expected) - len(usable))
    if not GPU:
        reason = cunumpy.cupy_unavailable_reason()
        assert reason is not None
        # plain text, not fnmatch: without CuPy the reason names '.[cuda12]', brackets
        out = result.stdout.lines
        assert (
            f"SKIPPED [1] cunumpy.testing.plugin: cupy: {reason}; without a GPU, "
            "CUNUMPY_FAKE_CUPY=1 runs it on the fake CuPy (on the CPU, not a GPU check)" in out
        )
        namespaces = f"cunumpy.testing: xp namespaces: numpy; cupy (skipped: {reason})"
        assert any(line.startswith(namespaces) for line in out), out  # fmt: skip


def test_the_plugin_can_be_turned_off(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_file=SIMPLE)
    result = pytester.runpytest("-p", "no:cunumpy", "-p", "no:cunumpy.testing.plugin")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*fixture 'xp' not found*"])


def test_the_entry_point_module_loads_the_plugin_once(pytester: pytest.Pytester) -> None:
    # _cunumpy_pytestplugin is what the pytest11 entry point names; with the conftest line
    # as well, the plugin is registered once (pluggy refuses a second registration)
    pytester.makeconftest('pytest_plugins = ["cunumpy.testing.plugin"]')
    pytester.makepyfile(test_file=SIMPLE)
    result = pytester.runpytest(*entry_point_args(), "--xp=numpy,cunumpy")
    result.assert_outcomes(passed=2)


OWN_XP = """
def pytest_addoption(parser):
    parser.addoption("--xp", action="store", default="theirs", help="the project's own --xp")


def pytest_report_header(config):
    return "project xp: " + config.getoption("--xp")
"""


@pytest.mark.parametrize("how", ["entry point", "-p"])
def test_a_project_with_its_own_xp_option_keeps_it_and_ours_is_cunumpy_xp(
    pytester: pytest.Pytester, how: str
) -> None:
    # The plugin loads itself into every run of an environment with cunumpy; a project
    # whose conftest.py adds --xp must still start, and its --xp stays its own.
    pytester.makeconftest(OWN_XP)
    pytester.makepyfile(test_file=SIMPLE)
    enable = entry_point_args() if how == "entry point" else PLUGIN
    result = pytester.runpytest(*enable, "-v", "--xp=mine", "--cunumpy-xp=numpy,cunumpy")
    assert result.ret == pytest.ExitCode.OK, result.stderr.str()
    result.stdout.fnmatch_lines(["project xp: mine"])
    assert _ids(result, "test_sum") == {"numpy", "cunumpy"}
    result.assert_outcomes(passed=2)
    result = pytester.runpytest(*enable, "--cunumpy-xp=numpy,mumpy")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: --cunumpy-xp=numpy,mumpy: unknown namespace 'mumpy'*"])
    result = pytester.runpytest(*enable, "--help")
    result.stdout.fnmatch_lines(["*--cunumpy-xp=NAMES*", "*the project's own --xp*"])


def test_without_another_xp_option_both_names_select_namespaces(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(test_file=SIMPLE)
    for option in ("--xp", "--cunumpy-xp"):
        result = pytester.runpytest(*entry_point_args(), "-v", f"{option}=numpy")
        assert _ids(result, "test_sum") == {"numpy"}, option
        result.assert_outcomes(passed=1)
    result = pytester.runpytest(*entry_point_args(), "--help")
    result.stdout.fnmatch_lines(["*--xp=NAMES*the same as --cunumpy-xp*"])


def test_the_entry_point_is_declared_and_imports_nothing_of_cunumpy() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '[project.entry-points.pytest11]\ncunumpy = "_cunumpy_pytestplugin"' in pyproject
    code = "import sys, _cunumpy_pytestplugin; print(sorted(m for m in sys.modules if 'cunumpy.' in m or m == 'cunumpy'))"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"


UNRELATED = """
import pytest

@pytest.fixture(params=[1, 2])
def number(request):
    return request.param

@pytest.mark.parametrize("name", ["a", "b"])
def test_names(name, number):
    assert name in "ab"

def test_skipped():
    pytest.skip("not today")
"""


def _run_unrelated(path: Path, *plugin: str) -> list[str]:
    """A ``-v -ra`` run of the project at ``path``, its timings left out."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "pytest", "-v", "-ra", "-p", "no:cacheprovider", *plugin]
    out = subprocess.run(command, cwd=path, env=env, capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stdout + out.stderr
    # pytest's own "plugins:" header line lists every installed pytest11 distribution
    lines = [line for line in out.stdout.splitlines() if not line.startswith("plugins:")]
    return [re.sub(r" in [\d.]+s", "", line) for line in lines]


def test_a_run_that_does_not_use_the_plugin_is_unchanged(tmp_path: Path) -> None:
    (tmp_path / "test_unrelated.py").write_text(UNRELATED)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    without = _run_unrelated(tmp_path, "-p", "no:cunumpy", "-p", "no:cunumpy.testing.plugin")
    with_it = _run_unrelated(tmp_path, *entry_point_args())
    assert sum("::test_names[" in line and "PASSED" in line for line in without) == 4
    assert with_it == without


def test_pytest_plugins_in_conftest_enables_it(pytester: pytest.Pytester) -> None:
    pytester.makeconftest('pytest_plugins = ["cunumpy.testing.plugin"]')
    pytester.makepyfile(test_file=SIMPLE)
    result = pytester.runpytest("--xp=numpy,cunumpy")
    result.assert_outcomes(passed=2)


def test_xp_option_selects_namespaces(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_file=SIMPLE)
    result = pytester.runpytest(*PLUGIN, "-v", "--xp=numpy, array_api_strict")
    assert _ids(result, "test_sum") == {"numpy", "array_api_strict"}
    result = pytester.runpytest(*PLUGIN, "-v", "-ra", "--xp=all")
    assert _ids(result, "test_sum") == {
        "numpy", "cupy", "array_api_strict", "cunumpy", "cunumpy:cupy", "torch", "jax", "dask"
    }  # fmt: skip
    if not TORCH:
        result.stdout.fnmatch_lines(["SKIPPED * torch: torch is not installed (pip install torch)"])


def test_xp_option_rejects_unknown_names(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_file=SIMPLE)
    result = pytester.runpytest(*PLUGIN, "--xp=numpy,mumpy")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["ERROR: --xp=numpy,mumpy: unknown namespace 'mumpy'; the known ones are numpy, cupy, *"]
    )


def test_marker_selects_per_test_and_option_narrows_it(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_file="""
        import pytest

        @pytest.mark.xp("numpy", "cunumpy:cupy")
        def test_marked(xp):
            assert xp.asarray([1]).shape == (1,)

        def test_plain(xp):
            assert xp.asarray([1]).shape == (1,)
        """
    )
    result = pytester.runpytest(*PLUGIN, "-v")
    assert _ids(result, "test_marked") == {"numpy", "cunumpy:cupy"}
    result = pytester.runpytest(*PLUGIN, "-v", "--xp=numpy,cupy")
    assert _ids(result, "test_marked") == {"numpy"}
    assert _ids(result, "test_plain") == {"numpy", "cupy"}
    result = pytester.runpytest(*PLUGIN, "-v", "--xp=cupy")
    assert _ids(result, "test_marked") == set()
    result.stdout.fnmatch_lines(["*1 deselected*"])


def test_marker_rejects_unknown_names(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_file="""
        import pytest

        @pytest.mark.xp("numpy", "nupmy")
        def test_marked(xp):
            pass
        """
    )
    result = pytester.runpytest(*PLUGIN)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        ["*@pytest.mark.xp on test_file.py::test_marked: unknown namespace 'nupmy'*"]
    )


def test_skip_and_xfail_markers(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_file="""
        import pytest

        @pytest.mark.skip_xp("cunumpy", reason="covered by numpy")
        @pytest.mark.xfail_xp("numpy", reason="known bug 12", strict=True)
        def test_marked(xp):
            assert xp.__name__ != "cunumpy._backends.numpy"
        """
    )
    result = pytester.runpytest(*PLUGIN, "-ra", "--xp=numpy,cunumpy")
    result.assert_outcomes(skipped=1, xfailed=1)
    result.stdout.fnmatch_lines(
        [
            "SKIPPED * cunumpy: covered by numpy",
            "XFAIL *test_marked[[]numpy[]] - numpy: known bug 12",
        ]
    )


def test_skip_marker_needs_a_reason(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_file="""
        import pytest

        @pytest.mark.skip_xp("numpy")
        def test_marked(xp):
            pass
        """
    )
    result = pytester.runpytest(*PLUGIN)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*skip_xp on test_file.py::test_marked: give the reason*"])


def test_numpy_and_cupy_set_the_backend_and_cunumpy_keeps_it(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_file="""
        import cunumpy

        def test_backend(xp):
            expected = {
                "cunumpy._backends.numpy": "numpy",
                "cunumpy._backends.cupy": "cupy",
                "cunumpy": "numpy",
            }
            assert cunumpy.get_backend() == expected[xp.__name__]
            made_in = cunumpy.array_namespace(cunumpy.zeros(1)).__name__
            assert made_in == "cunumpy._backends." + cunumpy.get_backend()
        """
    )
    result = pytester.runpytest(*PLUGIN, "--xp=numpy,cupy,cunumpy")
    result.assert_outcomes(passed=3 if GPU else 2, skipped=0 if GPU else 1)
    assert cunumpy.get_backend() == "numpy"


def test_device_fixture_gives_every_device(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_file="""
        import cunumpy
        from cunumpy.testing import assert_equal

        def test_on_device(xp, device):
            kind = xp.__array_namespace_info__().default_dtypes(device=device)["integral"]
            x = xp.asarray([1, 2], dtype=kind, device=device)
            assert x.device == device
            assert_equal(x + 1, xp.asarray([2, 3], dtype=kind, device=device))
        """
    )
    result = pytester.runpytest(*PLUGIN, "-v", "--xp=numpy,cupy,array_api_strict,cunumpy")
    gpus = [f"cuda:{i}" for i in range(cunumpy.cuda.device_count())] if GPU else []
    expected = {"numpy-cpu", "cunumpy-cpu"} | {f"cunumpy-{gpu}" for gpu in gpus}
    expected |= {f"cupy-{gpu}" for gpu in gpus} if GPU else {"cupy"}
    if STRICT:
        names = ("cpu", "device1", "device2", "no_float64", "no_x64")
        expected |= {f"array_api_strict-{name}" for name in names}
    assert _ids(result, "test_on_device") == expected
    result.assert_outcomes(passed=len(expected) - (0 if GPU else 1), skipped=0 if GPU else 1)


def test_tests_that_parametrize_xp_themselves_are_left_alone(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_file="""
        import numpy
        import pytest

        @pytest.mark.parametrize("xp", [numpy], ids=["plain-numpy"])
        def test_own(xp):
            assert xp is numpy
        """
    )
    result = pytester.runpytest(*PLUGIN, "-v")
    assert _ids(result, "test_own") == {"plain-numpy"}
    result.assert_outcomes(passed=1)


@pytest.mark.skipif(not JAX, reason="jax is not installed")
def test_jax_runs_with_64_bit_types_and_restores_the_setting(pytester: pytest.Pytester) -> None:
    import jax

    pytester.makepyfile(
        test_file="""
        def test_default_float(xp):
            assert xp.asarray([1.0]).dtype == xp.float64
        """
    )
    before = jax.config.read("jax_enable_x64")
    result = pytester.runpytest(*PLUGIN, "--xp=jax")
    result.assert_outcomes(passed=1)
    assert jax.config.read("jax_enable_x64") == before


def test_a_conftest_xp_fixture_of_its_own_is_left_alone(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(
        """
        import numpy
        import pytest

        @pytest.fixture
        def xp():
            return numpy
        """
    )
    pytester.makepyfile(
        test_file="""
        import numpy

        def test_own(xp):
            assert xp is numpy
        """
    )
    result = pytester.runpytest(*PLUGIN, "-v")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["test_file.py::test_own PASSED*"])


def test_devices_that_hold_no_data_are_left_out() -> None:
    pytest.importorskip("torch", reason="torch is not installed")
    pytest.importorskip("array_api_compat", reason="array-api-compat gives torch's namespace")
    from cunumpy.testing._namespaces import devices

    listed = [str(d) for d in devices("torch")]
    assert "cpu" in listed
    assert "meta" not in listed  # torch lists it; its tensors have no values to compare


COMPUTES = """
import pytest

def test_lazy(xp, dask_computes):
    y = xp.sum(xp.asarray([1.0, 2.0]) * 2.0)
    assert dask_computes.count == 0

def test_undeclared(xp, dask_computes):
    float(xp.sum(xp.asarray([1.0, 2.0])))

@pytest.mark.dask_computes(1)
def test_declared(xp, dask_computes):
    assert float(xp.sum(xp.asarray([1.0, 2.0]))) == 3.0

def test_caught(xp, dask_computes):
    try:
        float(xp.sum(xp.asarray([1.0, 2.0])))
    except AssertionError:
        pass

@pytest.mark.dask_computes(1)
def test_second(xp, dask_computes):
    x = xp.asarray([1.0, 2.0])
    assert float(xp.sum(x)) == 3.0
    assert float(xp.max(x)) == 2.0
"""


@pytest.mark.skipif(not DASK, reason="Dask is not installed (the dask extra)")
def test_dask_computes_fails_a_test_that_computes_more_than_it_declares(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(test_file=COMPUTES)
    result = pytester.runpytest(*PLUGIN, "-v", "--xp=dask")
    assert _ids(result, "test_lazy") == {"dask"}
    result.assert_outcomes(passed=3, failed=2, errors=1)  # test_caught passes, then errs
    # the test fails at the call that ran the graph, and the message names its line
    result.stdout.fnmatch_lines(
        ["E *AssertionError: Dask graph 1 (of * tasks) ran at */test_file.py:8, more than the 0 "
         "that test_file.py::test_undeclared[[]dask[]] declares (@pytest.mark.dask_computes(n))."]
    )  # fmt: skip
    # a test that catches that failure still fails, at teardown, with the line
    result.stdout.fnmatch_lines(
        ["*test_caught[[]dask[]] ran 1 Dask graph(s) (of [[]*[]] tasks, at */test_file.py:16), "
         "more than the 0 it declares (@pytest.mark.dask_computes(n))."]
    )  # fmt: skip
    assert "ERROR at teardown of test_undeclared" not in result.stdout.str()


def test_the_dask_namespace_is_skipped_with_the_reason_without_dask(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cunumpy.testing import _namespaces

    monkeypatch.setattr(_namespaces, "_installed", lambda module: module != "dask")
    assert _namespaces.unusable_reason("dask") == (
        "dask[array] is not installed (pip install dask[array])"
    )
    assert "dask" not in _namespaces.default_names()


def test_require_cuda_fails_the_cupy_namespace_of_the_xp_fixture(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    if cunumpy.cupy_available():
        pytest.skip("CuPy is usable here: its namespace runs")
    pytester.makepyfile(test_file="def test_sum(xp):\n    assert xp.sum(xp.ones(2)) == 2\n")
    monkeypatch.setenv("CUNUMPY_REQUIRE_CUDA", "1")
    result = pytester.runpytest("-p", "cunumpy.testing.plugin", "--xp=numpy,cupy", "-rfE")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*CUNUMPY_REQUIRE_CUDA is set, but cupy: *"])


def test_a_bad_marker_fails_its_test_with_one_line(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_file="""
        import pytest

        @pytest.mark.xp("cuda")
        def test_marked(xp):
            pass

        def test_other(xp):
            pass
        """
    )
    result = pytester.runpytest(*PLUGIN, "--xp=numpy")
    result.assert_outcomes(passed=1, errors=1)  # the module's other test runs
    errors = result.stdout.str().split("= ERRORS =", 1)[1].split("= short test summary", 1)[0]
    lines = [line.strip("_ ") for line in errors.splitlines()[1:] if line.strip("=")]
    assert lines == [
        "ERROR at setup of test_marked[marker-error]",
        "@pytest.mark.xp on test_file.py::test_marked: unknown namespace 'cuda'; the known ones "
        "are numpy, cupy, array_api_strict, cunumpy, cunumpy:cupy, torch, jax, dask (or 'all').",
    ]


def test_each_skip_reason_is_one_line_and_names_the_fake_cupy(pytester: pytest.Pytester) -> None:
    if cunumpy.cupy_available():
        pytest.skip("CuPy is usable here: its namespace runs")
    pytester.makepyfile(test_file="def test_a(xp):\n    pass\n\ndef test_b(xp):\n    pass\n")
    result = pytester.runpytest(*PLUGIN, "-ra", "--xp=numpy,cupy,cunumpy:cupy")
    result.assert_outcomes(passed=2, skipped=4)
    reason = cunumpy.cupy_unavailable_reason()
    fake = (
        "without a GPU, CUNUMPY_FAKE_CUPY=1 runs it on the fake CuPy (on the CPU, not a GPU check)"
    )
    skipped = [line for line in result.outlines if line.startswith("SKIPPED")]
    assert skipped == [
        f"SKIPPED [2] cunumpy.testing.plugin: cupy: {reason}; {fake}",
        f"SKIPPED [2] cunumpy.testing.plugin: cunumpy:cupy: {reason}; {fake}",
    ]


@pytest.mark.fake_cupy
def test_the_header_labels_the_fake_cupy(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the fake CuPy (CUNUMPY_FAKE_CUPY=1, in a subprocess): not a GPU check."""
    pytester.makepyfile(test_file="def test_a(xp):\n    assert xp.sum(xp.ones(2)) == 2\n")
    monkeypatch.setenv("CUNUMPY_FAKE_CUPY", "1")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    result = pytester.runpytest_subprocess(*PLUGIN, "--xp=cupy,cunumpy:cupy")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(
        ["cunumpy.testing: xp namespaces: cupy (fake CuPy, CPU); cunumpy:cupy (fake CuPy, CPU)"]
    )


def test_a_run_with_the_option_shows_the_header_and_one_without_tests_of_xp_does_not(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(test_file="def test_a():\n    pass\n")
    assert "cunumpy.testing:" not in pytester.runpytest(*PLUGIN).stdout.str()
    result = pytester.runpytest(*PLUGIN, "--xp=numpy")
    result.stdout.fnmatch_lines(["cunumpy.testing: xp namespaces: numpy"])
