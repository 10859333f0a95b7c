// printf in a pinned iterator (iter:NAME:PIN): bpf_seq_printf(seq, fmt, sizeof fmt, data,
// 8 * n), which formats into the seq_file of whoever reads the pinned file
// (engine/lang/seq_printf_format.h says why and what it takes). `seq` is ctx->meta->seq, two
// loads the verifier types from the context's BTF (struct bpf_iter_meta *, then struct
// seq_file *), which is what the helper's first argument must be. `data` is a u64 per
// argument on the stack: an integer's value, a string's stack address.
#include "engine/codegen/gen.h"
#include "engine/lang/seq_printf_format.h"

namespace rawprobe::codegen {

using bpf::Reg;
using bpf::Size;
using lang::Expr;

bool ProgramGen::in_pinned_iterator() const {
  const probes::AttachPoint& p = *target_.points.front();
  return p.kind == lang::ProbeKind::Iter && !p.path.empty();
}

void ProgramGen::seq_printf_call(const Expr& e) {
  const lang::PrintfInfo& info = script_.info().printfs[e.call_id];
  std::vector<Type> types;
  for (const lang::PrintfArg& a : info.args) types.push_back(a.type);
  Result<std::string> format = lang::seq_printf_format(info.format, types);
  if (!format) return fail(e.span, format.error().what);  // the semantic pass said it first
  uint32_t data_size = static_cast<uint32_t>(8 * types.size());
  Place data{data_size ? frame_.alloc(data_size) : 0, {}};
  for (size_t i = 0; i < types.size(); ++i) {
    const Expr& arg = *e.operands[i + 1];
    Place slot = data.at(static_cast<int32_t>(8 * i));
    if (types[i].is_string()) {
      Place text = materialize(arg);
      place_address(bpf::R1, text);
      b_.store(Size::DW, bpf::R10, static_cast<int16_t>(slot.off), bpf::R1);
    } else {
      write(arg, types[i], slot);
    }
  }
  uint32_t size = static_cast<uint32_t>(format->size() + 1);
  Place text{frame_.alloc(size), {}};
  string_literal(*format, size, text);
  b_.load(Size::DW, bpf::R1, ctx(), 0);     // ctx->meta
  b_.load(Size::DW, bpf::R1, bpf::R1, 0);   // meta->seq
  place_address(bpf::R2, text);
  b_.mov(bpf::R3, static_cast<int32_t>(size));
  if (data_size) place_address(bpf::R4, data);
  else b_.mov(bpf::R4, 0);
  b_.mov(bpf::R5, static_cast<int32_t>(data_size));
  b_.call(bpf::Helper::seq_printf);
}

}  // namespace rawprobe::codegen
