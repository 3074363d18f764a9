#include "Base64.h"

#include <cstdint>

namespace sandbox::front {

namespace {

constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int sextet(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

} // namespace

std::string toBase64(std::string_view bytes)
{
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    size_t i = 0;
    for (; i + 3 <= bytes.size(); i += 3) {
        const std::uint32_t word = std::uint32_t(static_cast<unsigned char>(bytes[i])) << 16
            | std::uint32_t(static_cast<unsigned char>(bytes[i + 1])) << 8
            | std::uint32_t(static_cast<unsigned char>(bytes[i + 2]));
        out += alphabet[(word >> 18) & 0x3F];
        out += alphabet[(word >> 12) & 0x3F];
        out += alphabet[(word >> 6) & 0x3F];
        out += alphabet[word & 0x3F];
    }
    const size_t rest = bytes.size() - i;
    if (rest > 0) {
        std::uint32_t word = std::uint32_t(static_cast<unsigned char>(bytes[i])) << 16;
        if (rest == 2)
            word |= std::uint32_t(static_cast<unsigned char>(bytes[i + 1])) << 8;
        out += alphabet[(word >> 18) & 0x3F];
        out += alphabet[(word >> 12) & 0x3F];
        out += rest == 2 ? alphabet[(word >> 6) & 0x3F] : '=';
        out += '=';
    }
    return out;
}

std::string fromBase64(std::string_view text)
{
    std::string out;
    out.reserve(text.size() / 4 * 3);
    std::uint32_t buffer = 0;
    int bits = 0;
    for (const char c : text) {
        if (c == '=')
            break;
        const int value = sextet(c);
        if (value < 0)
            continue;
        buffer = (buffer << 6) | std::uint32_t(value);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += char((buffer >> bits) & 0xFF);
        }
    }
    return out;
}

} // namespace sandbox::front
