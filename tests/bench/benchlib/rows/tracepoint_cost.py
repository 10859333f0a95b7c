"""tracepoint cost: ns added to each getppid() (samples/bench_getppid.c, 10^6 calls) by
counting tracepoint:syscalls:sys_enter_getppid. The probe has no filter, as a user would write
it; nothing else on the machine calls getppid often enough to matter."""
from ..cost import calls, count_check, measure_cost

NAME = "tracepoint cost"


def measure(ctx):
    n = calls()
    script = "tracepoint:syscalls:sys_enter_getppid { @ = count(); }"
    cases = [("sys_enter_getppid count()", script, count_check(n, others_may_add=True))]
    return measure_cost(ctx, NAME, "bench_getppid", [str(n)], cases)
