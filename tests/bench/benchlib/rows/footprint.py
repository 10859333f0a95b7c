"""footprint: bytes on disk. rawprobe ships one static binary, stripped (`make bench` builds
$(BUILD)/rawprobe-static.stripped; the unstripped build is ~85% DWARF); bpftrace needs its
binary plus every shared library `ldd` resolves for it (LLVM, Clang, BCC, ...), as Debian
installs them (stripped)."""
import os
import re
import subprocess

from ..model import Measure, Outcome, at_most

NAME = "footprint"


def measure(ctx):
    rawprobe_static = os.path.join(ctx.build, "rawprobe-static.stripped")
    if os.path.isfile(rawprobe_static):
        rp = Outcome(samples=[os.path.getsize(rawprobe_static)])
    else:
        rp = Outcome(failure=f"no {os.path.relpath(rawprobe_static, ctx.repo)} "
                     "(make BUILD=... size)")
    bpftrace = next(t for t in ctx.tools if t.name == "bpftrace")
    bt_files = _with_shared_libraries(bpftrace.path) if not bpftrace.missing() else None
    bt = (Outcome(samples=[sum(os.path.getsize(f) for f in bt_files)]) if bt_files
          else Outcome(failure=bpftrace.missing() or "ldd failed"))
    count = f"{len(bt_files)} files" if bt_files else "?"
    return [Measure(NAME, "bytes on disk (bpftrace: binary + ldd libraries)", "bytes", rp, bt,
                    at_most("1/20", 1 / 20),
                    [f"stat rawprobe-static.stripped; bpftrace + `ldd` ({count}, symlinks resolved)"])]


def _with_shared_libraries(binary):
    out = subprocess.run(["ldd", binary], capture_output=True, text=True)
    if out.returncode != 0:
        return None
    files = {os.path.realpath(binary)}
    for line in out.stdout.splitlines():
        # "libz.so.1 => /lib/x86_64-linux-gnu/libz.so.1 (0x...)" or "/lib64/ld-linux... (0x...)"
        match = re.search(r"(?:=>\s*)?(/\S+)\s+\(0x", line)
        if match:
            files.add(os.path.realpath(match.group(1)))
    return sorted(files)
