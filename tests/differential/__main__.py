"""``python -m tests.differential``: a run of the differential test from the command line."""

import sys
from pathlib import Path

# the package's modules import tests/numpy_idioms.py as pytest does, with tests/ on the path
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
