#include "BridgeArguments.h"

#include <cstdio>
#include <set>

namespace sandbox::winvm {

namespace {

std::optional<uint64_t> parseHex(const std::string &text)
{
    uint64_t value = 0;
    for (const char c : text) {
        int digit = -1;
        if (c >= '0' && c <= '9')
            digit = c - '0';
        else if (c >= 'a' && c <= 'f')
            digit = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            digit = c - 'A' + 10;
        if (digit < 0)
            return std::nullopt;
        value = value * 16 + uint64_t(digit);
    }
    return value;
}

// A decimal number of at most 10 digits no greater than `limit`.
std::optional<uint32_t> parseDecimal(const std::string &text, uint64_t limit)
{
    if (text.empty() || text.size() > 10)
        return std::nullopt;
    uint64_t value = 0;
    for (const char c : text) {
        if (c < '0' || c > '9')
            return std::nullopt;
        value = value * 10 + uint64_t(c - '0');
    }
    if (value > limit)
        return std::nullopt;
    return uint32_t(value);
}

} // namespace

std::optional<Guid> Guid::parse(const std::string &input)
{
    std::string text = input;
    if (text.size() == 38 && text.front() == '{' && text.back() == '}')
        text = text.substr(1, 36);
    if (text.size() != 36 || text[8] != '-' || text[13] != '-' || text[18] != '-' || text[23] != '-')
        return std::nullopt;
    const auto d1 = parseHex(text.substr(0, 8));
    const auto d2 = parseHex(text.substr(9, 4));
    const auto d3 = parseHex(text.substr(14, 4));
    const auto d4a = parseHex(text.substr(19, 4));
    const auto d4b = parseHex(text.substr(24, 12));
    if (!d1 || !d2 || !d3 || !d4a || !d4b)
        return std::nullopt;
    Guid guid;
    guid.data1 = uint32_t(*d1);
    guid.data2 = uint16_t(*d2);
    guid.data3 = uint16_t(*d3);
    guid.data4[0] = uint8_t(*d4a >> 8);
    guid.data4[1] = uint8_t(*d4a);
    for (int i = 0; i < 6; ++i)
        guid.data4[2 + i] = uint8_t(*d4b >> (8 * (5 - i)));
    return guid;
}

Guid Guid::vsockService(uint32_t port)
{
    Guid guid = *parse("00000000-facb-11e6-bd58-64006a7986d3");
    guid.data1 = port;
    return guid;
}

std::string Guid::toString() const
{
    char text[37];
    std::snprintf(text, sizeof text, "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x", unsigned(data1),
                  unsigned(data2), unsigned(data3), data4[0], data4[1], data4[2], data4[3], data4[4], data4[5],
                  data4[6], data4[7]);
    return text;
}

BridgeArguments BridgeArguments::parse(const std::vector<std::string> &arguments, std::string &error)
{
    BridgeArguments parsed;
    error.clear();
    std::set<std::string> seen;
    for (size_t i = 0; i < arguments.size(); ++i) {
        const std::string &option = arguments[i];
        if (option == "--help" || option == "-h") {
            parsed.help = true;
            return parsed;
        }
        if (option != "--vm-id" && option != "--port" && option != "--connect-timeout-ms") {
            error = "unknown argument \"" + option + "\"";
            return parsed;
        }
        if (!seen.insert(option).second) {
            error = option + " is given more than once";
            return parsed;
        }
        if (i + 1 >= arguments.size()) {
            error = option + " needs a value";
            return parsed;
        }
        const std::string &value = arguments[++i];
        if (option == "--vm-id") {
            const std::optional<Guid> guid = Guid::parse(value);
            if (!guid) {
                error = "--vm-id \"" + value + "\" is not a GUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)";
                return parsed;
            }
            parsed.vmId = *guid;
        } else if (option == "--port") {
            const std::optional<uint32_t> port = parseDecimal(value, 0xffffffffu);
            if (!port) {
                error = "--port \"" + value + "\" is not a vsock port (a decimal number up to 4294967295)";
                return parsed;
            }
            parsed.port = *port;
        } else {
            const std::optional<uint32_t> timeout = parseDecimal(value, kMaxConnectTimeoutMs);
            if (!timeout || *timeout == 0) {
                error = "--connect-timeout-ms \"" + value + "\" is not a number of milliseconds from 1 to "
                    + std::to_string(kMaxConnectTimeoutMs);
                return parsed;
            }
            parsed.connectTimeoutMs = *timeout;
        }
    }
    if (!seen.count("--vm-id"))
        error = "--vm-id is required";
    else if (!seen.count("--port"))
        error = "--port is required";
    return parsed;
}

std::string BridgeArguments::usage()
{
    return "usage: winvm-helper --vm-id GUID --port N [--connect-timeout-ms MS]\n"
           "Connects to the hv_sock service of vsock port N (service id "
           "<N as 8 hex digits>-facb-11e6-bd58-64006a7986d3)\n"
           "of the Hyper-V VM GUID and relays bytes between it and standard input and output.\n"
           "Exit status: 0 when both directions ended, 2 for bad arguments, 3 when the service cannot be\n"
           "reached, 4 when the relay failed.\n";
}

} // namespace sandbox::winvm
