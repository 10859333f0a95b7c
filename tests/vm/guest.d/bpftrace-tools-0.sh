# Chunk 0 of bpftrace 0.17's tools (seven to a chunk, in name order; 38 tools fill six):
# /rawprobe/bpftrace-tools.sh (tests/vm/guest/bpftrace-tools.sh) says what is checked.
CHUNK=0
. /rawprobe/bpftrace-tools.sh
