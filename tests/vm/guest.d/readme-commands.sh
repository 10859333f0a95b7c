# The README's example commands that need kprobes or a PMU (the development machine has
# neither), run on each stock kernel and checked against the output the README shows.
# The blocks below between the READMEBLOCKS markers are a copy of README.md's blocks marked
# `<!-- readme-test: vm ... -->`; tests/kernel/readme_commands_test.cpp fails when the copy and
# README.md differ, so a README edit must be copied here. The matching rules are that test's
# (tests/kernel/readme_blocks.h): options `numbers` (every decimal and 0x number may differ,
# and so may the runs of blanks that pad them; `numbers:P` only on lines starting with P), `sorted` (line order may differ), `status=N`
# (exit status, default 0), `arch=M` (only where `uname -m` is M: the other architecture's
# guests run none of the block), `kconfig=CONFIG_X` (only on a kernel whose config sets it);
# an output line `...` stands for any number of lines; trailing
# blank lines are ignored. The samples go to the seed's /tmp paths, as on the host.
# One result per command: readme-commands/<block>.<command> PASS|FAIL; each command's real
# output is printed on the console, between "--- readme output" lines, to copy from.
for s in fun hello read_rand open_read; do
  [ -f "$RAWPROBE_SAMPLES/$s" ] && cp "$RAWPROBE_SAMPLES/$s" "/tmp/$s"
done
[ -f "$RAWPROBE_SAMPLES/hello_usdt" ] && cp "$RAWPROBE_SAMPLES/hello_usdt" /tmp/usdt_hello

cat >blocks <<'READMEBLOCKS'
<!-- readme-test: vm -->
```
# rawprobe -l 'kprobe:vfs_read*'
kprobe:vfs_readv
kprobe:vfs_read
kprobe:vfs_readlink

# rawprobe -l | grep 'tracepoint:.*init_module'
tracepoint:syscalls:sys_enter_finit_module
tracepoint:syscalls:sys_enter_init_module
tracepoint:syscalls:sys_exit_finit_module
tracepoint:syscalls:sys_exit_init_module

# rawprobe --explain kretprobe:vfs_read
kretprobe:vfs_read: program type kprobe
kernel function vfs_read + 0
attach: perf_event_open on the kprobe PMU (config1 = function name, config2 = offset) as a kretprobe (maxactive: the kernel's default)

# rawprobe --explain kretprobe:vfs_read --kretprobe-maxactive=7
kretprobe:vfs_read: program type kprobe
kernel function vfs_read + 0
attach: kprobe_events line 'r7:rawprobe_<pid>_<n> vfs_read+0' (maxactive 7 can only be set this way), then perf_event_open of its tracepoint id; the line is removed when the run ends
```

<!-- readme-test: vm kconfig=CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS -->
```
# rawprobe -l | grep load_module
fentry:vmlinux:load_module
...
kprobe:load_module
...
```

<!-- readme-test: vm numbers:pid -->
```
# rawprobe -c '/tmp/open_read 3' -e 'kprobe:do_sys_openat2 /comm == "open_read"/ { @opens = count(); }'
Attaching 1 probe...
pid 179
path /proc/self/exe
read 1 returned 64
read 2 returned 64
read 3 returned 64
opens 3
reads 3
bytes 192


@opens: 3

# rawprobe -c '/tmp/open_read 3' -e 'kretprobe:vfs_read /comm == "open_read"/ { @bytes[retval] = count(); }'
Attaching 1 probe...
pid 190
path /proc/self/exe
read 1 returned 64
read 2 returned 64
read 3 returned 64
opens 3
reads 3
bytes 192


@bytes[64]: 3
```

<!-- readme-test: vm numbers -->
```
# rawprobe --trace-syscalls -c '/tmp/open_read 1' -e 'kprobe:do_sys_openat2 { @ = count(); }' 2>&1 | grep perf_event_open
perf_event_open({type=6 /* kprobe */, size=64, config=0x0, retprobe=0, config1="do_sys_openat2", config2=0x0, sample_period=1, sample_type=0x0, flags=disabled, wakeup_events=1}, pid=-1, cpu=0, group_fd=-1, flags=PERF_FLAG_FD_CLOEXEC) = 10

# rawprobe --attach-mode=legacy --trace-syscalls -c '/tmp/open_read 1' -e 'kretprobe:vfs_read { @ = count(); }' 2>&1 | grep -E 'kprobe_events|perf_event_open'
write("/sys/kernel/tracing/kprobe_events", "r:rawprobe_217_0 vfs_read+0\n") = 28
perf_event_open({type=PERF_TYPE_TRACEPOINT, size=64, config=1338 /* tracepoint id */, sample_period=1, sample_type=0x0, flags=disabled, wakeup_events=1}, pid=-1, cpu=0, group_fd=-1, flags=PERF_FLAG_FD_CLOEXEC) = 10
write("/sys/kernel/tracing/kprobe_events", "-:kprobes/rawprobe_217_0\n") = 25
```

<!-- readme-test: vm host arch=x86_64 status=1 -->
```
# rawprobe -c '/tmp/open_read 3' -e 'hardware:instructions:100000 /comm == "open_read"/ { @insns = count(); }'
Attaching 1 probe...
rawprobe: this machine has no hardware PMU: the kernel has no hardware counters to sample 'hardware:instructions:100000': perf_event_open: ENOENT (No such file or directory)
hint: hardware:* probes need a CPU performance-monitoring unit the kernel can use (a VM often has none unless the hypervisor passes it through); sample time with profile:hz:99 or software:cpu-clock instead
```

<!-- readme-test: vm arch=aarch64 numbers:pid numbers:@insns -->
```
# rawprobe -c '/tmp/open_read 3' -e 'hardware:instructions:100000 /comm == "open_read"/ { @insns = count(); }'
Attaching 1 probe...
pid 3197
path /proc/self/exe
read 1 returned 64
read 2 returned 64
read 3 returned 64
opens 3
reads 3
bytes 192


@insns: 3
```

<!-- readme-test: vm host numbers:pid numbers:@faults -->
```
# rawprobe -c '/tmp/open_read 3' -e 'software:page-faults:1 /comm == "open_read"/ { @faults = count(); }'
Attaching 1 probe...
pid 247
path /proc/self/exe
read 1 returned 64
read 2 returned 64
read 3 returned 64
opens 3
reads 3
bytes 192


@faults: 26
```
READMEBLOCKS

# readme_match EXPECTED ACTUAL OPTIONS: the README's rule, in awk.
readme_match() {
  awk -v ef="$1" -v af="$2" -v opts=" $3 " '
    function norm(s,   w, n, i, p) {
      n = split(opts, w, " ")
      for (i = 1; i <= n; i++) {
        if (w[i] == "numbers") p = ""; else if (w[i] ~ /^numbers:/) p = substr(w[i], 9); else continue
        if (substr(s, 1, length(p)) == p) { gsub(/0x[0-9a-fA-F]+|[0-9]+/, "N", s); gsub(/  +/, " ", s) }
      }
      return s
    }
    function load(f, arr,   n, l) { n = 0; while ((getline l < f) > 0) arr[++n] = norm(l); while (n > 0 && arr[n] == "") n--; return n }
    function sortarr(arr, n,   i, j, t) { for (i = 2; i <= n; i++) { t = arr[i]; for (j = i - 1; j >= 1 && arr[j] > t; j--) arr[j + 1] = arr[j]; arr[j + 1] = t } }
    BEGIN {
      ne = load(ef, e); na = load(af, a)
      if (opts ~ / sorted /) {
        if (ne != na) exit 1
        sortarr(e, ne); sortarr(a, na)
        for (i = 1; i <= ne; i++) if (e[i] != a[i]) exit 1
        exit 0
      }
      i = 1; pos = 1; anchored = 1
      while (i <= ne) {
        if (e[i] == "...") { anchored = 0; i++; continue }
        j = i; while (j <= ne && e[j] != "...") j++
        len = j - i; first = pos; last = anchored ? pos : na - len + 1
        if (j > ne && !anchored) first = last
        found = 0
        for (s = first; s <= last && !found; s++) {
          ok = 1
          for (k = 0; k < len; k++) if (a[s + k] != e[i + k] || s + k > na) { ok = 0; break }
          if (ok) { found = 1; pos = s + len }
        }
        if (!found) exit 1
        anchored = 1; i = j
      }
      exit (anchored && pos != na + 1) ? 1 : 0
    }'
}

# Runs one command with its expected output, reports, prints the real output.
readme_check() {
  only=$(printf '%s\n' $opts | sed -n 's/^arch=//p')
  [ -z "$only" ] || [ "$only" = "$(uname -m)" ] || return 0
  needs=$(printf '%s\n' $opts | sed -n 's/^kconfig=//p')
  [ -z "$needs" ] || vm_config_enabled "$needs" || return 0
  sh -c "$cmd" >actual 2>&1 </dev/null
  rc=$?
  want=${opts#*status=}; [ "$want" = "$opts" ] && want=0; want=${want%% *}
  echo "--- readme output $name: # $cmd (exit $rc)"
  cat actual
  echo "--- readme output end"
  if [ "$rc" != "$want" ]; then
    vm_result "readme-commands/$name" FAIL "exit $rc, README expects $want: # $cmd: $(head -c 300 actual)"
  elif readme_match expected actual "$opts"; then
    vm_result "readme-commands/$name" PASS "# $cmd"
  else
    vm_result "readme-commands/$name" FAIL "output differs from the README: # $cmd: $(head -c 300 actual)"
  fi
}

block=0 cmd="" opts="" inblock=0
while IFS= read -r line; do
  case "$line" in
    '<!-- readme-test:'*) opts=$(echo "$line" | sed 's/^<!-- readme-test: *//; s/ *-->$//'); block=$((block + 1)); n=0 ;;
    '```')
      if [ "$inblock" = 1 ]; then
        [ -n "$cmd" ] && readme_check
        cmd="" inblock=0
      else inblock=1; fi ;;
    '# rawprobe'*)
      [ -n "$cmd" ] && readme_check
      n=$((n + 1)); name="$block.$n"; cmd=${line#\# }; : >expected ;;
    *) [ "$inblock" = 1 ] && [ -n "$cmd" ] && printf '%s\n' "$line" >>expected ;;
  esac
done <blocks
