"""What every row needs: the tools, the repeat counts, where things are, and a logger."""
import os
import sys
from dataclasses import dataclass, field


@dataclass
class Context:
    repo: str
    build: str
    tools: list
    runs: int
    warmup: int
    only: set = field(default_factory=set)

    @property
    def samples(self):
        return os.path.join(self.build, "samples")

    def sample(self, name):
        return os.path.join(self.samples, name)

    def log(self, text):
        print(f"  {text}", file=sys.stderr, flush=True)

    def progress(self, label):
        return lambda done, total: self.log(f"{label}: round {done}/{total}")

    def missing_samples(self, paths):
        """A reason naming the first sample that was not built, or None."""
        for path in paths:
            if not os.access(path, os.X_OK):
                return f"missing sample {os.path.relpath(path, self.repo)} (make bench builds it)"
        return None
