"""cunumpy's benchmarks: ``python -m benchmarks [--quick | --full]`` runs them all.

Each ``bench_<name>.py`` is a script that also runs on its own and implements the small
interface described in ``benchmarks/README.md`` (``TITLE``, ``NEEDS``, ``run(mode,
progress)`` returning ``Check`` and ``Skipped`` results, and ``main`` from ``_harness``).
"""
