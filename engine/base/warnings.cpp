#include "engine/base/warnings.h"

namespace rawprobe {
namespace {
// One switch for the process, set once from the command line before any work starts.
bool g_enabled = true;
}  // namespace

bool warnings_enabled() { return g_enabled; }
void disable_warnings() { g_enabled = false; }

}  // namespace rawprobe
