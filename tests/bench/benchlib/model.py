"""Results: one Measure per table line, holding each tool's samples or its failure."""
from dataclasses import dataclass, field
import statistics


@dataclass
class Outcome:
    """What one tool produced for one measure: samples, or why there are none."""
    samples: list = field(default_factory=list)
    failure: str = None

    @property
    def value(self):
        if self.failure is not None or not self.samples:
            return None
        return statistics.median(self.samples)


@dataclass
class Goal:
    """A goal on ratio = rawprobe / bpftrace. `check(ratio, rp, bt)` may override the bound."""
    text: str
    bound: float = None
    lower_is_better: bool = True
    check: object = None

    def met(self, rawprobe, bpftrace):
        if rawprobe is None or bpftrace is None:
            return None
        if self.check:
            return self.check(rawprobe, bpftrace)
        if bpftrace == 0:
            return None
        ratio = rawprobe / bpftrace
        return ratio <= self.bound if self.lower_is_better else ratio >= self.bound


@dataclass
class Measure:
    row: str
    measure: str
    unit: str
    rawprobe: Outcome
    bpftrace: Outcome
    goal: Goal = None
    # How each raw run was made, for the record in bench.md.
    commands: list = field(default_factory=list)


def faster(factor):
    return Goal(f"≥ {factor}× faster", bound=1.0 / factor)


def at_most(fraction_text, bound):
    return Goal(f"≤ {fraction_text} of bpftrace", bound=bound)


def ratio_at_least(factor, what):
    return Goal(f"≥ {factor}× {what}", bound=factor, lower_is_better=False)
