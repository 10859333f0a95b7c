// The BTF a program with subprograms loads with (BPF_PROG_LOAD's prog_btf_fd and func_info):
// the verifier refuses a callback address (BPF_PSEUDO_FUNC) unless func_info describes every
// function, callbacks static ("missing btf func_info", "callback function not static").
//
//   [1] INT long (8 bytes, signed)
//   then per function: FUNC_PROTO returning long with `params` long parameters,
//                      FUNC <name> of that prototype, linkage static
//
// Every value the kernel passes (an index, a map, key and value pointers, a context) is
// described as a long: for static functions the verifier takes the registers' types from the
// helper that calls back, not from BTF.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace rawprobe::btf {

struct FunctionDecl {
  std::string name;     // a C identifier
  uint32_t params = 0;  // at most 5
};

struct FunctionsBtf {
  std::vector<uint8_t> blob;       // header, types, strings: what BPF_BTF_LOAD takes
  std::vector<uint32_t> func_ids;  // the FUNC type id of each declaration, in order
};

FunctionsBtf functions_btf(const std::vector<FunctionDecl>& functions);

}  // namespace rawprobe::btf
