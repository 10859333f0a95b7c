// Map printing against bpftrace 0.17 itself. Each case is a set of map statements; bpftrace
// runs them in BEGIN and prints the maps at exit. The same values are encoded into the
// per-CPU value layouts of engine/output/map_print.h (spread over two CPUs, so per-CPU
// reduction is exercised) and printed by rawprobe's Output. Text and JSON must match.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "engine/output/hist_format.h"
#include "tests/kernel/output_oracle.h"

using namespace rawprobe;
using namespace rawprobe::oracle;

namespace {

Type i(uint32_t size) { return Type::integer(size, true); }
Type u(uint32_t size) { return Type::integer(size, false); }
Type agg(TypeKind kind, bool is_signed = false) { return Type{kind, 8, is_signed, {}}; }

// Builds one map twice: as bpftrace statements and as the bytes rawprobe's runtime would
// read from the BPF map.
class MapBuilder {
 public:
  MapBuilder(std::string name, std::vector<Type> key, Type value, uint32_t ncpus = 2) {
    desc.name = std::move(name);
    desc.key = std::move(key);
    desc.value = std::move(value);
    bool aggregate = desc.value.kind != TypeKind::Integer &&
                     desc.value.kind != TypeKind::String && desc.value.kind != TypeKind::Tuple;
    desc.ncpus = aggregate ? ncpus : 1;
  }
  MapBuilder& lhist(int64_t min, int64_t max, int64_t step) {
    desc.lhist = LHistParams{min, max, step};
    return *this;
  }

  // One aggregation call per value, e.g. @x[key] = sum(v); spread over the CPUs.
  MapBuilder& agg(const std::vector<Val>& key, const std::vector<int64_t>& values) {
    std::vector<uint8_t>& slots = slot_bytes(key);
    uint32_t stride = map_value_size(desc) / desc.ncpus;
    for (size_t n = 0; n < values.size(); n++) {
      int64_t v = values[n];
      script += target(key) + " = " + call(v) + ";\n";
      auto* s = reinterpret_cast<int64_t*>(slots.data() + (n % desc.ncpus) * stride);
      switch (desc.value.kind) {
        case TypeKind::Count: s[0] += 1; break;
        case TypeKind::Sum: s[0] += v; break;
        case TypeKind::Min:
        case TypeKind::Max:
          if (!s[1] || (desc.value.kind == TypeKind::Min ? v < s[0] : v > s[0])) s[0] = v;
          s[1] = 1;
          break;
        case TypeKind::Avg:
        case TypeKind::Stats: s[0] += 1, s[1] += v; break;
        case TypeKind::Hist: s[hist_bucket(v)] += 1; break;
        case TypeKind::LHist:
          s[lhist_bucket(v, desc.lhist.min, desc.lhist.max, desc.lhist.step)] += 1;
          break;
        default: break;
      }
    }
    return *this;
  }

  // A plain assignment: @x[key] = value.
  MapBuilder& set(const std::vector<Val>& key, const Val& value) {
    script += target(key) + " = " + expr(desc.value, value) + ";\n";
    slot_bytes(key) = pack({desc.value}, {value});
    return *this;
  }

  // Statements bpftrace runs after the others (delete(), print(), ...).
  MapBuilder& then(const std::string& statement) {
    script += statement + "\n";
    return *this;
  }

  MapEntries entries() const {
    MapEntries e(map_key_size(desc), map_value_size(desc));
    for (const auto& [key, value] : values_) e.add(key.data(), value.data());
    return e;
  }

  MapDesc desc;
  std::string script;
  std::map<std::vector<uint8_t>, std::vector<uint8_t>> values_;

 private:
  std::string target(const std::vector<Val>& key) const {
    std::string t = desc.name;
    if (desc.key.empty()) return t;
    t += "[";
    for (size_t k = 0; k < key.size(); k++) t += (k ? ", " : "") + expr(desc.key[k], key[k]);
    return t + "]";
  }
  std::string call(int64_t v) const {
    std::string arg = std::to_string(v);
    switch (desc.value.kind) {
      case TypeKind::Count: return "count()";
      case TypeKind::Sum: return "sum(" + arg + ")";
      case TypeKind::Min: return "min(" + arg + ")";
      case TypeKind::Max: return "max(" + arg + ")";
      case TypeKind::Avg: return "avg(" + arg + ")";
      case TypeKind::Stats: return "stats(" + arg + ")";
      case TypeKind::Hist: return "hist(" + arg + ")";
      default:
        return "lhist(" + arg + ", " + std::to_string(desc.lhist.min) + ", " +
               std::to_string(desc.lhist.max) + ", " + std::to_string(desc.lhist.step) + ")";
    }
  }
  std::vector<uint8_t>& slot_bytes(const std::vector<Val>& key) {
    auto packed = pack(desc.key, key);
    auto [it, inserted] = values_.try_emplace(packed, map_value_size(desc), 0);
    return it->second;
  }
};

// What rawprobe prints for a run whose BEGIN probe ran `maps` (and `prelude`, printed by
// `before` into the output ahead of the exit), compared with bpftrace.
void check_maps(std::vector<MapBuilder> maps, OutputFormat format,
                const std::string& tail_statements = {},
                void (*before)(Output&, const std::vector<MapBuilder>&) = nullptr) {
  std::string script = "BEGIN {\n";
  for (const auto& m : maps) script += m.script;
  script += tail_statements + "exit();\n}\n";
  Capture ours(format);
  ours.out().attached_probes(1);
  if (before) before(ours.out(), maps);
  ours.out().exit_separator();
  std::sort(maps.begin(), maps.end(),
            [](const MapBuilder& a, const MapBuilder& b) { return a.desc.name < b.desc.name; });
  for (const auto& m : maps) ours.out().map(m.desc, m.entries());
  std::string expected = run_bpftrace(script, format == OutputFormat::Json ? "json" : "text");
  INFO("script:\n" << script);
  REQUIRE(!expected.empty());
  CHECK(ours.text() == expected);
}

void both_formats(const std::vector<MapBuilder>& maps) {
  check_maps(maps, OutputFormat::Text);
  check_maps(maps, OutputFormat::Json);
}

}  // namespace

// Every case runs bpftrace 0.17, which only the build host has: the VM guest leaves
// the suite "host-only" out (tests/vm/README.md).
TEST_SUITE_BEGIN("host-only");

TEST_CASE("count and sum maps: per-CPU sums, order by value, integer and string keys") {
  MapBuilder c("@c", {i(8)}, agg(TypeKind::Count));
  c.agg({I(1)}, {0}).agg({I(2)}, {0, 0, 0}).agg({I(-7)}, {0, 0});
  MapBuilder s("@s", {Type::string(3)}, agg(TypeKind::Sum, true));
  s.agg({S("a")}, {5}).agg({S("bb")}, {-3, -1}).agg({S("c")}, {100, 1});
  MapBuilder w("@w", {Type::string(2), i(8), Type::string(3)}, agg(TypeKind::Count));
  w.agg({S("a"), I(2), S("b")}, {0}).agg({S("a"), I(1), S("zz")}, {0, 0});
  w.agg({S("b"), I(-1), S("")}, {0, 0, 0});
  MapBuilder total("@total", {}, agg(TypeKind::Sum, true));
  total.agg({}, {7, 8, -1});
  MapBuilder anon("@", {}, agg(TypeKind::Count));
  anon.agg({}, {0, 0, 0, 0});
  MapBuilder comm("@comm", {Type::string(16)}, agg(TypeKind::Count));
  comm.then("@comm[comm] = count();");
  comm.values_[pack({Type::string(16)}, {S("bpftrace")})] = std::vector<uint8_t>(16, 0);
  comm.values_.begin()->second[8] = 1;  // counted on the second CPU
  both_formats({c, s, w, total, anon, comm});
}

TEST_CASE("min, max, avg and stats maps") {
  MapBuilder mn("@mn", {}, agg(TypeKind::Min, true));
  mn.agg({}, {-7, 3});
  MapBuilder mn2("@mn2", {i(8)}, agg(TypeKind::Min, true));
  mn2.agg({I(1)}, {5, 9}).agg({I(2)}, {3}).agg({I(3)}, {10, 12, 11});
  MapBuilder mx("@mx", {}, agg(TypeKind::Max, true));
  mx.agg({}, {9, 4});
  MapBuilder mx2("@mx2", {Type::string(2)}, agg(TypeKind::Max, true));
  mx2.agg({S("a")}, {100, 1}).agg({S("b")}, {7});
  MapBuilder a("@a", {}, agg(TypeKind::Avg, true));
  a.agg({}, {10, 5});
  MapBuilder a2("@a2", {i(8)}, agg(TypeKind::Avg, true));
  a2.agg({I(1)}, {10, 20}).agg({I(2)}, {-30, -31}).agg({I(3)}, {7});
  MapBuilder st("@st", {}, agg(TypeKind::Stats, true));
  st.agg({}, {10, 5, -30});
  MapBuilder st2("@st2", {i(8), Type::string(2)}, agg(TypeKind::Stats, true));
  st2.agg({I(1), S("x")}, {4}).agg({I(2), S("y")}, {100, 200, 300}).agg({I(3), S("")}, {-4});
  both_formats({mn, mn2, mx, mx2, a, a2, st, st2});
}

TEST_CASE("hist and lhist maps: buckets, labels, bars, keyed ordering") {
  MapBuilder h("@h", {}, agg(TypeKind::Hist, true));
  h.agg({}, {5, 0, 1000, -1, 1 << 20, 3, 3, 1});
  MapBuilder h2("@h2", {i(8)}, agg(TypeKind::Hist, true));
  h2.agg({I(1)}, {1, 2, 3}).agg({I(2)}, {100}).agg({I(3)}, {4096, 5000, 6000, 7000, 70000});
  MapBuilder hb("@hb", {}, agg(TypeKind::Hist, true));
  hb.agg({}, {(int64_t(1) << 31) - 1, 1 << 30, (1 << 20) + 5, 1 << 10});
  MapBuilder l("@l", {}, agg(TypeKind::LHist, true));
  l.lhist(0, 100, 10).agg({}, {15, 200, -3, 15, 99});
  MapBuilder lk("@lk", {Type::string(2)}, agg(TypeKind::LHist, true));
  lk.lhist(0, 4096, 1024).agg({S("a")}, {0, 1500, 5000}).agg({S("b")}, {2048});
  MapBuilder lm("@lm", {}, agg(TypeKind::LHist, true));
  lm.lhist(0, 4194304, 1048576).agg({}, {1048576, 3000000, 5000000});
  MapBuilder ln("@ln", {}, agg(TypeKind::LHist, true));
  ln.lhist(10, 60, 25).agg({}, {-60, 30, 10, 59, 60, 9});
  both_formats({h, h2, hb, l, lk, lm, ln});
}

TEST_CASE("maps of plain values: integers of every width, strings, tuples; key printing") {
  MapBuilder u8("@u8", {}, u(1));
  u8.set({}, I(255));
  MapBuilder i16("@i16", {}, i(2));
  i16.set({}, I(-3));
  MapBuilder u32("@p", {}, u(4));
  u32.set({}, I(4000000000));
  MapBuilder u64("@u64v", {}, u(8));
  u64.set({}, I(-1));
  MapBuilder str("@s", {}, Type::string(6));
  str.set({}, S("hello"));
  MapBuilder sk("@sk", {i(8)}, Type::string(4));
  sk.set({I(5)}, S("str")).set({I(-1)}, S("abc")).set({I(0)}, S("xyz"));
  MapBuilder sk2("@sk2", {Type::string(2)}, Type::string(2));
  sk2.set({S("b")}, S("x")).set({S("a")}, S("y"));
  Type tup = tuple_of({i(8), Type::string(2), i(8)});
  MapBuilder t("@u", {}, tup);
  t.set({}, T({I(1), S("x"), I(-2)}));
  Type tup2 = tuple_of({i(8), Type::string(3)});
  MapBuilder ut("@ut", {i(8)}, tup2);
  ut.set({I(1)}, T({I(2), S("yy")})).set({I(-1)}, T({I(3), S("zz")}));
  MapBuilder neg("@neg", {i(8)}, i(8));
  neg.set({I(-1)}, I(-5)).set({I(5)}, I(10));
  MapBuilder k8("@i8", {i(1)}, i(8));
  k8.set({I(-3)}, I(1));
  MapBuilder k32("@u32", {u(4)}, i(8));
  k32.set({I(-1)}, I(1));
  MapBuilder k64("@u64", {u(8)}, i(8));
  k64.set({I(-1)}, I(1));
  MapBuilder esc("@q", {Type::string(8)}, i(8));
  esc.set({S("a\"b\\c\td")}, I(1)).set({S("\xc3\xa9\x02")}, I(2));
  both_formats({u8, i16, u32, u64, str, sk, sk2, t, ut, neg, k8, k32, k64, esc});
}

TEST_CASE("an emptied map prints an empty line in text and nothing in JSON") {
  MapBuilder e("@e", {i(8)}, i(8));
  e.then("@e[1] = 1; delete(@e[1]);");
  MapBuilder after("@f", {}, i(8));
  after.set({}, I(3));
  both_formats({e, after});
}

namespace {
// print(@m, top, div) and print(value) inside the probe, before the exit.
void print_calls(Output& out, const std::vector<MapBuilder>& maps) {
  const MapBuilder& s = maps[0];
  const MapBuilder& h = maps[1];
  const MapBuilder& a = maps[2];
  const MapBuilder& st = maps[3];
  out.map(s.desc, s.entries(), 1);
  out.map(s.desc, s.entries(), 0, 2);
  out.map(s.desc, s.entries(), 2, 3);
  out.map(h.desc, h.entries(), 0, 2);
  out.map(h.desc, h.entries(), 1);
  out.map(a.desc, a.entries(), 1, 2);
  out.map(st.desc, st.entries(), 1, 2);
  int64_t five = 5;
  out.value(Type::integer(8, true), reinterpret_cast<const uint8_t*>(&five));
  out.value(Type::string(4), reinterpret_cast<const uint8_t*>("str"));
  Type tup = tuple_of({Type::integer(8, true), Type::string(2)});
  auto packed = pack({tup}, {T({I(1), S("a")})});
  out.value(tup, packed.data());
}
}  // namespace

TEST_CASE("print(@m, top, div) and print(value)") {
  MapBuilder s("@s", {Type::string(2)}, agg(TypeKind::Sum, true));
  s.agg({S("a")}, {5}).agg({S("b")}, {-3}).agg({S("c")}, {11});
  MapBuilder h("@h", {i(8)}, agg(TypeKind::Hist, true));
  h.agg({I(1)}, {1, 1, 1, 8}).agg({I(2)}, {3});
  MapBuilder a("@a", {i(8)}, agg(TypeKind::Avg, true));
  a.agg({I(1)}, {10}).agg({I(2)}, {21});
  MapBuilder st("@st", {i(8)}, agg(TypeKind::Stats, true));
  st.agg({I(1)}, {10}).agg({I(2)}, {21});
  std::string prints =
      "print(@s, 1); print(@s, 0, 2); print(@s, 2, 3); print(@h, 0, 2); print(@h, 1);\n"
      "print(@a, 1, 2); print(@st, 1, 2); print(5); print(\"str\"); print((1, \"a\"));\n";
  check_maps({s, h, a, st}, OutputFormat::Text, prints, print_calls);
  check_maps({s, h, a, st}, OutputFormat::Json, prints, print_calls);
}

TEST_SUITE_END();
