#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace sandbox::fdio {

// The whole content of the file at `path`, at most `limit` bytes: nullopt when it cannot be
// read or is longer; `absent` (when given) says whether it does not exist at all.
std::optional<std::string> readFileText(const std::string &path, size_t limit, bool *absent = nullptr);

} // namespace sandbox::fdio
