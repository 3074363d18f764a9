#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace sandbox {

// SHA-256 (FIPS 180-4) in plain C++ for the run front, which links no library that has one:
// what recorded plans name their inputs by (the environment, file contents, listings).
class Sha256 final
{
public:
    Sha256();
    void add(std::string_view data);
    // The digest of everything added, as 64 lowercase hex digits; the object is spent.
    std::string hex();

    static std::string hexOf(std::string_view data);

private:
    void block(const unsigned char *data);

    std::uint32_t m_state[8];
    unsigned char m_buffer[64];
    std::size_t m_buffered = 0;
    std::uint64_t m_length = 0; // bytes
};

} // namespace sandbox
