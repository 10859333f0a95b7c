# The kernel test suite (tests/kernel, linked static as kernel-tests-static) on the booted
# kernel: one result line per doctest case, named kernel-tests/<case>. doctest's XML report is
# the format parsed (tests/vm/guest/doctest-xml.awk).
#
# Cases whose oracle is a program only the build host has (bpftrace, readelf, llvm-mc, a
# compiler) belong to the doctest test suite "host-only" (TEST_SUITE("host-only") { ... } or
# `* doctest::test_suite("host-only")`): the guest leaves them out and reports nothing for
# them, since the host's kernel suite runs them.
host_only=host-only
xml=/tmp/kernel-tests.xml
# Stopped with SIGTERM before the harness's own timeout kills this script: doctest catches
# SIGTERM, reports the case it was in as crashed and flushes the report, so a hang is named.
budget=$((VM_TEST_TIMEOUT > 30 ? VM_TEST_TIMEOUT - 15 : VM_TEST_TIMEOUT))
timeout -s TERM "$budget" kernel-tests -r=xml --duration=true --test-suite-exclude="$host_only" >"$xml"
rc=$?
awk -v exclude="$host_only" -f /rawprobe/doctest-xml.awk "$xml" >/tmp/kernel-tests.results
cases=0
failed=0
excluded=0
tab=$(printf '\t')
while IFS="$tab" read -r status name detail; do
  if [ "$status" = EXCLUDED ]; then
    excluded=$((excluded + 1))
    continue
  fi
  vm_result "kernel-tests/$name" "$status" "$detail"
  cases=$((cases + 1))
  [ "$status" = FAIL ] && failed=$((failed + 1))
done </tmp/kernel-tests.results
echo "kernel-tests: $cases cases reported, $excluded in suite $host_only left to the host"
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
  echo "--- kernel-tests output:"; cat "$xml"
  vm_result kernel-tests FAIL "exit status $rc with no failed case in its report"
elif [ "$cases" -eq 0 ] && [ "$excluded" -eq 0 ]; then
  vm_result kernel-tests SKIP "kernel-tests-static holds no test case"
fi
exit 0
