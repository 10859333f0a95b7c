// Functions over an integer's or an address's bytes: bswap, kptr, uptr, ntop, pton, macaddr.
// Messages are bpftrace 0.17's where it has one.
#include <arpa/inet.h>
#include <sys/socket.h>

#include "engine/base/type_names.h"
#include "engine/lang/semantic_internal.h"

namespace rawprobe::lang {

// bswap(x) is unsigned of x's width (bswap((int16)-2) is 65279); kptr(x) and uptr(x) are x,
// marked as an address of one space: a pointer's type says it, and an integer's cast to a
// pointer reads the call (cast_to_c), as integers carry no address space.
void Checker::call_same_integer(Expr& e) {
  if (!arg_count(e)) return;
  Expr& a = *e.operands[0];
  check(a, Use::Value);
  if (a.type.kind == TypeKind::None) return;
  if (a.type.is_pointer() && e.function != FunctionId::Bswap) {
    e.type = a.type;
    e.type.user_memory = e.function == FunctionId::Uptr;
    return;
  }
  if (!a.type.is_integer()) {
    const char* kinds = e.function == FunctionId::Bswap ? "integer" : "integer or pointer";  // as bpftrace
    error(e.span, e.name + "() only supports " + kinds + " arguments (" + argument_type_name(a.type) + " provided)");
    return;
  }
  e.type = e.function == FunctionId::Bswap ? Type::integer(a.type.size, false) : a.type;
}

// ntop(addr) or ntop(family, addr): an integer address is its 8 bytes (IPv4 reads the first
// 4), a 4- or 16-byte array (pton()'s result, a u8[16] field) or string its bytes; without a family,
// 16 bytes are IPv6 and anything else IPv4.
void Checker::call_ntop(Expr& e) {
  if (!arg_count(e)) return;
  for (ExprPtr& a : e.operands) check(*a, Use::Value);
  for (ExprPtr& a : e.operands)
    if (a->type.kind == TypeKind::None) return;
  Expr& addr = *e.operands.back();
  if (e.operands.size() == 2 && !e.operands[0]->type.is_integer()) {
    error(e.span, "ntop() expects an integer for the address family (" + argument_type_name(e.operands[0]->type) +
                      " provided)");
    return;
  }
  // The address's bytes: a 4- or 16-byte string, or a C array of that size read from memory
  // (a struct sock's skc_v6_daddr.in6_u.u6_addr8 in bpftrace's tcp tools).
  bool bytes = (addr.type.is_string() || addr.type.kind == TypeKind::Array) &&
               (addr.type.size == 4 || addr.type.size == 16);
  if (!addr.type.is_integer() && !bytes) {
    error(e.span, "ntop() expects an integer or a 4- or 16-byte array as the address (" + type_name(addr.type) +
                      " provided)");
    return;
  }
  e.type = Type{TypeKind::Inet, 24, false, {}};  // { u64 family; u8 addr[16] }
}

// pton("10.0.0.1") and pton("::1"): the address's bytes, 4 or 16, known when the script is
// checked (bpftrace takes only literals too). As in bpftrace 0.17 the value is an array,
// `unsigned int8[4]` or `[16]`: indexed, printed as [127,0,0,1], compared with == and !=.
void Checker::call_pton(Expr& e) {
  if (!arg_count(e)) return;
  Expr& a = *e.operands[0];
  check(a, Use::Value);
  if (a.type.kind == TypeKind::None) return;
  // bpftrace 0.17's words (sic).
  std::string refusal = "pton() expects an string argument of an IPv4/IPv6 address, got ";
  if (!a.is_literal_string()) {
    error(e.span, refusal);
    return;
  }
  // bpftrace 0.17 reads text with a '.' as IPv4 and other text with a ':' as IPv6, so
  // "::ffff:1.2.3.4" is refused as it is there.
  bool v4 = a.str.find('.') != std::string::npos;
  if (!v4 && a.str.find(':') == std::string::npos) {
    error(e.span, refusal + a.str);
    return;
  }
  unsigned char buf[16];
  if (inet_pton(v4 ? AF_INET : AF_INET6, a.str.c_str(), buf) != 1) {
    error(e.span, "pton() expects a valid IPv4/IPv6 address, got " + a.str);
    return;
  }
  e.str.assign(reinterpret_cast<char*>(buf), v4 ? 4 : 16);
  ctypes::TypeArena& arena = c_types().arena();
  ctypes::CTypeRef array = arena.array_of(arena.integer("unsigned int8", 1, false), static_cast<uint32_t>(e.str.size()));
  e.type = Type{TypeKind::Array, array->size, false, {}};
  e.type.ctype = array;
  e.type.c_name = ctypes::spell(array);
}

// macaddr(a): six bytes (a char[6] tracepoint field, pton-like arrays), printed as
// 00:1A:2B:3C:4D:5E.
void Checker::call_macaddr(Expr& e) {
  if (!arg_count(e)) return;
  Expr& a = *e.operands[0];
  check(a, Use::Value);
  if (a.type.kind == TypeKind::None) return;
  if (a.is_literal_string()) {
    error(e.span, "macaddr() does not support literal string arguments");
    return;
  }
  if (!a.type.is_string() || a.type.size != 6) {
    error(e.span, "macaddr() argument must be 6 bytes in size");
    return;
  }
  e.type = Type{TypeKind::MacAddr, 6, false, {}};
}

}  // namespace rawprobe::lang
