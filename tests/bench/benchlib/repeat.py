"""Alternating repetition: A B A B ..., a warm-up round first, then `runs` measured rounds.

`attempt(tool)` makes one run and returns {measure key: number}, or a string saying why it
failed. A tool whose warm-up fails is not tried again in that row (the reason is kept), so a
feature rawprobe does not have yet costs one quick attempt, not ten.
"""
from .model import Outcome


def alternate(tools, runs, warmup, attempt, progress=None):
    outcomes = {tool.name: {} for tool in tools}
    failures = {}
    for round_no in range(warmup + runs):
        measured = round_no >= warmup
        for tool in tools:
            if tool.name in failures:
                continue
            result = tool.missing() or attempt(tool)
            if isinstance(result, str):
                failures[tool.name] = result
                continue
            if measured:
                for key, value in result.items():
                    outcomes[tool.name].setdefault(key, []).append(value)
        if progress:
            progress(round_no + 1, warmup + runs)
    return {tool.name: PerKey(outcomes[tool.name], failures.get(tool.name)) for tool in tools}


class PerKey:
    """Outcomes of one tool: `[key]` gives the Outcome of that measure key. A run may report
    a string for one key (the tool ran, but that measure could not be taken): it becomes the
    key's failure."""

    def __init__(self, samples, failure):
        self._samples = samples
        self.failure = failure

    def __getitem__(self, key):
        if self.failure is not None:
            return Outcome(failure=self.failure)
        values = self._samples.get(key, [])
        reasons = [v for v in values if isinstance(v, str)]
        if reasons:
            return Outcome(failure=reasons[0])
        if not values:
            return Outcome(failure="no data")
        return Outcome(samples=values)


def fail_all(tools, reason):
    """The same failure for every tool (a workload that could not be built, say)."""
    return {tool.name: PerKey({}, reason) for tool in tools}
