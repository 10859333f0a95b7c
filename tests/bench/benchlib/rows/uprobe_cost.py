"""uprobe cost: ns added to each call of bench_target() (samples/bench_calls.c, 10^6 calls)
by a uprobe running `@ = count()`, and one running `@[tid] = nsecs`."""
from ..cost import calls, count_check, map_check, measure_cost

NAME = "uprobe cost"


def measure(ctx):
    n = calls()
    probe = f"uprobe:{ctx.sample('bench_calls')}:bench_target"
    cases = [
        ("count()", f"{probe} {{ @ = count(); }}", count_check(n)),
        ("@[tid] = nsecs", f"{probe} {{ @[tid] = nsecs; }}", map_check(r"^@\[\d+\]: \d+$")),
    ]
    return measure_cost(ctx, NAME, "bench_calls", [str(n)], cases)
