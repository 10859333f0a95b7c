# Turns doctest's XML report (`-r=xml`) into one line per test case:
#   STATUS<TAB>NAME<TAB>DETAIL      STATUS is PASS, FAIL or SKIP
# or EXCLUDED<TAB>NAME<TAB>SUITE for a case of the test suite named by -v exclude=SUITE (which
# the caller left out with --test-suite-exclude, so doctest lists it as skipped).
# Written for busybox awk. DETAIL of a failure is the first failed check (file:line, the
# expression as written and as expanded, the first line of up to 3 INFO contexts) or the
# exception. A case that started but never
# reported its result means the binary died inside it: FAIL.
function unescape(s) {
  gsub(/&lt;/, "<", s); gsub(/&gt;/, ">", s); gsub(/&quot;/, "\"", s); gsub(/&apos;/, "'", s)
  gsub(/&amp;/, "\\&", s)
  return s
}
function attr(line, key,   m) {
  if (match(line, " " key "=\"[^\"]*\"")) {
    m = substr(line, RSTART + length(key) + 3, RLENGTH - length(key) - 4)
    return unescape(m)
  }
  return ""
}
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
BEGIN { current = ""; want = ""; suite = "" }
/<TestSuite/ { suite = attr($0, "name"); next }
/<TestCase / {
  if ($0 ~ /\/>[ \t]*$/) {
    if (attr($0, "skipped") != "true") next
    if (exclude != "" && suite == exclude) printf "EXCLUDED\t%s\t%s\n", attr($0, "name"), suite
    else printf "SKIP\t%s\tskipped\n", attr($0, "name")
    next
  }
  current = attr($0, "name"); detail = ""; want = ""; infos = 0
  next
}
current != "" && /<Expression success="false"/ {
  if (detail == "") { detail = attr($0, "filename") ":" attr($0, "line") " " attr($0, "type"); want = "original" }
  next
}
current != "" && /<Exception / {
  if (detail == "") { detail = (attr($0, "crash") == "true" ? "crashed: " : "exception: "); want = "exception" }
  next
}
current != "" && /<Original>/ { if (want == "original") want = "original-text"; next }
current != "" && /<Expanded>/ { if (want == "expanded") want = "expanded-text"; next }
current != "" && want == "original-text" { detail = detail " " unescape(trim($0)); want = "expanded"; next }
current != "" && want == "expanded-text" { detail = detail " (" unescape(trim($0)) ")"; want = "info"; next }
# The INFO()/CAPTURE() context of the first failure: the first line of each, up to 3.
current != "" && want == "info" && /<Info>/ { if (infos++ < 3) want = "info-text"; next }
current != "" && want == "info-text" { detail = detail "; " unescape(trim($0)); want = "info"; next }
current != "" && want == "info" && /<\/Expression>/ { want = ""; next }
current != "" && want == "exception" { detail = detail unescape(trim($0)); want = ""; next }
current != "" && /<OverallResultsAsserts / {
  took = attr($0, "duration")
  took = (took == "" ? "" : sprintf(" in %.2fs", took))
  if (attr($0, "test_case_success") == "true") {
    printf "PASS\t%s\t%s checks%s\n", current, attr($0, "successes"), took
  } else {
    if (detail == "") detail = attr($0, "failures") " failed checks"
    printf "FAIL\t%s\t%s%s\n", current, detail, took
  }
  current = ""
  next
}
END {
  if (current != "") printf "FAIL\t%s\tthe test binary died inside this case (no result recorded)%s\n", current, (detail == "" ? "" : "; " detail)
}
