// Decoding of bpf(cmd, attr, size) for --trace-syscalls: one branch per command engine/sys
// issues, fields named as in union bpf_attr.
#include <algorithm>
#include <cstring>
#include <linux/bpf.h>

#include "engine/sys/decode_format.h"
#include "engine/sys/names.h"
#include "engine/sys/uapi_compat.h"

namespace rawprobe::sys::decode_detail {

namespace {

// The attr as the kernel sees it: the caller's first `size` bytes, the rest zero (exactly
// how the kernel extends a short attr).
union AttrView {
  union bpf_attr attr;
  uapi::LinkCreateUprobeMulti uprobe_multi;
  unsigned char bytes[std::max(sizeof(union bpf_attr), sizeof(uapi::LinkCreateUprobeMulti))];
};

AttrView view_of(const BpfCall& c) {
  AttrView v;
  std::memset(&v, 0, sizeof v);
  if (c.attr) std::memcpy(v.bytes, c.attr, std::min<size_t>(c.size, sizeof v.bytes));
  return v;
}

// Up to `limit` elements of a user array of Elem, each shown by `show`: "[0x1139, 0x1150]".
template <class Elem, class Show>
std::string user_array(uint64_t ptr, uint32_t count, Show show, size_t limit = 8) {
  if (ptr == 0) return "NULL";
  const Elem* values = reinterpret_cast<const Elem*>(static_cast<uintptr_t>(ptr));
  std::string out = "[";
  for (uint32_t i = 0; i < count && i < limit; ++i) out += (i ? ", " : "") + show(values[i]);
  if (count > limit) out += ", ...";
  return out + "]";
}

std::string u64_array(uint64_t ptr, uint32_t count) { return user_array<uint64_t>(ptr, count, hex_string); }
// An array of char* (kprobe_multi symbols): ["vfs_read", "vfs_write"]. Its elements are
// pointers of the caller's width (the kernel copies unsigned longs), 4 bytes on 32-bit arm.
std::string string_array(uint64_t ptr, uint32_t count) {
  return user_array<uintptr_t>(ptr, count, quote_user_string);
}

// map_name/prog_name: up to BPF_OBJ_NAME_LEN bytes, NUL-terminated when shorter.
std::string object_name(const char (&name)[BPF_OBJ_NAME_LEN]) {
  return quote(std::string_view(name, strnlen(name, BPF_OBJ_NAME_LEN)));
}

std::string map_create(const union bpf_attr& a) {
  FieldList f;
  f.add("map_type", map_type_name(a.map_type))
      .num("key_size", a.key_size)
      .num("value_size", a.value_size)
      .num("max_entries", a.max_entries)
      .add("map_flags", named_bits(a.map_flags, {{BPF_F_NO_PREALLOC, "BPF_F_NO_PREALLOC"},
                                                  {BPF_F_NO_COMMON_LRU, "BPF_F_NO_COMMON_LRU"},
                                                  {BPF_F_NUMA_NODE, "BPF_F_NUMA_NODE"},
                                                  {BPF_F_RDONLY, "BPF_F_RDONLY"},
                                                  {BPF_F_WRONLY, "BPF_F_WRONLY"},
                                                  {BPF_F_RDONLY_PROG, "BPF_F_RDONLY_PROG"},
                                                  {BPF_F_WRONLY_PROG, "BPF_F_WRONLY_PROG"},
                                                  {BPF_F_MMAPABLE, "BPF_F_MMAPABLE"}}));
  if (a.map_name[0]) f.add("map_name", object_name(a.map_name));
  return f.braces();
}

std::string map_elem(int cmd, const union bpf_attr& a) {
  FieldList f;
  f.num("map_fd", a.map_fd).ptr("key", a.key);
  if (cmd == BPF_MAP_GET_NEXT_KEY) return f.ptr("next_key", a.next_key).braces();
  if (cmd == BPF_MAP_DELETE_ELEM) return f.braces();
  f.ptr("value", a.value);
  if (cmd == BPF_MAP_UPDATE_ELEM) f.hex("flags", a.flags);
  return f.braces();
}

std::string prog_load(const union bpf_attr& a) {
  FieldList f;
  f.add("prog_type", prog_type_name(a.prog_type))
      .num("insn_cnt", a.insn_cnt)
      .ptr("insns", a.insns)
      .str("license", a.license)
      .num("log_level", a.log_level)
      .num("log_size", a.log_size)
      .ptr("log_buf", a.log_buf)
      .hex("prog_flags", a.prog_flags);
  if (a.prog_name[0]) f.add("prog_name", object_name(a.prog_name));
  if (a.expected_attach_type)
    f.add("expected_attach_type", attach_type_name(a.expected_attach_type));
  if (a.attach_btf_id) f.num("attach_btf_id", a.attach_btf_id);
  if (a.attach_btf_obj_fd) f.num("attach_btf_obj_fd", a.attach_btf_obj_fd);
  if (a.fd_array) f.ptr("fd_array", a.fd_array);
  return f.braces();
}

std::string link_create(const AttrView& v) {
  const auto& lc = v.attr.link_create;
  FieldList f;
  f.num("prog_fd", lc.prog_fd)
      .snum("target_fd", static_cast<int32_t>(lc.target_fd))
      .add("attach_type", attach_type_name(lc.attach_type))
      .hex("flags", lc.flags);
  if (lc.attach_type == BPF_PERF_EVENT) {
    f.hex("perf_event.bpf_cookie", lc.perf_event.bpf_cookie);
  } else if (lc.attach_type == BPF_TRACE_KPROBE_MULTI) {
    const auto& k = lc.kprobe_multi;
    f.hex("kprobe_multi.flags", k.flags)
        .num("kprobe_multi.cnt", k.cnt)
        .add("kprobe_multi.syms", string_array(k.syms, k.cnt))
        .add("kprobe_multi.addrs", u64_array(k.addrs, k.cnt))
        .add("kprobe_multi.cookies", u64_array(k.cookies, k.cnt));
  } else if (lc.attach_type == uapi::kTraceUprobeMulti) {
    const auto& u = v.uprobe_multi;
    f.str("uprobe_multi.path", u.path)
        .add("uprobe_multi.offsets", u64_array(u.offsets, u.cnt))
        .add("uprobe_multi.ref_ctr_offsets", u64_array(u.ref_ctr_offsets, u.cnt))
        .add("uprobe_multi.cookies", u64_array(u.cookies, u.cnt))
        .num("uprobe_multi.cnt", u.cnt)
        .hex("uprobe_multi.flags", u.multi_flags)
        .num("uprobe_multi.pid", u.pid);
  }
  return f.braces();
}

std::string raw_tracepoint_open(const union bpf_attr& a) {
  FieldList f;
  // A NULL name attaches a tracing program (fentry/fexit) where its attach_btf_id says.
  if (a.raw_tracepoint.name) f.str("name", a.raw_tracepoint.name);
  else f.add("name", "NULL");
  return f.num("prog_fd", a.raw_tracepoint.prog_fd).braces();
}

std::string get_info(const union bpf_attr& a) {
  return FieldList().num("bpf_fd", a.info.bpf_fd).num("info_len", a.info.info_len).ptr("info", a.info.info).braces();
}

std::string test_run(const union bpf_attr& a) {
  const auto& t = a.test;
  return FieldList()
      .num("prog_fd", t.prog_fd)
      .num("data_size_in", t.data_size_in)
      .ptr("data_in", t.data_in)
      .num("data_size_out", t.data_size_out)
      .ptr("data_out", t.data_out)
      .num("ctx_size_in", t.ctx_size_in)
      .ptr("ctx_in", t.ctx_in)
      .num("repeat", t.repeat)
      .hex("flags", t.flags)
      .braces();
}

}  // namespace

std::string bpf_request(const BpfCall& c) {
  AttrView v = view_of(c);
  std::string attr;
  switch (c.cmd) {
    case BPF_MAP_CREATE: attr = map_create(v.attr); break;
    case BPF_MAP_LOOKUP_ELEM:
    case BPF_MAP_UPDATE_ELEM:
    case BPF_MAP_DELETE_ELEM:
    case BPF_MAP_GET_NEXT_KEY: attr = map_elem(c.cmd, v.attr); break;
    case BPF_PROG_LOAD: attr = prog_load(v.attr); break;
    case BPF_OBJ_GET_INFO_BY_FD: attr = get_info(v.attr); break;
    case BPF_LINK_CREATE: attr = link_create(v); break;
    case BPF_RAW_TRACEPOINT_OPEN: attr = raw_tracepoint_open(v.attr); break;
    case BPF_PROG_TEST_RUN: attr = test_run(v.attr); break;
    case BPF_BTF_GET_NEXT_ID: attr = FieldList().num("start_id", v.attr.start_id).braces(); break;
    case BPF_BTF_GET_FD_BY_ID: attr = FieldList().num("btf_id", v.attr.btf_id).braces(); break;
    case BPF_ITER_CREATE: attr = FieldList().num("link_fd", v.attr.iter_create.link_fd).braces(); break;
    case BPF_OBJ_PIN:
      attr = FieldList().str("pathname", v.attr.pathname).num("bpf_fd", v.attr.bpf_fd).hex("file_flags", v.attr.file_flags).braces();
      break;
    default: attr = hex_string(reinterpret_cast<uintptr_t>(c.attr)); break;
  }
  return "bpf(" + bpf_cmd_name(c.cmd) + ", " + attr + ", " + std::to_string(c.size) + ")";
}

// Values the kernel writes back into the attr, shown after the result like strace's "=>".
std::string bpf_writeback(const BpfCall& c, const Outcome& outcome) {
  if (!outcome.ok()) return "";
  AttrView v = view_of(c);
  if (c.cmd == BPF_OBJ_GET_INFO_BY_FD)
    return " => " + FieldList().num("info_len", v.attr.info.info_len).braces();
  if (c.cmd == BPF_PROG_TEST_RUN)
    return " => " + FieldList()
                        .num("retval", v.attr.test.retval)
                        .num("duration", v.attr.test.duration)
                        .num("data_size_out", v.attr.test.data_size_out)
                        .braces();
  return "";
}

}  // namespace rawprobe::sys::decode_detail
