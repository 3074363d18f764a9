#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sandbox::winvm {

// A GUID in Windows' layout (Data1-Data2-Data3-Data4), as hv_sock addresses take it.
struct Guid
{
    uint32_t data1 = 0;
    uint16_t data2 = 0;
    uint16_t data3 = 0;
    uint8_t data4[8] = {};

    // "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", braces allowed, any case; nothing else.
    static std::optional<Guid> parse(const std::string &text);
    // Hyper-V's service id for a vsock port: <port as 8 hex digits>-facb-11e6-bd58-64006a7986d3.
    static Guid vsockService(uint32_t port);
    std::string toString() const;
};

// winvm-helper --vm-id GUID --port N [--connect-timeout-ms MS]
struct BridgeArguments
{
    static constexpr uint32_t kDefaultConnectTimeoutMs = 30000;
    static constexpr uint32_t kMaxConnectTimeoutMs = 600000;

    Guid vmId;
    uint32_t port = 0;
    uint32_t connectTimeoutMs = kDefaultConnectTimeoutMs;
    bool help = false;

    // Every option once, each with its value; `error` names the option and what is wrong.
    static BridgeArguments parse(const std::vector<std::string> &arguments, std::string &error);
    static std::string usage();
};

} // namespace sandbox::winvm
