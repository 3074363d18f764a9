#include "LatencyTable.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace sandbox::bench {

namespace {

double nearestRank(const std::vector<double> &sorted, double fraction)
{
    return sorted[std::min(sorted.size() - 1, size_t(double(sorted.size()) * fraction))];
}

// Between the two nearest ranks, so that a handful of runs still gives a tail figure other
// than the slowest run.
double interpolated(const std::vector<double> &sorted, double fraction)
{
    const double rank = fraction * double(sorted.size() - 1);
    const size_t below = size_t(rank);
    const size_t above = std::min(sorted.size() - 1, below + 1);
    return sorted[below] + (rank - double(below)) * (sorted[above] - sorted[below]);
}

} // namespace

Latency latencyOf(std::vector<double> &times)
{
    std::sort(times.begin(), times.end());
    return { times[times.size() / 2], nearestRank(times, 0.95), interpolated(times, 0.90) };
}

void printLatencyHeader(const char *firstColumn, Tail tail)
{
    std::printf("| %-46s | %8s | %8s |\n", firstColumn, "median", tail == Tail::P90 ? "p90" : "p95");
    std::printf("|%s|%s|%s|\n", std::string(48, '-').c_str(), std::string(10, '-').c_str(),
                std::string(10, '-').c_str());
}

void printLatencyRow(const char *name, const Latency &latency, Tail tail)
{
    std::printf("| %-46s | %8.2f | %8.2f |\n", name, latency.median, tail == Tail::P90 ? latency.p90 : latency.p95);
}

void printMissingLatencyRow(const char *name)
{
    std::printf("| %-46s | %8s | %8s |\n", name, "-", "-");
}

void printRefusedLatencyRow(const char *name, const char *reason)
{
    std::printf("| %-46s | refused: %s | %8s |\n", name, reason, "-");
}

} // namespace sandbox::bench
