#pragma once

#include <vector>

namespace sandbox::bench {

// The median, 95th and 90th percentiles of a set of wall times, in the unit they were given in.
struct Latency
{
    double median = 0;
    double p95 = 0;
    double p90 = 0;
};

// Which tail figure a table shows: p95 where there are enough runs for it to mean something,
// p90 (interpolated between the nearest ranks) for the benchmarks whose runs take most of a
// second and are therefore few.
enum class Tail { P95, P90 };

// Sorts `times` (which must not be empty) and reads the median, p90 and p95 off it.
Latency latencyOf(std::vector<double> &times);

// The Markdown table the benchmarks print: a header naming the first column, then one
// row per runner with its median and tail figure in ms, dashes where a runner has no
// figures, or the reason a runner was refused.
void printLatencyHeader(const char *firstColumn, Tail tail = Tail::P95);
void printLatencyRow(const char *name, const Latency &latency, Tail tail = Tail::P95);
void printMissingLatencyRow(const char *name);
void printRefusedLatencyRow(const char *name, const char *reason);

} // namespace sandbox::bench
