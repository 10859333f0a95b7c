// Functions over an integer's or an address's bytes (engine/lang/semantic_bytes.cpp types
// them):
//   bswap(x)            x's bytes reversed at its width: BPF_END to big endian on a
//                       little-endian host (bswap((uint32)0x12345678) == 0x78563412)
//   kptr(x), uptr(x)    x
//   strerror(e)         the u64 e; user space prints strerror(e) (runtime/value_text.h)
//   ntop([af,] a)       { u64 family; u8 addr[16] }: an integer a's 8 bytes, or a 4- or
//                       16-byte array's; user space prints inet_ntop(family, addr)
//   pton("::1")         the address's bytes (an unsigned int8[16]), a constant
//   macaddr(a)          a's 6 bytes
#include <bit>
#include <sys/socket.h>

#include "engine/codegen/gen.h"

namespace rawprobe::codegen {

using bpf::Reg;
using lang::Expr;

IntVal ProgramGen::bswap_int(const Expr& e) {
  const Expr& a = *e.operands[0];
  IntVal v = gen_int(a);
  uint32_t bytes = a.type.size;
  if (bytes < 2) return v;
  Temp t = own(v);
  Reg r = acquire(t, bpf::R1);
  int bits = static_cast<int>(bytes * 8);
  // BPF_END converts between the host's order and the one named: on a little-endian host
  // "to big endian" swaps, on a big-endian one "to little endian" does.
  if constexpr (std::endian::native == std::endian::little) b_.to_be(r, bits);
  else b_.to_le(r, bits);
  set(t, r);
  return v;
}

IntVal ProgramGen::first_arg_int(const Expr& e) { return gen_int(*e.operands[0]); }

void ProgramGen::number_into(const Expr& e, uint32_t, Place dst) {
  IntVal v = gen_int(*e.operands[0]);
  store_int(v, 8, dst);
  release(v);
}

void ProgramGen::ntop_into(const Expr& e, uint32_t, Place dst) {
  const Expr& addr = *e.operands.back();
  if (e.operands.size() == 2) {
    IntVal family = gen_int(*e.operands[0]);
    store_int(family, 8, dst);
    release(family);
  } else {
    bool v6 = !addr.type.is_integer() && addr.type.size == 16;
    store_int(IntVal::constant(v6 ? AF_INET6 : AF_INET), 8, dst);
  }
  zero(dst.at(8), 16);
  if (addr.type.is_integer()) {
    IntVal v = gen_int(addr);
    store_int(v, 8, dst.at(8));
    release(v);
  } else {
    write(addr, addr.type, dst.at(8));
  }
}

void ProgramGen::pton_into(const Expr& e, uint32_t slot, Place dst) { string_literal(e.str, slot, dst); }

void ProgramGen::macaddr_into(const Expr& e, uint32_t, Place dst) {
  const Expr& a = *e.operands[0];
  write(a, a.type, dst);
}

}  // namespace rawprobe::codegen
