#pragma once

#include <vector>

namespace sandbox::bench {

// The median and 95th percentile of a set of wall times, in the unit they were given in.
struct Latency
{
    double median = 0;
    double p95 = 0;
};

// Sorts `times` (which must not be empty) and reads the median and p95 off it.
Latency latencyOf(std::vector<double> &times);

// The Markdown table the benchmarks print: a header naming the first column, then one
// row per runner with its median and p95 in ms, or dashes where a runner has no figures.
void printLatencyHeader(const char *firstColumn);
void printLatencyRow(const char *name, const Latency &latency);
void printMissingLatencyRow(const char *name);

} // namespace sandbox::bench
