"""The differential test: every callable that ``numpy`` and ``cunumpy`` share, called on both.

Each call is generated from a seed and a call number (``arguments.py``) for one shared
name (``names.py``), run on NumPy and on cunumpy's top level with its own copy of the same
arguments (``outcome.py``), and the two outcomes are compared (``compare.py``). A
difference is a finding of one class (``findings.py``); the deliberate differences, where
the standard's answer wins, are data (``deliberate.json``), and so are the differences
still open (``known_open.json``). Calls run in batches in forked children
(``runner.py``), so that a crash is a finding and not the end of the run.

Run it with ``python -m tests.differential --calls 100000 --seed 1 --jobs 2`` from the
checkout's root; ``tests/test_differential.py`` runs a small seeded budget in the suite.
Nothing in ``cunumpy`` imports it.
"""
