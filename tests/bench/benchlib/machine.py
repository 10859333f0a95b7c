"""Where and when the numbers were taken: date, CPU, core count, kernel, tool versions."""
import datetime
import os
import platform
import subprocess


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def git_commit(repo):
    out = subprocess.run(["git", "-C", repo, "describe", "--always", "--dirty"],
                         capture_output=True, text=True)
    return out.stdout.strip() or "unknown"


def header(repo, tools, runs, warmup, command, load_at_start):
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    versions = ", ".join(f"{t.name}: {t.version()} (`{t.path}`)" for t in tools)
    return [
        "# rawprobe vs bpftrace",
        "",
        f"- date: {now}",
        f"- machine: `nproc` {len(os.sched_getaffinity(0))}, "
        f"{cpu_model()}, kernel {platform.release()}",
        f"- versions: {versions}; rawprobe commit {git_commit(repo)}",
        f"- load: at start {load_at_start}; at end {load()}",
        f"- method: `{command}`: both tools alternate (A B A B), {warmup} warm-up round(s), "
        f"median of {runs} runs; ratio = rawprobe ÷ bpftrace",
    ]


def load():
    """`uptime`'s load averages when the run began: the machine may be shared."""
    try:
        with open("/proc/loadavg") as f:
            return "load average " + ", ".join(f.read().split()[:3]) + " (1, 5, 15 min)"
    except OSError:
        return "unknown"
