// Internal to elf/usdt_*: the per-architecture operand parsers and the small pieces they
// share. Each parser gets the text after "N@" and fills in the kind-specific fields.
#pragma once
#include <optional>
#include <string_view>

#include "elf/usdt_args.h"

namespace rawprobe::elf::usdt {

using Operand = std::string_view;
// Each returns an error message (empty on success) so the caller can wrap it with context.
std::string parse_x86(Operand op, const arch::Table& table, UsdtArg& arg);
std::string parse_aarch64(Operand op, const arch::Table& table, UsdtArg& arg);
std::string parse_arm(Operand op, const arch::Table& table, UsdtArg& arg);
// riscv64, s390x, ppc64le, mips64, loongarch64: "off(reg)" families.
std::string parse_offset_base(Operand op, const arch::Table& table, UsdtArg& arg);

// Whole-string signed integer, decimal or 0x hex; nullopt when not exactly a number.
std::optional<int64_t> parse_int(std::string_view text);
// Resolves `name` through the table into `reg`; an error message naming the register when
// the architecture has no such register.
std::string resolve_reg(std::string_view name, const arch::Table& table, UsdtReg& reg);
std::string_view trim(std::string_view text);

}  // namespace rawprobe::elf::usdt
