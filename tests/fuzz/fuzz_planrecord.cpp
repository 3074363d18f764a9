// libFuzzer target for the run front's reader of recorded plans (app/sandboxctl/front/
// PlanRecord), which decides whether sandbox-init is started from a file on disk. Beyond
// "no crash, no read past the input":
// - an accepted record gives a configuration that holds the command's arguments, each as
//   an "arg" record, exactly once;
// - a prefix of an accepted record (cut anywhere) is never accepted: "end" is last.
#include "launchers/auto/linux/handoff/PlanRecord.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

using sandbox::PlanRecord;

namespace {

[[noreturn]] void contractBroken(const char *what)
{
    std::fprintf(stderr, "plan record contract broken: %s\n", what);
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view input(reinterpret_cast<const char *>(data), size);
    const std::optional<PlanRecord> record = PlanRecord::parse(input);
    if (!record)
        return 0;
    const std::string marker("arg\0fuzz-argument\0", 18);
    const std::string configuration = record->configuration({ "fuzz-argument" });
    if (configuration.find(marker) == std::string::npos)
        contractBroken("the argument is missing from the configuration");
    if (record->initPath().empty() || record->spawnBoundMs() <= 0)
        contractBroken("an accepted record without sandbox-init or start-up bound");
    for (size_t cut : { size / 2, size - 1 }) {
        if (cut < size && PlanRecord::parse(input.substr(0, cut)))
            contractBroken("a prefix of a record was accepted");
    }
    return 0;
}
