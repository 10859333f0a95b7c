// -k and -kk at run time: a program reports a failed helper call (kAsyncHelperError, see
// codegen/gen_helper_errors.cpp) and this turns it into bpftrace 0.17's warning:
//
//   -e:1:20-33: WARNING: Failed to map_delete_elem: No such file or directory (-2)
//   BEGIN { @a[1] = 1; delete(@a[2]); exit(); }
//                      ~~~~~~~~~~~~~
//
// A lookup that found nothing reports 0: "WARNING: Failed to map_lookup_elem: 0".
#pragma once
#include <cstdint>
#include <string>

#include "engine/codegen/compiled_script.h"

namespace rawprobe::runtime {

// The warning's lines, each ending in '\n'. `result`: the helper's result, as a C int.
std::string helper_error_text(const codegen::HelperErrorSite& site, int32_t result);

}  // namespace rawprobe::runtime
