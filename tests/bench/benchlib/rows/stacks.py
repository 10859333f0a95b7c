"""stacks: symbolizing 10,000 distinct user stacks of a large C++ binary. A generated program
(tests/bench/gen_stacks.py: 5,200 functions, -O0 with frame pointers) reaches gen::target(int)
by 100 x 100 distinct call paths; the tracer runs `@[ustack] = count()` on it with -p and
exits by itself 3 s after attaching, then prints every stack with names. The process lives
on meanwhile, as a service would, so both tools can name its frames.

One measured round (no warm-up): bpftrace 0.17 needs minutes to print these stacks. Measures:
wall time from exec to exit, peak RSS, stacks printed (both keep at most 4,096 keys: a map's
default limit), and how many frames came out as bare addresses."""
import os
import re
import subprocess
import tempfile

from ..model import Measure, at_most, faster
from ..process import Run, SCRATCH_DIR
from ..repeat import alternate, fail_all
from ..scripts import READY_PATTERN, with_ready

NAME = "stacks"
TARGET = "_ZN3gen6targetEi"
TIMEOUT = int(os.environ.get("BENCH_STACKS_TIMEOUT", "300"))


def measure(ctx):
    binary = os.path.join(ctx.build, "bench", "gen_stacks")
    reason = _build(ctx.repo, binary)
    if reason:
        results = fail_all(ctx.tools, reason)
    else:
        results = alternate(ctx.tools, 1, 0, lambda tool: _one(tool, binary), ctx.progress("stacks"))
    rp, bt = results["rawprobe"], results["bpftrace"]
    how = f"-p PID -e 'uprobe:gen_stacks:{TARGET} {{ @[ustack] = count(); }} interval:s:3 {{ exit(); }}'"
    return [
        Measure(NAME, "10,000 user stacks: wall, exec to exit", "s", rp["wall"], bt["wall"], faster(5), [how]),
        Measure("memory", "10,000 user stacks: peak RSS", "KiB", rp["rss_kb"], bt["rss_kb"],
                at_most("1/5", 1 / 5), ["/usr/bin/time -v, same run"]),
        Measure(NAME, "10,000 user stacks: stacks printed", "stacks", rp["stacks"], bt["stacks"], None, [how]),
        Measure(NAME, "10,000 user stacks: frames left as addresses", "frames", rp["unnamed"], bt["unnamed"],
                None, ["frames printed as a bare hex address"]),
    ]


def _build(repo, binary):
    os.makedirs(os.path.dirname(binary), exist_ok=True)
    source = binary + ".cpp"
    try:
        subprocess.run(["python3", os.path.join(repo, "tests", "bench", "gen_stacks.py"), source], check=True)
        subprocess.run(["g++", "-O0", "-fno-omit-frame-pointer", "-o", binary, source], check=True,
                       capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError) as err:
        return f"could not build the workload: {err}"
    return None


def _one(tool, binary):
    go = tempfile.mktemp(prefix="bench-stacks-go-", dir=SCRATCH_DIR)
    workload = subprocess.Popen([binary, go], stdout=subprocess.PIPE, text=True)
    run = None
    try:
        pid = int(workload.stdout.readline().split("=")[1])
        script = f"uprobe:{binary}:{TARGET} {{ @[ustack] = count(); }} interval:s:3 {{ exit(); }}"
        run = Run(tool.script(with_ready(script), "-p", str(pid)), to_file=True)
        if run.wait_for_line(READY_PATTERN, 60) is None:
            run.stop(30)
            return "never attached: " + tool.failure_reason(run.output(), run.returncode, run.timed_out)
        open(go, "w").close()
        status = run.finish(TIMEOUT)
        output = run.output()
        if run.timed_out:
            return f"still printing after {TIMEOUT} s (BENCH_STACKS_TIMEOUT)"
        if status != 0:
            return tool.failure_reason(output, status, False)
        stacks = len(re.findall(r"^\]: \d+$", output, re.M))
        frames = re.findall(r"^\s+(\S.*)$", output, re.M)
        unnamed = sum(1 for f in frames if re.fullmatch(r"(0x)?[0-9a-f]+|\[unknown\]", f.strip()))
        rss = run.peak_rss_kb()
        return {"wall": run.wall, "rss_kb": rss if rss is not None else "no RSS report",
                "stacks": stacks, "unnamed": unnamed}
    finally:
        workload.kill()
        workload.wait()
        if run:
            run.cleanup()
        if os.path.exists(go):
            os.unlink(go)
