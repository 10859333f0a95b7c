# Chunk 0 of bpftrace v0.26.1's tools (seven to a chunk, in name order; 39 tools fill six):
# /rawprobe/bpftrace-tools.sh (tests/vm/guest/bpftrace-tools.sh) says what is checked.
GENERATION=0.26.1
CHUNK=0
. /rawprobe/bpftrace-tools.sh
