"""listing: wall time of `-l PATTERN`, output to a tmpfs file, and whether both tools list
the same probes (the names only bpftrace or only rawprobe lists are written to bench.md).

The large library is OpenJDK 17's libjvm.so: ~48,000 functions and ~500 USDT probes
(`make bench` installs openjdk-17-jre-headless when it is missing). Also USDT of python3.11
and every tracepoint. The libjvm uprobe listing is also the ELF layer's benchmark: loading
the library and listing every function must take well under 100 ms (an absolute goal on
rawprobe's time, bpftrace shown for reference)."""
import glob
import os
import re

from ..model import Goal, Measure, Outcome, faster
from ..repeat import alternate, fail_all
from ..process import Run

NAME = "listing"
TIMEOUT = 300
ELF_BENCH_MS = 100
SHOWN_DIFFERENCES = 8


def libjvm():
    found = sorted(glob.glob("/usr/lib/jvm/java-17-openjdk-*/lib/server/libjvm.so"))
    return found[0] if found else None


def patterns():
    jvm = libjvm()
    python = os.path.realpath("/usr/bin/python3.11")
    return [
        (f"uprobe:{jvm}:*" if jvm else None, "every function of libjvm.so"),
        (f"usdt:{jvm}:*" if jvm else None, "USDT of libjvm.so"),
        (f"usdt:{python}:*" if os.path.exists(python) else None, "USDT of python3.11"),
        ("tracepoint:*", "every tracepoint"),
    ]


def measure(ctx):
    measures = []
    for pattern, label in patterns():
        if pattern is None:
            results = fail_all(ctx.tools, f"nothing to list for: {label} (not installed)")
            listed = {}
        else:
            listed = {}
            results = alternate(ctx.tools, ctx.runs, ctx.warmup,
                                lambda t: _one(t, pattern, listed),
                                ctx.progress(f"listing {pattern}"))
        rp, bt = results["rawprobe"], results["bpftrace"]
        lines = {name: r["lines"].value for name, r in results.items()}
        measures.append(Measure(NAME, f"-l '{pattern}'", "ms", rp["wall"], bt["wall"],
                                faster(5), [f"{label}; lines printed: {lines}"]))
        measures.append(_same_list(pattern, listed))
        if pattern and pattern.startswith("uprobe:") and "libjvm" in pattern:
            measures.append(Measure(
                "ELF load", f"load libjvm.so and list its {lines.get('rawprobe') or '?'} "
                "functions", "ms", rp["wall"], bt["wall"],
                Goal(f"< {ELF_BENCH_MS} ms (rawprobe)", check=lambda r, _b: r < ELF_BENCH_MS),
                [f"the same runs as -l '{pattern}'; exec to exit, /usr/bin/time wrapper included"]))
    return measures


def _same_list(pattern, listed):
    """A measure whose cells are the probe counts and whose goal is that rawprobe lists every
    probe bpftrace lists. What only rawprobe lists is named in bench.md: for libjvm.so, GCC's
    local clones (foo.part.0, foo.constprop.0, foo.isra.0), real functions with code that
    bpftrace 0.17 leaves out of its listing."""
    rp, bt = listed.get("rawprobe"), listed.get("bpftrace")
    if rp is None or bt is None:
        reason = "no listing to compare"
        return Measure(NAME, f"-l '{pattern}': probes listed", "probes",
                       Outcome(samples=[len(rp)]) if rp else Outcome(failure=reason),
                       Outcome(samples=[len(bt)]) if bt else Outcome(failure=reason))
    only_rp, only_bt = sorted(rp - bt), sorted(bt - rp)
    notes = [f"only rawprobe lists (bpftrace drops) {len(only_rp)}{_examples(only_rp)}",
             f"only bpftrace lists {len(only_bt)}{_examples(only_bt)}"]
    if only_rp:
        notes.append("rawprobe-only names by kind: " + _kinds(only_rp))
    return Measure(NAME, f"-l '{pattern}': probes listed", "probes",
                   Outcome(samples=[len(rp)]), Outcome(samples=[len(bt)]),
                   Goal("all of bpftrace's" + ("" if not only_rp else f" (+{len(only_rp)} it drops)"),
                        check=lambda _r, _b: not only_bt), notes)


def _examples(names):
    if not names:
        return ""
    shown = ", ".join(n.rsplit(":", 1)[-1] for n in names[:SHOWN_DIFFERENCES])
    return f": {shown}{', ...' if len(names) > SHOWN_DIFFERENCES else ''}"


def _kinds(names):
    """GCC's local clones (foo.part.0, foo.constprop.1, foo.isra.0, foo.cold) by suffix."""
    kinds = {}
    for name in names:
        match = re.search(r"\.([A-Za-z_]+)(\.\d+)?$", name.rsplit(":", 1)[-1])
        kind = f".{match.group(1)}" if match else "other"
        kinds[kind] = kinds.get(kind, 0) + 1
    return ", ".join(f"{k} {n}" for k, n in sorted(kinds.items(), key=lambda kv: -kv[1]))


def _one(tool, pattern, listed):
    run = Run(tool.listing(pattern), to_file=True)
    try:
        status = run.finish(TIMEOUT)
        output = run.output()
        kind = pattern.split(":")[0] + ":"
        probes = [l for l in output.splitlines() if l.startswith(kind)]
        if status != 0 or run.timed_out or not probes:
            return tool.failure_reason(output, status, run.timed_out)
        listed[tool.name] = set(probes)
        return {"wall": run.wall * 1000, "lines": len(probes)}
    finally:
        run.cleanup()
