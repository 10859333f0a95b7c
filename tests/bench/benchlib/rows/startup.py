"""startup: from exec to the first line printed after every probe is attached, for each of
the seed's scripts; also the peak RSS of those runs (memory row).

Two times per script: until "Attaching N probes..." appears (printed before attaching), and
until the ready marker's BEGIN printf arrives (both tools fire BEGIN after attaching all)."""
from ..model import Measure, at_most, faster
from ..repeat import alternate, fail_all
from ..scripts import SEED_SCRIPTS, seed_script, sample_paths
from ..session import attach_then_stop

NAME = "startup"
TIMEOUT = 60


def measure(ctx):
    measures = []
    for file_name, _ in SEED_SCRIPTS:
        script = seed_script(ctx.repo, ctx.samples, file_name)
        missing = ctx.missing_samples(sample_paths(ctx.samples, script))
        if missing:
            results = fail_all(ctx.tools, missing)
        else:
            results = alternate(ctx.tools, ctx.runs, ctx.warmup,
                                lambda tool: _one(tool, script),
                                ctx.progress(f"startup {file_name}"))
        rp, bt = results["rawprobe"], results["bpftrace"]
        how = "-e '<script>; BEGIN { printf(marker) }', timed from exec"
        measures += [
            Measure(NAME, f"{file_name}: to 'Attaching' line", "ms", rp["attaching"],
                    bt["attaching"], faster(20), [how]),
            Measure(NAME, f"{file_name}: to first event (all attached)", "ms", rp["ready"],
                    bt["ready"], faster(20), [how]),
            Measure("memory", f"{file_name}: peak RSS, attach + Ctrl-C", "KiB", rp["rss_kb"],
                    bt["rss_kb"], at_most("1/15", 1 / 15),
                    ["/usr/bin/time -v, same runs as startup"]),
        ]
    return measures


def _one(tool, script, ready_pattern=None):
    result = attach_then_stop(tool, script, TIMEOUT, ready_pattern=ready_pattern)
    if isinstance(result, str):
        return result
    return {
        "attaching": _ms(result["attaching"]),
        "ready": _ms(result["ready"]),
        "rss_kb": result["rss_kb"] if result["rss_kb"] is not None else "no RSS report",
    }


def _ms(seconds):
    return seconds * 1000 if isinstance(seconds, float) else seconds
