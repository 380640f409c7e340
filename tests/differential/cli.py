"""The command line: ``python -m tests.differential --calls N --seed S --jobs J``.

Prints progress, then the number of calls and the table of findings by class and name;
``--markdown PATH`` also writes the table with one reproducer per name, ``--suite`` runs
the suite's budget, and ``--write-known`` writes its findings as the known-open list.
"""

from __future__ import annotations

import argparse
import fnmatch
import sys
import time
from pathlib import Path

from . import known
from .findings import Tally, load_deliberate
from .names import shared_callables
from .runner import run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.differential", description=__doc__)
    parser.add_argument(
        "--calls", type=int, default=100_000, help="number of calls (default 100000)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="children at a time")
    parser.add_argument("--batch", type=int, default=2000, help="calls per forked child")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds for one call")
    parser.add_argument("--only", nargs="*", help="fnmatch patterns of the names to call")
    parser.add_argument("--markdown", type=Path, help="also write the findings as Markdown")
    parser.add_argument("--suite", action="store_true", help="the suite's seed and calls")
    parser.add_argument(
        "--write-known", action="store_true", help="write known_open.json (with --suite)"
    )
    args = parser.parse_args(argv)
    if args.write_known and not args.suite:
        parser.error("--write-known writes the suite's budget: add --suite")
    if args.suite:
        args.seed, args.calls = known.SEED, known.CALLS
    callees, same = shared_callables()
    if args.only:
        callees = [c for c in callees if any(fnmatch.fnmatchcase(c.name, p) for p in args.only)]
    print(f"{len(callees)} callables called ({len(same)} more are NumPy's own objects); "
          f"seed {args.seed}, {args.calls} calls, {args.jobs} jobs", flush=True)  # fmt: skip
    tally = Tally(load_deliberate())
    last = [0.0]

    def progress(done: int, elapsed: float) -> None:
        if time.time() - last[0] > 10 or done == args.calls:
            last[0] = time.time()
            print(f"  {done}/{args.calls} calls, {sum(tally.by_class.values())} findings, "
                  f"{elapsed:.0f} s ({1e6 * elapsed / max(done, 1):.0f} us a call)", flush=True)  # fmt: skip

    started = time.time()
    run(callees, args.seed, args.calls, tally.add, jobs=args.jobs, batch=args.batch,
        timeout=args.timeout, progress=progress)  # fmt: skip
    tally.calls = args.calls
    elapsed = time.time() - started
    print(
        f"\n{tally.table()}\n\n{elapsed:.0f} s, {elapsed / args.calls * 1e5:.0f} s per 100,000 calls"
    )
    if args.markdown:
        command = f"python -m tests.differential --calls {args.calls} --seed {args.seed} --jobs {args.jobs}"
        args.markdown.write_text(
            tally.markdown(f"`{command}`: {args.calls} calls, {elapsed:.0f} s")
        )
    if args.write_known:
        known.write(tally)
        print(f"wrote {known.PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
