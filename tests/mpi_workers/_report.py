"""How every MPI worker reports a check: one ``RESULT <rank> <check> PASS|FAIL <why>`` line.

The ranks share mpiexec's output, so each line goes out in ONE write: ``print`` writes
the text and its newline apart when Python's output is unbuffered (``PYTHONUNBUFFERED=1``,
as gpu_check.sh sets), and another rank's line could then land between them
(``RESULT 0 tags PASSRESULT 1 tags PASS``), which tests/mpi_run.py cannot parse.
"""

from __future__ import annotations

import sys
import traceback


def report(rank: int, name: str, error: BaseException | None = None) -> None:
    """Write check ``name``'s result on ``rank`` as one line, in one write, and flush it."""
    if error is None:
        line = f"RESULT {rank} {name} PASS\n"
    else:
        detail = "".join(traceback.format_exception(error)).replace("\n", " | ")
        line = f"RESULT {rank} {name} FAIL {detail}\n"
    sys.stdout.write(line)
    sys.stdout.flush()
