"""Install carried wheels into a folder, offline, after checking they fit this Python.

``python tools/install_wheels.py WHEEL_DIR TARGET``: every ``*.whl`` in ``WHEEL_DIR`` must
be for this Python (pure ``py3``, or ``cp3XY`` of this interpreter) and Linux x86-64 or
any platform, with one version per project (two versions stop pip's whole install).
They are then installed with ``pip --no-index --no-deps --target TARGET``, so ``TARGET``
on ``PYTHONPATH`` comes before the machine's own packages. Used by ``gpu_check.sh``.
``python tools/install_wheels.py --check cp312 WHEEL_DIR`` only checks, for another Python
(``tools/prepare_gpu_check.sh`` does, on the machine that downloads them).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def problems(wheels: list[Path], here: str) -> list[str]:
    """What keeps these wheels from installing on Python ``here`` (``cp312``), one line each."""
    found: dict[str, str] = {}
    issues = []
    for wheel in wheels:
        parts = wheel.name[: -len(".whl")].split("-")
        if len(parts) not in (5, 6):
            issues.append(f"{wheel.name}: not a wheel file name")
            continue
        name, version = parts[0].lower().replace("_", "-"), parts[1]
        python, abi, platform = parts[-3:]
        if name in found and found[name] != version:
            issues.append(f"{name}: two versions ({found[name]} and {version}); keep one")
        found[name] = version
        if not any(tag in ("py3", here) for tag in python.split(".")):
            issues.append(f"{wheel.name}: built for {python}, this Python is {here}")
        if abi not in ("none", "abi3", here):
            issues.append(f"{wheel.name}: ABI {abi}, this Python is {here}")
        if platform != "any" and not platform.endswith("x86_64"):
            issues.append(f"{wheel.name}: platform {platform}, not Linux x86-64")
    return issues


def main(argv: list[str]) -> int:
    check_only = len(argv) == 3 and argv[0] == "--check"
    if len(argv) != 2 and not check_only:
        print(__doc__)
        return 2
    here = argv[1] if check_only else f"cp{sys.version_info.major}{sys.version_info.minor}"
    folder = Path(argv[-1] if check_only else argv[0])
    wheels = sorted(folder.glob("*.whl"))
    if not wheels:
        print(f"install_wheels: no wheels in {folder}/")
        return 1
    issues = problems(wheels, here)
    for issue in issues:
        print(f"install_wheels: {issue}")
    if issues or check_only:
        if not issues:
            print(
                f"install_wheels: the {len(wheels)} wheels in {folder}/ fit {here}, one version each"
            )
        return 1 if issues else 0
    target = argv[1]
    command = [
        sys.executable, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps",
        "--no-compile", "--no-cache-dir", "--upgrade", "--target", target, *map(str, wheels),
    ]  # fmt: skip
    done = subprocess.run(command, check=False)
    if done.returncode == 0:
        print(f"installed {len(wheels)} wheels into {target}: "
              + ", ".join(w.name.split("-")[0] for w in wheels))  # fmt: skip
    return done.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
