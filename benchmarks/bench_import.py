"""What ``import cunumpy`` costs once NumPy is imported, against NumPy's own import.

A program that uses cunumpy imports NumPy anyway, so the figure is the time
``import cunumpy`` adds after ``import numpy``, divided by the time of ``import numpy``
itself: both read from ``python -X importtime -c "import numpy, cunumpy"`` (the
cumulative times of the two top-level entries), in fresh processes, one ratio per
process, after one process that writes the bytecode caches (into a temporary
``PYTHONPYCACHEPREFIX``, whatever ``PYTHONDONTWRITEBYTECODE`` says): an installed package
has its ``.pyc`` files, and compiling the sources would be most of the time. The bound is
a quarter of NumPy's import.

Run: ``python benchmarks/bench_import.py [--quick | --full]`` (or ``python -m benchmarks``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from benchmarks._harness import Check, Mode, Progress, Result, main

TITLE = "Import time: import cunumpy after import numpy, against import numpy"
NEEDS: tuple[str, ...] = ()

#: ``import cunumpy`` after NumPy at most this fraction of ``import numpy``.
IMPORT_AFTER_NUMPY = 0.25

_ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir)


def cumulative_times(report: str) -> dict[str, int]:
    """The cumulative microseconds of each top-level module of an ``-X importtime`` report.

    >>> report = "import time: 9 | 70 |   numpy.core\\nimport time: 10 | 2000 | numpy"
    >>> cumulative_times(report + "\\nimport time: 5 | 500 | cunumpy")
    {'numpy': 2000, 'cunumpy': 500}
    """
    times = {}
    for line in report.splitlines():
        fields = line.split("|")
        if len(fields) == 3 and fields[0].startswith("import time:"):
            name = fields[2].rstrip()  # one space before a top-level name, more when nested
            if name[:1] == " " and name[1:2] != " " and fields[1].strip().isdigit():
                times[name.strip()] = int(fields[1])
    return times


def _ratio(cache: str) -> float:
    """``import cunumpy`` (after NumPy) over ``import numpy``, in one fresh process."""
    env = {**os.environ, "PYTHONPATH": _ROOT, "PYTHONPYCACHEPREFIX": cache}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import numpy, cunumpy"],
        capture_output=True, text=True, check=True, env=env,
    )  # fmt: skip
    times = cumulative_times(done.stderr)
    return times["cunumpy"] / times["numpy"]


def run(mode: Mode, progress: Progress) -> list[Result]:
    runs = 5 if mode == "quick" else 10
    progress.step(f"import numpy, cunumpy in {runs} fresh processes (python -X importtime)")
    with tempfile.TemporaryDirectory(prefix="cunumpy-pycache-") as cache:
        _ratio(cache)  # writes the bytecode caches
        ratios = tuple(_ratio(cache) for _ in range(runs))
    return [Check("import cunumpy after numpy / import numpy", ratios, IMPORT_AFTER_NUMPY)]


if __name__ == "__main__":
    sys.exit(main(run, TITLE, NEEDS))
