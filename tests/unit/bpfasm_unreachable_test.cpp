// Builder::drop_unreachable(): code no path reaches is not kept (the verifier rejects a program
// holding any: "unreachable insn"), code a jump reaches is, and a jump into dropped code is an
// error instead of a jump to the wrong place.
#include <doctest/doctest.h>

#include "bpfasm/builder.h"
#include "bpfasm/print.h"

using namespace rawprobe;
using namespace rawprobe::bpf;

TEST_CASE("drop_unreachable: code after goto and exit is dropped until a targeted label") {
  Builder b;
  b.drop_unreachable();
  Label yes = b.new_label("yes"), end = b.new_label("end"), unused = b.new_label("unused");
  b.mov(R0, 1);
  b.jump(end);             // `1 ? a : b`: the condition generated no jump
  b.mov(R0, 2);            // dropped
  b.load_map_fd(R1, MapHandle{0});  // dropped, with its map reference
  b.bind(unused);          // no jump targets it: still unreachable
  b.mov(R0, 3);            // dropped
  b.bind(end);             // targeted: reachable again
  b.mov(R1, 4);
  b.exit();
  b.annotate("after exit");  // no instruction to label
  b.mov(R0, 5);            // dropped
  b.bind(yes);             // never targeted
  b.exit();                // dropped
  CHECK_FALSE(b.reachable());
  CHECK_FALSE(b.uses_map(MapHandle{0}));
  Result<Program> p = b.finish();
  REQUIRE_MESSAGE(p.ok(), p.error().message());
  // What is kept: the same program written without the dead parts.
  Builder kept;
  Label kept_end = kept.new_label("end");
  kept.mov(R0, 1);
  kept.jump(kept_end);
  kept.bind(kept_end);
  kept.mov(R1, 4);
  kept.exit();
  Result<Program> expected = kept.finish();
  REQUIRE(expected.ok());
  CHECK(print(*p) == print(*expected));
  CHECK(p->insns.size() == 4);
}

TEST_CASE("drop_unreachable: a conditional jump keeps what follows it, and loops keep their body") {
  Builder b;
  b.drop_unreachable();
  Label top = b.new_label("top"), out = b.new_label("out");
  b.bind(top);
  b.jump(Cond::Eq, R1, 0, out);
  b.alu(Op::Sub, R1, 1);
  b.jump(top);
  b.bind(out);
  b.exit();
  Result<Program> p = b.finish();
  REQUIRE_MESSAGE(p.ok(), p.error().message());
  CHECK(p->insns.size() == 4);
}

TEST_CASE("drop_unreachable: a later jump back into dropped code is an error") {
  Builder b;
  b.drop_unreachable();
  Label dropped = b.new_label("dropped"), live = b.new_label("live");
  b.jump(Cond::Eq, R1, 0, live);
  b.exit();
  b.bind(dropped);  // unreachable when bound, and nothing targeted it yet
  b.mov(R0, 1);
  b.bind(live);
  b.jump(dropped);
  Result<Program> p = b.finish();
  REQUIRE_FALSE(p.ok());
  CHECK(p.error().what == "jump into code dropped as unreachable");
  CHECK(p.error().object.find("'dropped'") != std::string::npos);
}

TEST_CASE("without drop_unreachable, every instruction is kept") {
  Builder b;
  b.exit();
  b.mov(R0, 1);
  b.exit();
  CHECK(b.reachable());
  Result<Program> p = b.finish();
  REQUIRE(p.ok());
  CHECK(p->insns.size() == 3);
}
