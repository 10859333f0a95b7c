#include "engine/runtime/symbol_budget.h"

#include <cerrno>
#include <cstdlib>
#include <string>

#include "engine/symbols/symbol_cache.h"

namespace rawprobe::runtime {

Result<size_t> symbol_budget_bytes(size_t flag_mib) {
  size_t mib = flag_mib;
  if (mib == 0) {
    mib = symbols::kDefaultSymbolBudgetMiB;
    if (const char* env = std::getenv(symbols::kSymbolBudgetEnv); env && *env) {
      char* end = nullptr;
      errno = 0;
      unsigned long v = std::strtoul(env, &end, 10);
      if (*end || errno || env[0] == '-' || v < 1 || v > 1024 * 1024)
        return make_error("read $" + std::string(symbols::kSymbolBudgetEnv), env,
                          "give a number of MiB from 1 to 1048576, e.g. " + std::string(symbols::kSymbolBudgetEnv) + "=64");
      mib = v;
    }
  }
  return mib * 1024 * 1024;
}

}  // namespace rawprobe::runtime
