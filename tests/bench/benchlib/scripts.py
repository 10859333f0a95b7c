"""The scripts both tracers run: the seed's scripts from samples/*.bt (their /tmp paths
pointed at the built samples) and the workload scripts of the per-event rows."""
import os
import re

# bpftrace 0.17 fires BEGIN once every probe of the script is attached, so this line is the
# first thing either tracer prints after attaching: the end of "start-up".
READY_TEXT = "bench: all probes attached"
READY_PATTERN = re.escape(READY_TEXT)
READY_PROBE = 'BEGIN { printf("' + READY_TEXT + '\\n"); }'
ATTACHING_PATTERN = r"^Attaching \d+ probes?\.\.\."

# The seed names its USDT program /tmp/usdt_hello; the samples build it as hello_usdt.
_SEED_PATH_TO_SAMPLE = {"usdt_hello": "hello_usdt"}

# Seed scripts measured by the start-up, short-run, memory and program-size rows, with the
# sample each one traces (run with -c in the short-run row; None: it never exits by itself).
SEED_SCRIPTS = [
    ("read_rand_threads.bt", "read_rand"),
    ("read_rand_reads.bt", "read_rand"),
    ("fun_counts.bt", "fun"),
    ("hello_usdt.bt", None),
]


def seed_script(repo, samples_dir, file_name):
    """The script text with every /tmp/<program> replaced by the built sample's path."""
    with open(os.path.join(repo, "samples", file_name)) as f:
        text = f.read()

    def to_sample(match):
        name = match.group(1)
        return os.path.join(samples_dir, _SEED_PATH_TO_SAMPLE.get(name, name))
    return re.sub(r"/tmp/(\w+)", to_sample, text)


def with_ready(text):
    return text.rstrip() + "\n" + READY_PROBE + "\n"


def sample_paths(samples_dir, text):
    """Sample binaries a script names, so a missing build is reported, not run."""
    return sorted(set(re.findall(re.escape(samples_dir) + r"/\w+", text)))
