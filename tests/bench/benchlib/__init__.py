"""The `make bench` harness: rawprobe and bpftrace side by side on the same workloads."""
