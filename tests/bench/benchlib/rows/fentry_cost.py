"""fentry vs kprobe (VM): what a fentry probe (BPF trampoline) costs against a kprobe (int3)
on the same kernel function, __do_sys_getppid, both rawprobe's. This machine's kernel has no
kprobes and refuses trampolines, so the row boots the newest cached stock kernel of the VM
harness (tests/vm/boot) and runs only tests/vm/guest.d/fentry-cost.sh there: three rounds,
the probes taking turns, of samples/bench_getppid (10^5 calls timed with clock_gettime) under
`@ = count()` on each, less the untraced time, and the probe's program's ns per run from the
kernel's BPF statistics in the same run. The guest reports the medians; the ratio is fentry ÷ kprobe. Under
TCG every figure is far above bare metal's; the ratio is what carries over. bpftrace 0.17 is
not in the guest."""
import os
import re
import subprocess

from ..model import Measure, Outcome

NAME = "fentry vs kprobe (VM)"
TEST = "fentry-cost"
NOT_BPFTRACE = "not in the guest: this row is rawprobe's fentry against its own kprobe"


def measure(ctx):
    figures, how, failure = _run_guest(ctx)
    rows = [
        ("ns added per getppid() call, fentry", "fentry_added_ns", "ns"),
        ("ns added per getppid() call, kprobe", "kprobe_added_ns", "ns"),
        ("ns added per call: fentry ÷ kprobe", "added_ratio", "×"),
        ("BPF program ns per run (bpf_stats), fentry", "fentry_prog_ns", "ns"),
        ("BPF program ns per run (bpf_stats), kprobe", "kprobe_prog_ns", "ns"),
        ("BPF program ns per run: fentry ÷ kprobe", "prog_ratio", "×"),
    ]
    out = []
    for text, key, unit in rows:
        rp = (Outcome(samples=[float(figures[key])]) if figures and key in figures and not failure
              else Outcome(failure=failure or f"the guest reported no {key}"))
        out.append(Measure(NAME, text, unit, rp, Outcome(failure=NOT_BPFTRACE), None, [how]))
    return out


def _run_guest(ctx):
    """(figures, how, failure): the key=value figures of the guest's fentry-cost result."""
    # One test, but slow under TCG: more than the suite's 120 s per test and 240 s per boot.
    env = dict(os.environ, BUILD=ctx.build, RAWPROBE_VM_ONLY=TEST, RAWPROBE_VM_TEST_TIMEOUT="600",
               RAWPROBE_VM_TIMEOUT="900")
    for var in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL"):
        env.pop(var, None)
    made = subprocess.run(["make", "--no-print-directory", "-j2", f"BUILD={ctx.build}", "vm-images"],
                          cwd=ctx.repo, env=env, capture_output=True, text=True)
    if made.returncode != 0:
        return None, "make vm-images", "make vm-images failed: " + made.stderr.strip()[-200:]
    listing = os.path.join(ctx.build, "vm", "kernels", "list")
    kernels = [line.strip() for line in open(listing) if line.strip()] if os.path.exists(listing) else []
    if not kernels:
        return None, "make vm-images", f"no cached kernel in {listing}"
    kdir = kernels[-1]  # fetch-kernels lists the series oldest first: the newest is last
    release = open(os.path.join(kdir, "release")).read().strip()
    out_dir = os.path.join(ctx.build, "vm", "bench", release)
    how = f"RAWPROBE_VM_ONLY={TEST} tests/vm/boot {os.path.relpath(kdir, ctx.repo)} (guest {release}, TCG)"
    ctx.log(f"{NAME}: booting {release} under TCG (a few minutes)")
    boot = subprocess.run(["tests/vm/boot", kdir, out_dir], cwd=ctx.repo, env=env,
                          capture_output=True, text=True)
    results = os.path.join(out_dir, "results.log")
    text = open(results, errors="replace").read() if os.path.exists(results) else ""
    match = re.search(rf"RAWPROBE-VM-RESULT \S+ {TEST} (PASS|FAIL) (.*)", text)
    if not match:
        return None, how, f"the guest gave no {TEST} result (qemu exit {boot.returncode}; see {out_dir}/console.log)"
    figures = dict(re.findall(r"(\w+)=([-0-9.]+)", match.group(2)))
    if match.group(1) != "PASS":
        return figures, how, "the guest's check failed: " + match.group(2)[:200]
    return figures, how + "; " + match.group(2), None
