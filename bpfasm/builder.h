// Builds a program instruction by instruction, with symbols instead of indices (DESIGN.md
// practice 4): jump targets are Labels and map loads name a MapHandle; both are resolved by
// finish(), which reports an undefined label, a label bound twice, a jump that does not fit
// its field, an unknown map handle, or an instruction that no opcode-table row accepts.
//
// With drop_unreachable(), instructions that no path can reach are not kept: the kernel
// verifier rejects a program holding any ("unreachable insn"), and code generators meet them
// naturally (a branch on a constant, statements after an unconditional jump). Flow is tracked
// as the code is written: after `goto`, `gotol` or `exit` nothing is reachable until a label
// that an emitted jump targets is bound. A label bound while unreachable and targeted only
// later (a backward jump into dropped code) is an error at finish().
//
//   Builder b;
//   Label done = b.new_label("done");
//   b.annotate("count.bt:1: @n = count()");
//   b.mov(R6, R1);
//   b.load_map_fd(R1, MapHandle{0});
//   b.jump(Cond::Eq, R0, 0, done);         // if r0 == 0x0 goto done
//   b.call(Helper::map_lookup_elem);
//   b.bind(done);
//   b.mov(R0, 0);
//   b.exit();
//   Result<Program> p = b.finish({map_fd});  // MapHandle{i} -> map_fds[i]
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bpfasm/helpers.h"
#include "bpfasm/insn.h"
#include "bpfasm/program.h"
#include "engine/base/result.h"

namespace rawprobe::bpf {

struct Label {
  uint32_t id = UINT32_MAX;
};
// A map, by its index in the fd table given to finish().
struct MapHandle {
  uint32_t id = 0;
};

enum class Size : uint8_t { B = op::B, H = op::H, W = op::W, DW = op::DW };
// SDiv/SMod are the cpu v4 signed forms (off = 1).
enum class Op : uint8_t { Add, Sub, Mul, Div, Or, And, Lsh, Rsh, Mod, Xor, Mov, Arsh, SDiv, SMod };
enum class Cond : uint8_t { Eq, Gt, Ge, Set, Ne, SGt, SGe, Lt, Le, SLt, SLe };
enum class Atomic : uint8_t { Add, Or, And, Xor, FetchAdd, FetchOr, FetchAnd, FetchXor, Xchg, CmpXchg };

// Which field of an instruction a label fills with its distance.
enum class TargetField : uint8_t {
  Off,  // ordinary jumps: int16 off
  Imm,  // gotol, bpf-to-bpf call, LD_IMM64 of a function: int32 imm
};

class Builder {
 public:
  // `name` appears in error messages; unnamed labels are called L<n>.
  Label new_label(std::string name = {});
  // The next instruction is the label's target. `origin` says where, for error messages.
  void bind(Label label, std::string origin = {});

  // ALU64 (r registers) and ALU (w registers, suffix 32).
  void mov(Reg dst, int32_t imm);
  void mov(Reg dst, Reg src);
  void mov32(Reg dst, int32_t imm);
  void mov32(Reg dst, Reg src);
  void alu(Op op, Reg dst, int32_t imm);
  void alu(Op op, Reg dst, Reg src);
  void alu32(Op op, Reg dst, int32_t imm);
  void alu32(Op op, Reg dst, Reg src);
  void neg(Reg dst);
  void neg32(Reg dst);
  // dst = (s<bits>)src; bits 8, 16, 32 (movsx32: 8, 16).
  void movsx(Reg dst, Reg src, int bits);
  void movsx32(Reg dst, Reg src, int bits);
  // Byte order, bits 16, 32 or 64: to_le/to_be convert from host order; bswap always swaps.
  void to_le(Reg dst, int bits);
  void to_be(Reg dst, int bits);
  void bswap(Reg dst, int bits);

  // 64-bit immediates.
  void ld_imm64(Reg dst, uint64_t value);
  void load_map_fd(Reg dst, MapHandle map);
  void load_map_value(Reg dst, MapHandle map, uint32_t offset);  // &value[0] + offset (arrays)
  void load_func(Reg dst, Label function);                        // callback address

  // Memory. load_sx sign-extends (cpu v4; sizes B, H, W).
  void load(Size size, Reg dst, Reg src, int16_t off);
  void load_sx(Size size, Reg dst, Reg src, int16_t off);
  void store(Size size, Reg dst, int16_t off, Reg src);
  void store_imm(Size size, Reg dst, int16_t off, int32_t imm);
  // Sizes W and DW. CmpXchg compares with r0 and leaves the old value in r0.
  void atomic(Atomic op, Size size, Reg dst, int16_t off, Reg src);

  // Control flow.
  void jump(Label target);
  void jump_long(Label target);  // gotol: int32 distance (cpu v4)
  void jump(Cond cond, Reg a, int32_t imm, Label target);
  void jump(Cond cond, Reg a, Reg b, Label target);
  void jump32(Cond cond, Reg a, int32_t imm, Label target);
  void jump32(Cond cond, Reg a, Reg b, Label target);
  void call(Helper helper);
  void call(Label function);  // bpf-to-bpf
  void call_kfunc(int32_t btf_id, int16_t btf_fd_index = 0);
  void exit();

  // Any instruction, as is; or with `target` filling `field` at finish.
  void emit(const Instruction& insn);
  void emit(const Instruction& insn, Label target, TargetField field, std::string origin = {});

  // From now on, instructions no path reaches are dropped (see the top of this file).
  void drop_unreachable() { drop_unreachable_ = true; }
  // Whether an instruction emitted now can be reached (always true without drop_unreachable).
  bool reachable() const { return !(drop_unreachable_ && dead_); }

  // Source text for the instructions that follow (until the next annotate).
  void annotate(std::string text);

  // Instructions emitted so far.
  size_t size() const { return insns_.size(); }

  // Whether any instruction emitted so far loads `map`.
  bool uses_map(MapHandle map) const;

  // Resolves labels and map handles (MapHandle{i} -> map_fds[i]) and checks every instruction
  // against the opcode table. The first problem is the error.
  Result<Program> finish(std::span<const int> map_fds = {}) const;

 private:
  struct LabelInfo {
    std::string name;
    std::optional<size_t> index;  // bound to this instruction
    std::string origin;           // where it was bound
    std::string second_origin;    // set when bound twice
    bool targeted = false;        // an emitted instruction jumps or refers to it
    bool bound_unreachable = false;  // bound where nothing reached (drop_unreachable)
  };
  struct Fixup {
    size_t index;
    Label target;
    TargetField field;
    std::string origin;
  };
  struct MapFixup {
    size_t index;
    MapHandle map;
  };
  std::string origin_or_index(const std::string& origin, size_t index) const;

  std::vector<Instruction> insns_;
  std::vector<Annotation> annotations_;
  std::vector<LabelInfo> labels_;
  std::vector<Fixup> fixups_;
  std::vector<MapFixup> map_fixups_;
  bool drop_unreachable_ = false;
  bool dead_ = false;                // the last instruction kept never falls through
  std::string jump_into_dropped_;    // first jump to a label bound in dropped code
};

}  // namespace rawprobe::bpf
