"""Cost per traced event, two measures per case:

- added ns per call: a workload sample times N calls itself with clock_gettime, untraced
  and under each tracer, in the same alternation (untraced, rawprobe, bpftrace, ...); the
  row shows traced ns/call minus the untraced median. Made with kernel.bpf_stats_enabled=0
  (set so for these runs if it was not): the statistics would add two clock reads per hit.
- BPF program ns per hit: separate runs, the two tracers alternating, with
  kernel.bpf_stats_enabled=1 for these runs only (benchlib/bpfstats.py); while the tracer is
  still attached after the workload, run_time_ns / run_cnt of the program, among those the
  tracer holds, that ran once per call. Where the trap or syscall itself dominates a call
  (a uprobe hit is ~20 us on a VM, the program ~0.1 us), this is the part a tracer decides.
  BENCH_PROGRAM_CALLS calls per run (10^4): the statistic is per program run, so it needs
  far fewer calls than the added cost does."""
import os
import re

from . import bpfstats
from .model import Goal, Measure, Outcome
from .progsize import program_runs
from .repeat import alternate, fail_all
from .session import attach_then_stop, workload

TIMEOUT = 60
NOT_WORSE = Goal("≤ 1.0× bpftrace", bound=1.0)


class Untraced:
    """The baseline as a pseudo-tool, so it takes its turn in the alternation."""
    name = "untraced"

    def missing(self):
        return None


def calls(variable, default):
    """How many calls per run: `default`, unless the environment variable says otherwise."""
    return int(os.environ.get(variable, str(default)))


def program_calls():
    """Workload calls per run of the program-cost measure (BENCH_PROGRAM_CALLS, 10^4). At
    least 2, so a BEGIN program, which runs once, is never taken for the probe's."""
    n = calls("BENCH_PROGRAM_CALLS", 10000)
    if n < 2:
        raise SystemExit(f"BENCH_PROGRAM_CALLS={n}: must be at least 2")
    return n


def count_check(others_may_add=False):
    """For `@ = count()` scripts: the tracer must have counted every one of the workload's
    n calls (and, for a system-wide probe that other processes may also hit, at least
    that many)."""
    def check(output, n):
        match = re.search(r"^@: (\d+)$", output, re.M)
        if not match:
            return "printed no @ count"
        counted = int(match.group(1))
        if counted < n or (counted > n and not others_may_add):
            return f"counted {counted} of {n} calls"
        return None
    return check


def map_check(pattern):
    def check(output, _n):
        return None if re.search(pattern, output, re.M) else f"no map line matching {pattern}"
    return check


def measure_cost(ctx, row, sample, n, cases, others_may_add=False):
    """`cases`: [(label, script, check(output, calls) -> reason or None)]; `n` calls per run
    of the added-cost measure. `others_may_add`: other processes may hit the probe too."""
    binary = ctx.sample(sample)
    missing = ctx.missing_samples([binary])
    program_n = program_calls()
    measures = []
    for label, script, check in cases:
        measures.append(_added_cost(ctx, row, label, script, check, binary, n, missing))
        measures.append(_program_cost(ctx, row, label, script, check, binary, program_n,
                                      others_may_add, missing))
    return measures


def _added_cost(ctx, row, label, script, check, binary, n, missing):
    command = [binary, str(n)]
    with bpfstats.stats(False) as cannot:
        if missing or cannot:
            results = fail_all([Untraced(), *ctx.tools], missing or cannot)
        else:
            results = alternate([Untraced(), *ctx.tools], ctx.runs, ctx.warmup,
                                lambda tool: _one(tool, script, command,
                                                  lambda out: check(out, n)),
                                ctx.progress(f"{row} {label}"))
    baseline = results["untraced"]["ns"]
    added = {tool.name: _minus(results[tool.name]["ns"], baseline) for tool in ctx.tools}
    return Measure(row, f"{label}: added ns per call", "ns", added["rawprobe"],
                   added["bpftrace"], NOT_WORSE,
                   [f"{' '.join(os.path.basename(c) for c in command)} "
                    f"(untraced median {_fmt(baseline)} ns/call); kernel.bpf_stats_enabled=0"])


def _program_cost(ctx, row, label, script, check, binary, n, others_may_add, missing):
    command = [binary, str(n)]
    with bpfstats.stats(True) as cannot:
        if missing or cannot:
            results = fail_all(ctx.tools, missing or cannot)
        else:
            results = alternate(ctx.tools, ctx.runs, ctx.warmup,
                                lambda tool: _one_program(tool, script, command, check, n,
                                                          others_may_add),
                                ctx.progress(f"{row} {label} (bpf_stats)"))
    hits = {tool.name: results[tool.name]["hits"].value for tool in ctx.tools}
    ran = "at least " if others_may_add else ""
    return Measure(row, f"{label}: BPF program ns per hit (bpf_stats)", "ns",
                   results["rawprobe"]["ns"], results["bpftrace"]["ns"], NOT_WORSE,
                   [f"{' '.join(os.path.basename(c) for c in command)} with "
                    f"kernel.bpf_stats_enabled=1 for these runs only; run_time_ns / run_cnt "
                    f"from /proc/PID/fdinfo of the tracer's program that ran {ran}{n} times "
                    f"(median run_cnt: {_counts(hits)})"])


def _one_program(tool, script, command, check, n, others_may_add):
    measured = {}

    def while_attached(run):
        report = workload(command)
        if isinstance(report, str):
            return report
        try:
            programs = program_runs(run.tracer_pid())
        except OSError:
            return "tracer gone before its programs could be read"
        got = bpfstats.per_hit(programs, n, others_may_add)
        if isinstance(got, str):
            return got
        measured.update(got)
        return {}
    result = attach_then_stop(tool, script, TIMEOUT, while_attached)
    if isinstance(result, str):
        return result
    return check(result["output"], n) or measured


def _counts(hits):
    return ", ".join(f"{name} {'?' if v is None else f'{v:.0f}'}" for name, v in hits.items())


def _one(tool, script, command, check):
    if isinstance(tool, Untraced):
        report = workload(command)
        return report if isinstance(report, str) else {"ns": report["ns_per_call"]}
    measured = {}

    def while_attached(_run):
        report = workload(command)
        if isinstance(report, str):
            return report
        measured["ns"] = report["ns_per_call"]
        return {}
    result = attach_then_stop(tool, script, TIMEOUT, while_attached)
    if isinstance(result, str):
        return result
    return check(result["output"]) or measured


def _minus(outcome, baseline):
    if outcome.failure is not None:
        return outcome
    if baseline.value is None:
        return Outcome(failure=f"no untraced baseline: {baseline.failure}")
    return Outcome(samples=[s - baseline.value for s in outcome.samples])


def _fmt(outcome):
    return f"{outcome.value:.1f}" if outcome.value is not None else "?"
