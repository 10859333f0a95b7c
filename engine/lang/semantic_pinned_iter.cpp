// A pinned iterator's block (iter:NAME:PIN): its program runs whenever the pinned file is
// read, long after rawprobe has ended, so nothing it sends to user space is ever read. printf
// becomes bpf_seq_printf, whose output is the file's content; the functions that need
// rawprobe (printing maps or values, time, exit, cat, system, join) are refused here.
#include "engine/lang/semantic_internal.h"
#include "engine/lang/seq_printf_format.h"

namespace rawprobe::lang {

bool Checker::in_pinned_iterator() const {
  if (!probe_) return false;
  for (const ProbeSpec& s : probe_->specs)
    if (s.kind == ProbeKind::Iter && !s.target.empty()) return true;
  return false;
}

void Checker::pinned_iterator_call(const Expr& e) {
  switch (e.function) {
    case FunctionId::Print:
    case FunctionId::Clear:
    case FunctionId::Zero:
    case FunctionId::Time:
    case FunctionId::Exit:
    case FunctionId::Cat:
    case FunctionId::System:
    case FunctionId::Join:
      error(e.span, e.name + "() cannot be used in a pinned iterator: its program runs when the pinned file is read, "
                             "after rawprobe has ended, and only printf output reaches the reader");
      break;
    default: break;
  }
}

void Checker::pinned_iterator_printf(const Expr& e, const std::vector<Type>& args) {
  Result<std::string> format = seq_printf_format(e.operands[0]->str, args);
  if (!format) {
    const Error& err = format.error();
    error(e.span, err.what + (err.hint.empty() ? "" : "; " + err.hint));
  }
}

}  // namespace rawprobe::lang
