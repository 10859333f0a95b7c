"""uprobe cost: ns added to each call of bench_target() (samples/bench_calls.c) by a uprobe
running `@ = count()`, and one running `@[tid] = nsecs`; and for each, the BPF program's own
run time per hit from the kernel's BPF statistics (benchlib/cost.py).

10^5 calls per run by default (BENCH_CALLS): a uprobe hit is an int3 trap, ~70 us on the VM
this was written on, so the issue's 10^6 would take 70 s per traced run and ~30 minutes for
the row; 10^5 already averages the per-call cost over seconds. The program-cost runs make
BENCH_PROGRAM_CALLS calls (10^4)."""
from ..cost import calls, count_check, map_check, measure_cost

NAME = "uprobe cost"


def measure(ctx):
    n = calls("BENCH_CALLS", 100000)
    probe = f"uprobe:{ctx.sample('bench_calls')}:bench_target"
    cases = [
        ("count()", f"{probe} {{ @ = count(); }}", count_check()),
        ("@[tid] = nsecs", f"{probe} {{ @[tid] = nsecs; }}", map_check(r"^@\[\d+\]: \d+$")),
    ]
    return measure_cost(ctx, NAME, "bench_calls", n, cases)
