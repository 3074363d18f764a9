// libFuzzer target for the reader of the plans sandbox-init.exe carries out on Windows
// (engine/launchers/auto/windows/WindowsPlan), plain C++ like sandbox-init.exe itself.
// Beyond "no crash, no read past the input":
// - a refusal names its line ("line N: ...");
// - an accepted plan round-trips: written again, it reads back equal and is written the
//   same way;
// - a prefix of an accepted plan (cut anywhere) is never accepted: "end" is last.
#include "launchers/auto/windows/WindowsPlan.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

using sandbox::windows::ParsedPlan;
using sandbox::windows::Plan;

namespace {

[[noreturn]] void contractBroken(const char *what)
{
    std::fprintf(stderr, "windows plan contract broken: %s\n", what);
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view input(reinterpret_cast<const char *>(data), size);
    const ParsedPlan parsed = Plan::parse(input);
    if (!parsed.plan) {
        if (parsed.error.rfind("line ", 0) != 0)
            contractBroken("a refusal does not name its line");
        return 0;
    }
    const std::string written = parsed.plan->serialize();
    const ParsedPlan again = Plan::parse(written);
    if (!again.plan || !(*again.plan == *parsed.plan))
        contractBroken("an accepted plan does not read back equal");
    if (again.plan->serialize() != written)
        contractBroken("an accepted plan is written differently the second time");
    for (size_t cut : { size / 2, size - 1 }) {
        if (cut < size && Plan::parse(input.substr(0, cut)).plan)
            contractBroken("a prefix of a plan was accepted");
    }
    return 0;
}
