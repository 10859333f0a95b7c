// pton() as bpftrace 0.17 types it, against bpftrace itself: an array (unsigned int8[4] for
// IPv4, [16] for IPv6) that is indexed, printed by print() and as a map key or value (text
// and JSON), passed to ntop(), and compared with == and != (also C arrays read from memory
// and a tracepoint's array fields);
// with bpftrace's refusals of a bad index, a bad address and an array where an integer or
// string belongs.
#include <doctest/doctest.h>

#include <fstream>

#include "tests/kernel/oracle_compare.h"

using namespace rawprobe::cli_test;

namespace {

// "1:56: MESSAGE" -> "MESSAGE".
std::string message_of(const std::string& first) { return first.substr(first.find(": ") + 2); }

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("oracle: pton() is an array that indexes, prints and keys maps, as bpftrace 0.17") {
  std::string maps = "BEGIN { $a = pton(\"127.0.0.1\"); print($a); @a = pton(\"::1\");"
                     " @k[pton(\"1.2.3.4\"), 2] = pton(\"5.6.7.8\"); printf(\"%d\\n\", $a[1]); exit(); }";
  check_against_bpftrace({
      {{}, "BEGIN { $a = pton(\"127.0.0.1\"); printf(\"%d %d\\n\", $a[0], $a[3]); print($a); exit(); }"},
      {{}, maps},
      {{"-f", "json"}, maps},
      {{}, "BEGIN { printf(\"%d\\n\", pton(\"1.2.3.4\")[2]); $a = pton(\"fe80::1:2\");"
           " printf(\"%d %d %s %d\\n\", $a[0], $a[15], ntop($a), sizeof($a)); @m[1] = pton(\"10.0.0.1\");"
           " @m[2] = pton(\"10.0.0.2\"); $t = (1, pton(\"1.2.3.4\")); print($t); exit(); }"},
      {{}, "BEGIN { $a = pton(\"1.2.3.4\"); printf(\"%d\\n\", $a[0] + $a[1] * $a[3]); exit(); }"},
  });
}

TEST_CASE("oracle: arrays compare with == and !=, as bpftrace 0.17") {
  check_against_bpftrace({
      {{}, "BEGIN { $a = pton(\"1.2.3.4\"); $b = pton(\"1.2.3.5\"); if ($a != $b) { printf(\"ne\\n\"); }"
           " if ($a == $b) { printf(\"eq\\n\"); } $c = $a == pton(\"1.2.3.4\");"
           " printf(\"%d %d\\n\", $c, $a != pton(\"1.2.3.4\")); exit(); }"},
      {{}, "BEGIN { if (pton(\"::1\") == pton(\"::1\")) { printf(\"same\\n\"); }"
           " if (pton(\"::1\") != pton(\"::2\")) { printf(\"differ\\n\"); } exit(); }"},
      // C arrays from memory: both reads of address 0 fail, leaving zeros that compare equal.
      {{}, "struct S { int a[4]; int b[4]; }; BEGIN { $p = (struct S *)0; if ($p->a == $p->b) { printf(\"x\\n\"); }"
           " $q = $p->a; if ($q != $p->b) { printf(\"y\\n\"); } exit(); }"},
  });
}

TEST_CASE("oracle: misuses of pton() and of arrays are refused, as bpftrace 0.17") {
  check_against_bpftrace({
      {{}, "BEGIN { $a = pton(\"1.2.3.4\"); printf(\"%d\\n\", $a[4]); exit(); }"},
      {{}, "BEGIN { $a = pton(\"1.2.3.4\"); printf(\"%d\\n\", $a[-1]); exit(); }"},
      {{}, "BEGIN { $a = pton(\"1.2.3.4\"); if ($a == 1) { printf(\"eq\\n\"); } exit(); }"},
      {{}, "BEGIN { $a = pton(\"1.2.3.4\"); if ($a == \"abcd\") { printf(\"eq\\n\"); } exit(); }"},
      {{}, "BEGIN { printf(\"%s\\n\", pton(\"1.2.3.4\")); exit(); }"},
      {{}, "BEGIN { $a = pton(\"1.2.3.4\"); printf(\"%d\\n\", $a); exit(); }"},
      {{}, "BEGIN { $x = bswap(pton(\"1.2.3.4\")); exit(); }"},
      {{}, "BEGIN { printf(\"%s\\n\", macaddr(pton(\"1.2.3.4\"))); exit(); }"},
      {{}, "BEGIN { $a = pton(\"1.2.3.4\"); $a = 1; exit(); }"},
      {{}, "BEGIN { $a = pton(\"1.2.3\"); exit(); }"},
      {{}, "BEGIN { $a = pton(\":1.2.3.4\"); exit(); }"},
      {{}, "BEGIN { $a = pton(\"::ffff:1.2.3.4\"); exit(); }"},
      {{}, "BEGIN { $a = pton(\"zz\"); exit(); }"},
  });
}

// bpftrace points these at the operator; rawprobe's spans start at the left operand, so the
// message is bpftrace's and the column the comparison's first character (the parenthesis
// that opens `if (`'s condition, which belongs to it).
TEST_CASE("oracle: comparisons bpftrace refuses on arrays get its messages") {
  const std::vector<std::string> programs = {
      "BEGIN { $a = pton(\"1.2.3.4\"); if ($a < pton(\"1.2.3.5\")) { printf(\"lt\\n\"); } exit(); }",
      "BEGIN { $a = pton(\"1.2.3.4\"); $b = pton(\"::1\"); if ($a == $b) { printf(\"eq\\n\"); } exit(); }",
      "struct S { int a[4]; unsigned char b[4]; }; BEGIN { $p = (struct S *)0; if ($p->a == $p->b) { exit(); } }",
  };
  for (const std::string& program : programs) {
    CAPTURE(program);
    RunResult oracle = run({"bpftrace", "-e", program});
    RunResult ours = run_rawprobe({"-e", program});
    REQUIRE(oracle.status != 0);
    CHECK(ours.status == 1);
    CHECK(message_of(first_error(ours.err)) == message_of(first_error(oracle.err)));
    size_t left = program.find("if (") + 3;
    CHECK(first_error(ours.err).rfind("1:" + std::to_string(left + 1) + ": ", 0) == 0);
  }
}

// A tracepoint's integer array field (sock:inet_sock_set_state's `__u8 saddr[4]`) is an array
// too: compared with pton(), indexed, read by ntop(). A local TCP connection on a fixed port
// makes the events; the predicate keeps that connection's.
TEST_CASE("oracle: a tracepoint's array fields compare with pton() and index, as bpftrace 0.17") {
  std::string client = "/tmp/rawprobe-pton-tcp.py";
  std::ofstream(client) << "import socket, time\n"
                           "time.sleep(1.5)\n"
                           "l = socket.socket(); l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n"
                           "l.bind(('127.0.0.1', 47321)); l.listen(1)\n"
                           "c = socket.create_connection(('127.0.0.1', 47321)); s, _ = l.accept()\n"
                           "c.close(); s.close(); l.close()\n";
  std::string script =
      "tracepoint:sock:inet_sock_set_state /args->family == 2 && (args->sport == 47321 || args->dport == 47321)/ {"
      " if (args->saddr == pton(\"127.0.0.1\")) { @[ntop(args->daddr), ntop(args->saddr_v6)] = count(); }"
      " $a = args->saddr; printf(\"%d %d %d %d\\n\", $a[0], args->daddr[3], args->saddr_v6 == pton(\"::1\"),"
      " args->saddr != args->daddr); }";
  check_against_bpftrace({{{"-c", "/usr/bin/python3 " + client}, script}});
  // The connection's events were seen: from 127.0.0.1, so $a[0] printed 127.
  RunResult ours = run_rawprobe({"-c", "/usr/bin/python3 " + client, "-e", script});
  CHECK(!lines_starting(ours.out, "127 ").empty());
  CHECK(ours.out.find("@[127.0.0.1, ::ffff:127.0.0.1]: ") != std::string::npos);
}
