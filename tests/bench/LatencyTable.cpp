#include "LatencyTable.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace sandbox::bench {

Latency latencyOf(std::vector<double> &times)
{
    std::sort(times.begin(), times.end());
    return { times[times.size() / 2], times[std::min(times.size() - 1, size_t(double(times.size()) * 0.95))] };
}

void printLatencyHeader(const char *firstColumn)
{
    std::printf("| %-46s | %8s | %8s |\n", firstColumn, "median", "p95");
    std::printf("|%s|%s|%s|\n", std::string(48, '-').c_str(), std::string(10, '-').c_str(),
                std::string(10, '-').c_str());
}

void printLatencyRow(const char *name, const Latency &latency)
{
    std::printf("| %-46s | %8.2f | %8.2f |\n", name, latency.median, latency.p95);
}

void printMissingLatencyRow(const char *name)
{
    std::printf("| %-46s | %8s | %8s |\n", name, "-", "-");
}

} // namespace sandbox::bench
