"""Program size the public way: the eBPF programs a process holds are the fds whose
/proc/PID/fdinfo has a `prog_id:` line; `bpftool prog show id N` gives each one's name and
translated (xlated) size, in bytes of 8-byte instructions."""
import json
import os
import shutil
import subprocess


def bpftool():
    return shutil.which("bpftool")


def held_programs(pid):
    """[(name, xlated instruction count)] of the programs process `pid` holds, sorted."""
    ids = set()
    fd_dir = f"/proc/{pid}/fdinfo"
    for fd in os.listdir(fd_dir):
        try:
            with open(os.path.join(fd_dir, fd)) as f:
                for line in f:
                    if line.startswith("prog_id:"):
                        ids.add(int(line.split()[1]))
        except OSError:
            continue
    programs = []
    for prog_id in sorted(ids):
        out = subprocess.run([bpftool(), "-j", "prog", "show", "id", str(prog_id)],
                             capture_output=True, text=True, timeout=30)
        if out.returncode != 0:
            continue
        info = json.loads(out.stdout)
        programs.append((info.get("name", "?"), info.get("bytes_xlated", 0) // 8))
    return sorted(programs)


def without(programs, baseline):
    """`programs` less one copy of each entry of `baseline` (the ready-marker's own BEGIN)."""
    rest = list(programs)
    for entry in baseline:
        if entry in rest:
            rest.remove(entry)
    return rest
