#pragma once

#include <cstddef>
#include <string>

namespace sandbox::winvm {

// What one read or write did: `bytes` moved (0 from a read is the end of the stream), or
// `failed` with the system's words for why.
struct IoResult
{
    size_t bytes = 0;
    bool failed = false;
    std::string error;
};

// One end of a byte relay: a socket, or a pair of standard handles. Reads and writes
// block; `interrupt` makes a blocked read or write on another thread return (failed or at
// the end), and every later one too.
class RelayEndpoint
{
public:
    virtual ~RelayEndpoint() = default;
    // What this end is, for error messages ("the guest's hv_sock service 00000400-...").
    virtual std::string name() const = 0;
    virtual IoResult read(char *buffer, size_t size) = 0;
    virtual IoResult write(const char *data, size_t size) = 0;
    // Tells this end nothing more will be written to it (the half-close passed on).
    virtual IoResult shutdownWrite() = 0;
    virtual void interrupt() = 0;
};

} // namespace sandbox::winvm
