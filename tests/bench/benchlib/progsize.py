"""The eBPF programs a process holds, the public way: the fds whose /proc/PID/fdinfo has a
`prog_id:` line (program fds, and link fds naming their program). `bpftool prog show id N`
gives each one's name and translated (xlated) size, in bytes of 8-byte instructions; a
program fd's own fdinfo also has `run_time_ns:` and `run_cnt:`, the kernel's run-time
statistics (counted while kernel.bpf_stats_enabled is 1, see benchlib/bpfstats.py)."""
import json
import os
import shutil
import subprocess


def bpftool():
    return shutil.which("bpftool")


def fdinfos(pid):
    """The `key: value` lines of /proc/PID/fdinfo/FD for each fd of `pid`, as one dict per fd
    (the first value of a key; lines without a colon, such as a uprobe_multi link's offset
    table, are left out). An fd closed while the directory is read is skipped."""
    infos = []
    fd_dir = f"/proc/{pid}/fdinfo"
    for fd in os.listdir(fd_dir):
        info = {}
        try:
            with open(os.path.join(fd_dir, fd)) as f:
                for line in f:
                    key, colon, value = line.partition(":")
                    if colon:
                        info.setdefault(key.strip(), value.strip())
        except OSError:
            continue
        infos.append(info)
    return infos


def program_runs(pid):
    """[(prog_id, run_time_ns, run_cnt)] of the program fds process `pid` holds, by id (a
    link's fdinfo names its program but has no run counters)."""
    runs = {}
    for info in fdinfos(pid):
        if "prog_id" in info and "run_cnt" in info:
            runs[int(info["prog_id"])] = (int(info["run_time_ns"]), int(info["run_cnt"]))
    return [(prog_id, *runs[prog_id]) for prog_id in sorted(runs)]


def held_programs(pid):
    """[(name, xlated instruction count)] of the programs process `pid` holds, sorted."""
    ids = {int(info["prog_id"]) for info in fdinfos(pid) if "prog_id" in info}
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
