"""Added cost per traced event: a workload sample times N calls itself with clock_gettime,
untraced and under each tracer, in the same alternation (untraced, rawprobe, bpftrace, ...).
The row shows traced ns/call minus the untraced median."""
import os
import re

from .model import Goal, Measure, Outcome
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


def count_check(n, others_may_add=False):
    """For `@ = count()` scripts: the tracer must have counted every call (and, for a
    system-wide probe that other processes may also hit, at least that many)."""
    def check(output):
        match = re.search(r"^@: (\d+)$", output, re.M)
        if not match:
            return "printed no @ count"
        counted = int(match.group(1))
        if counted < n or (counted > n and not others_may_add):
            return f"counted {counted} of {n} calls"
        return None
    return check


def map_check(pattern):
    def check(output):
        return None if re.search(pattern, output, re.M) else f"no map line matching {pattern}"
    return check


def measure_cost(ctx, row, sample, args, cases):
    """`cases`: [(label, script, check(output) -> reason or None)]."""
    binary = ctx.sample(sample)
    missing = ctx.missing_samples([binary])
    measures = []
    for label, script, check in cases:
        command = [binary, *args]
        if missing:
            results = fail_all([Untraced(), *ctx.tools], missing)
        else:
            results = alternate([Untraced(), *ctx.tools], ctx.runs, ctx.warmup,
                                lambda tool: _one(tool, script, command, check),
                                ctx.progress(f"{row} {label}"))
        baseline = results["untraced"]["ns"]
        added = {tool.name: _minus(results[tool.name]["ns"], baseline) for tool in ctx.tools}
        measures.append(Measure(row, f"{label}: added ns per call", "ns", added["rawprobe"],
                                added["bpftrace"], NOT_WORSE,
                                [f"{' '.join(os.path.basename(c) for c in command)} "
                                 f"(untraced median {_fmt(baseline)} ns/call)"]))
    return measures


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
