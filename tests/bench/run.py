#!/usr/bin/env python3
"""`make bench`: rawprobe and bpftrace on the same workloads, one table.

  tests/bench/run.py --build build [--runs 5] [--warmup 1] [--rows startup,listing]

Never fails because a tracer did: a row rawprobe cannot run yet says why in its cell. Needs
root (both tracers attach probes)."""
import argparse
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from benchlib import machine, report, rows  # noqa: E402
from benchlib.context import Context  # noqa: E402
from benchlib.tools import make_tools  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build", help="build directory (default: build)")
    parser.add_argument("--runs", type=int, default=5, help="measured runs per row (min 5 "
                        "for a table to publish; fewer for a quick look)")
    parser.add_argument("--warmup", type=int, default=1, help="warm-up rounds (default 1)")
    parser.add_argument("--rows", default="", help="comma-separated row modules to run "
                        f"(default all: {','.join(r.__name__.split('.')[-1] for r in rows.ORDER)})")
    parser.add_argument("--out", help="markdown output (default BUILD/bench.md)")
    args = parser.parse_args()

    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    build = os.path.abspath(args.build)
    if os.geteuid() != 0:
        print("make bench: skipped: attaching probes needs root", file=sys.stderr)
        return 0
    selected = _select(args.rows)
    if selected is None:
        return 2
    ctx = Context(repo=repo, build=build, tools=make_tools(build), runs=args.runs,
                  warmup=args.warmup)
    load_at_start = machine.load()
    measures = []
    for row in selected:
        print(f"bench: {row.NAME}", file=sys.stderr, flush=True)
        measures += row.measure(ctx)

    command = " ".join(["tests/bench/run.py", *sys.argv[1:]])
    text = report.document(machine.header(repo, ctx.tools, args.runs, args.warmup, command,
                                          load_at_start),
                           measures)
    out = args.out or os.path.join(build, "bench.md")
    with open(out, "w") as f:
        f.write(text)
    print(report.markdown_table(report.table_rows(measures)))
    print(f"\nwritten to {out}")
    return 0


def _select(names):
    by_name = {r.__name__.split(".")[-1]: r for r in rows.ORDER}
    if not names:
        return rows.ORDER
    chosen = []
    for name in names.split(","):
        if name not in by_name:
            print(f"unknown row '{name}'; rows are: {', '.join(by_name)}", file=sys.stderr)
            return None
        chosen.append(by_name[name])
    return chosen


if __name__ == "__main__":
    sys.exit(main())
