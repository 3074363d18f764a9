#pragma once

#include <cstdint>
#include <string>

// The u32 fields of the guest wire protocols (GuestProtocol.h, ForwarderProtocol.h):
// little-endian, written and read byte by byte so the guest programs need nothing else.
namespace sandbox::wire {

inline void putU32(std::string &out, uint32_t value)
{
    for (int i = 0; i < 4; ++i)
        out.push_back(char((value >> (8 * i)) & 0xff));
}

inline uint32_t getU32(const char *p)
{
    uint32_t value = 0;
    for (int i = 0; i < 4; ++i)
        value |= uint32_t(uint8_t(p[i])) << (8 * i);
    return value;
}

} // namespace sandbox::wire
