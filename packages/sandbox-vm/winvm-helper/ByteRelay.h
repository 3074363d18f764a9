#pragma once

#include "RelayEndpoint.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

namespace sandbox::winvm {

// Carries bytes both ways between two endpoints until both directions have ended. Each
// direction holds at most kBufferBytes: it reads no more from its source until the last
// piece is written out, so a peer that stops reading stops the other side's writes, never
// grows memory. The end of one direction's stream is passed on as a half-close of the
// other endpoint's write side, and the other direction goes on. The first read or write
// that fails ends the relay: both endpoints are interrupted and the failure names the
// endpoint and what the system said.
class ByteRelay final
{
public:
    static constexpr size_t kBufferBytes = 64 * 1024;

    struct Outcome
    {
        bool ok = true;
        std::string failure;
        uint64_t firstToSecond = 0;
        uint64_t secondToFirst = 0;
    };

    ByteRelay(RelayEndpoint &first, RelayEndpoint &second);

    // Called once, on the failing direction's thread, before the endpoints are interrupted
    // (a process may end right there).
    void onFailure(std::function<void(const std::string &)> handler) { m_onFailure = std::move(handler); }

    // Relays until both directions ended or one failed; blocks the caller.
    Outcome run();

private:
    void pump(RelayEndpoint &from, RelayEndpoint &to, std::atomic<uint64_t> &moved);
    void fail(const std::string &failure);

    RelayEndpoint &m_first;
    RelayEndpoint &m_second;
    std::function<void(const std::string &)> m_onFailure;
    std::atomic<bool> m_failed{ false };
    std::string m_failure;
};

} // namespace sandbox::winvm
