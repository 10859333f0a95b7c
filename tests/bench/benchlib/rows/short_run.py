"""short run: total wall time of `-c SAMPLE` runs of the seed's scripts (attach, run the
sample to its end, detach, print the maps), and their peak RSS (memory row)."""
from ..model import Measure, at_most, faster
from ..repeat import alternate, fail_all
from ..scripts import SEED_SCRIPTS, seed_script, sample_paths
from ..session import run_to_exit

NAME = "short run"
TIMEOUT = 120


def measure(ctx):
    measures = []
    for file_name, sample in SEED_SCRIPTS:
        if sample is None:
            continue
        script = seed_script(ctx.repo, ctx.samples, file_name)
        command = ctx.sample(sample)
        missing = ctx.missing_samples(sample_paths(ctx.samples, script) + [command])
        if missing:
            results = fail_all(ctx.tools, missing)
        else:
            results = alternate(ctx.tools, ctx.runs, ctx.warmup,
                                lambda tool: _one(tool, script, command),
                                ctx.progress(f"short run {file_name}"))
        rp, bt = results["rawprobe"], results["bpftrace"]
        how = f"-e '<script>' -c {sample}"
        measures += [
            Measure(NAME, f"{file_name} -c {sample}: wall", "ms", rp["wall"], bt["wall"],
                    faster(10), [how]),
            Measure("memory", f"{file_name} -c {sample}: peak RSS", "KiB", rp["rss_kb"],
                    bt["rss_kb"], at_most("1/15", 1 / 15),
                    ["/usr/bin/time -v, same runs as short run"]),
        ]
    return measures


def _one(tool, script, command):
    run, status = run_to_exit(tool.with_command(script, command), TIMEOUT)
    try:
        output = run.output()
        if status != 0 or run.timed_out:
            return tool.failure_reason(output, status, run.timed_out)
        # Every seed script that runs to an end prints at least one map.
        if "@" not in output:
            return "printed no maps"
        rss = run.peak_rss_kb()
        return {"wall": run.wall * 1000, "rss_kb": rss if rss is not None else "no RSS report"}
    finally:
        run.cleanup()
