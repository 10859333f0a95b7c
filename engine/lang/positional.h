// bpftrace's positional parameters: the words after the program on the command line
// (`rawprobe script.bt 42 foo`, `rawprobe -e '...' 42`) are $1, $2, ... in the script and
// $# is how many there are. The parser replaces each use by a literal:
//   $N        the parameter as an integer (strtoll's forms: 42, 0x2a, 052, " 7"); 0 when unset;
//             an error when it is set but not a whole integer
//   str($N)   the parameter's text ("" when unset); str($N, LEN) its first LEN bytes
//   $#        the count
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rawprobe::lang {

struct PositionalParams {
  std::vector<std::string> values;  // values[0] is $1

  // $N as an integer, or nullopt when it is set but is not one. N >= 1.
  std::optional<int64_t> number(uint64_t n) const;
  // $N's text, "" when unset.
  std::string text(uint64_t n) const;
  // bpftrace's error for $N used as a number when it is not one.
  std::string not_a_number_error(uint64_t n) const;
};

// bpftrace's error for $0 (parameters start at 1).
std::string positional_zero_error();

}  // namespace rawprobe::lang
