"""tracepoint cost: ns added to each getppid() (samples/bench_getppid.c, 10^6 calls, or
BENCH_SYSCALLS) by counting tracepoint:syscalls:sys_enter_getppid, and the BPF program's own
run time per hit from the kernel's BPF statistics (BENCH_PROGRAM_CALLS calls, benchlib/cost.py).
The probe has no filter, as a user would write it; other processes' getppid calls may only
add to the count (and to the program's run count)."""
from ..cost import calls, count_check, measure_cost

NAME = "tracepoint cost"


def measure(ctx):
    n = calls("BENCH_SYSCALLS", 1000000)
    script = "tracepoint:syscalls:sys_enter_getppid { @ = count(); }"
    cases = [("sys_enter_getppid count()", script, count_check(others_may_add=True))]
    return measure_cost(ctx, NAME, "bench_getppid", n, cases, others_may_add=True)
