"""program size: xlated eBPF instructions of the programs each tracer loads for the seed's
scripts, read while attached from /proc/PID/fdinfo (prog_id) and `bpftool prog show id N`.
The ready marker's own BEGIN program is measured alone first and left out. One run per
script: the size is the same every run."""
from ..model import Goal, Measure, Outcome
from ..progsize import bpftool, held_programs, without
from ..scripts import SEED_SCRIPTS, seed_script, sample_paths
from ..session import attach_then_stop

NAME = "program size"
TIMEOUT = 60


def measure(ctx):
    if not bpftool():
        reason = "no bpftool (tests/install-packages test installs it)"
        return [Measure(NAME, "xlated instructions", "insns", Outcome(failure=reason),
                        Outcome(failure=reason))]
    baselines = {tool.name: _programs(tool, "") for tool in ctx.tools}
    measures = []
    for file_name, _ in SEED_SCRIPTS:
        script = seed_script(ctx.repo, ctx.samples, file_name)
        missing = ctx.missing_samples(sample_paths(ctx.samples, script))
        ctx.log(f"program size {file_name}")
        outcomes, listings = {}, []
        for tool in ctx.tools:
            programs = missing or tool.missing() or _programs(tool, script)
            if isinstance(programs, str) or isinstance(baselines[tool.name], str):
                outcomes[tool.name] = Outcome(failure=programs if isinstance(programs, str)
                                              else baselines[tool.name])
                continue
            programs = without(programs, baselines[tool.name])
            outcomes[tool.name] = Outcome(samples=[sum(n for _, n in programs)])
            listings.append(f"{tool.name}: " + ", ".join(f"{name} {n}" for name, n in programs))
        measures.append(Measure(NAME, f"{file_name}: total xlated insns", "insns",
                                outcomes["rawprobe"], outcomes["bpftrace"],
                                Goal("≤ 1.0× bpftrace", bound=1.0), listings))
    return measures


def _programs(tool, script):
    result = attach_then_stop(tool, script, TIMEOUT,
                              lambda run: {"programs": held_programs(run.tracer_pid())})
    return result if isinstance(result, str) else result["programs"]
