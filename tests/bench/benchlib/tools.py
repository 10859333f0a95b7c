"""The two tracers under test and how each is invoked. Both get the same script text, the
same workload and the same output redirection; only the binary differs."""
import os
import re
import shutil
import subprocess

# Lines a tracer prints that say nothing about success: bpftrace 0.17 warns on every start
# that it could not raise RLIMIT_MEMLOCK (this kernel accounts BPF memory to cgroups instead).
HARMLESS = [re.compile(r"couldn't set RLIMIT_MEMLOCK")]


class Tool:
    def __init__(self, name, path):
        self.name = name
        self.path = path

    def missing(self):
        """Why this tool cannot run at all, or None."""
        if not self.path or not os.access(self.path, os.X_OK):
            return f"no {os.path.relpath(self.path) if self.path else self.name}"
        return None

    def version(self):
        if self.missing():
            return "absent"
        try:
            out = subprocess.run([self.path, "--version"], capture_output=True, text=True,
                                 timeout=10)
        except (OSError, subprocess.TimeoutExpired) as err:
            return f"unknown ({err})"
        return (out.stdout or out.stderr).strip().splitlines()[0] if (out.stdout or out.stderr) else "unknown"

    def script(self, text, *extra):
        return [self.path, "-e", text, *extra]

    def with_command(self, text, command):
        return [self.path, "-e", text, "-c", command]

    def listing(self, pattern):
        return [self.path, "-l", pattern]

    def failure_reason(self, output, returncode, timed_out=False):
        """A short, plain reason taken from what the tool printed when it failed: its first
        ERROR line (bpftrace prints the cause after other lines), else its first line that
        is not a progress line such as "Attaching N probes..."."""
        if timed_out:
            return "timed out"
        lines = [l.strip() for l in output.splitlines()]
        lines = [l for l in lines if l and not any(h.search(l) for h in HARMLESS)]
        errors = [l for l in lines if re.match(r"(ERROR|error|rawprobe: )", l)]
        progress = re.compile(r"^Attaching \d+ probes?\.\.\.$")
        for text in errors + [l for l in lines if not progress.match(l)]:
            text = re.sub(rf"^({re.escape(self.name)}|ERROR|error)\s*:\s*", "", text)
            return text[:100]
        return f"exit status {returncode}, no output"


def make_tools(build_dir):
    # The static binary: the one rawprobe ships (the footprint row measures it, the VM
    # harness boots it). The dynamic build/rawprobe maps libstdc++, Capstone and libelf as
    # shared libraries and relocates them at every start: more RSS, slower start.
    rawprobe = Tool("rawprobe", os.path.join(build_dir, "rawprobe-static"))
    bpftrace = Tool("bpftrace", shutil.which("bpftrace") or "/usr/bin/bpftrace")
    return [rawprobe, bpftrace]
