"""The registry's cunumpy (CuNumpy 0.7.1) installed next to ours, or half removed.

Each test builds a site directory as pip leaves it: CuNumpy 0.7.1's real wheel
(``/work/ext/wheels`` or ``CUNUMPY_071_WHEEL``) unpacked with its ``dist-info``, then
this checkout's package copied over it with a ``cunumpy_xp`` ``dist-info`` whose RECORD
lists its files, as ``pip install`` of cunumpy-xp does. ``pip uninstall cunumpy`` is
played by deleting the files of 0.7.1's RECORD, which is what pip does. Python then
runs with that directory first on its path, outside the checkout.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from cunumpy._settings._distributions import SWITCH, installation_problem

ROOT = Path(__file__).resolve().parent.parent
WHEEL = Path(os.environ.get("CUNUMPY_071_WHEEL", "/work/ext/wheels/cunumpy-0.7.1-py3-none-any.whl"))

pytestmark = pytest.mark.skipif(
    not WHEEL.is_file(), reason=f"CuNumpy 0.7.1's wheel is not at {WHEEL} (CUNUMPY_071_WHEEL)"
)


def _install_ours(site: Path) -> None:
    shutil.copytree(
        ROOT / "cunumpy", site / "cunumpy", dirs_exist_ok=True,
        ignore=shutil.ignore_patterns("__pycache__"),
    )  # fmt: skip
    info = site / "cunumpy_xp-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.4\nName: cunumpy-xp\nVersion: 0.1.0\n")
    files = sorted(p.relative_to(site).as_posix() for p in (site / "cunumpy").rglob("*"))
    ours = [f for f in files if (ROOT / f).is_file()]  # not the files 0.7.1 alone has
    (info / "RECORD").write_text("".join(f"{f},,\n" for f in ours) + f"{info.name}/RECORD,,\n")


def _install_071(site: Path) -> None:
    with zipfile.ZipFile(WHEEL) as wheel:
        wheel.extractall(site)


def _uninstall_071(site: Path) -> None:
    """What ``pip uninstall cunumpy`` removes: every file of its RECORD."""
    info = next(site.glob("cunumpy-0.7.*.dist-info"))
    for line in (info / "RECORD").read_text().splitlines():
        (site / line.split(",", 1)[0]).unlink(missing_ok=True)
    shutil.rmtree(info, ignore_errors=True)


def _python(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Python with ``site`` first, then the environment's packages without their ``.pth``
    files (``-S``): an editable install's path hook would find another cunumpy first."""
    import sysconfig

    purelib = sysconfig.get_paths()["purelib"]
    if (Path(purelib) / "cunumpy" / "__init__.py").is_file():  # `pip install .`, not -e
        pytest.skip("cunumpy is installed as a regular package here: it would hide the test's own")
    path = os.pathsep.join([str(site), purelib])
    env = {**os.environ, "PYTHONPATH": path}
    env.pop("CUNUMPY_FAKE_CUPY", None)
    return subprocess.run(
        [sys.executable, "-S", *args], capture_output=True, text=True, cwd=site.parent,
        env=env, timeout=300, check=False,
    )  # fmt: skip


def test_one_installation_has_no_problem(tmp_path: Path) -> None:
    site = tmp_path / "site"
    _install_ours(site)
    assert installation_problem(site / "cunumpy") is None
    assert installation_problem() is None  # this checkout: no dist-info next to it


def test_both_distributions_installed_warn_at_import_and_fail_the_report(tmp_path: Path) -> None:
    site = tmp_path / "site"
    _install_071(site)
    _install_ours(site)
    problem = installation_problem(site / "cunumpy")
    assert problem is not None
    assert problem.startswith(
        f"two installed distributions provide the package cunumpy in {site}: cunumpy-xp 0.1.0 "
        f"(this project) and cunumpy 0.7.1 (the registry's CuNumpy"
    ), problem
    assert problem.endswith(f"Keep one: {SWITCH}."), problem
    done = _python(site, "-c", "import cunumpy; print(cunumpy.__file__)")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(site / "cunumpy" / "__init__.py")
    assert "InstallationWarning: cunumpy: two installed distributions" in done.stderr
    assert "pip uninstall -y cunumpy cunumpy-xp" in done.stderr
    report = _python(site, "-W", "ignore", "-m", "cunumpy", "--no-check")
    assert report.returncode == 1, report.stdout + report.stderr
    assert f"FAIL installation: {problem}" in report.stdout


def test_python_m_cunumpy_says_what_to_run_after_pip_uninstall_cunumpy(tmp_path: Path) -> None:
    site = tmp_path / "site"
    _install_071(site)
    _install_ours(site)
    _uninstall_071(site)
    assert not (site / "cunumpy" / "__init__.py").exists()  # shared: deleted with 0.7.1
    broken = _python(site, "-c", "import cunumpy; cunumpy.__version__")
    assert "has no attribute '__version__'" in broken.stderr  # what the user saw
    done = _python(site, "-m", "cunumpy")
    assert done.returncode == 1, done.stdout + done.stderr
    message = done.stdout.strip()
    assert message.startswith(
        f"python -m cunumpy: cunumpy-xp 0.1.0 is listed as installed in {site}, but "
    ), message
    assert "cunumpy/__init__.py" in message, message
    assert "most likely deleted by uninstalling the registry's cunumpy" in message, message
    assert message.endswith(f"To repair it: {SWITCH}."), message


def test_migrating_gives_the_one_switch_procedure_that_the_messages_print() -> None:
    # One recipe, in docs/migrating.md (issue 53); the README's set-up section links to it.
    migrating = (ROOT / "docs" / "migrating.md").read_text()
    section = migrating.split("## Switching an environment", 1)[1].split("\n## ", 1)[0]
    assert "\npip uninstall -y cunumpy cunumpy-xp && pip install .\n" in section
    assert SWITCH.startswith("pip uninstall -y cunumpy cunumpy-xp, then, in a source checkout")
    assert "--no-deps" in section and "--no-deps" in SWITCH
    readme = (ROOT / "README.md").read_text()
    setup = readme.split("## Set up", 1)[1].split("\n## ", 1)[0]
    assert "docs/migrating.md" in setup and '"Switching an environment"' in setup
    assert "pip uninstall" not in readme  # no second recipe
