#pragma once

#include <string>
#include <string_view>

namespace sandbox::front {

// Standard base64 (RFC 4648, padded), as the protocol carries process input and output.
std::string toBase64(std::string_view bytes);
// Decodes like the engine's client: characters outside the alphabet are skipped.
std::string fromBase64(std::string_view text);

} // namespace sandbox::front
