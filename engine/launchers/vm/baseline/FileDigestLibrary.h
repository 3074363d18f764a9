#pragma once

namespace sandbox {

inline constexpr unsigned int kSha256Bytes = 32;

} // namespace sandbox

// The digest library's entry point (C linkage, so it can be looked up by name): reads the
// open file `fd` from where it is to its end and writes its SHA-256 (kSha256Bytes) to
// `digest` and its length to `bytes`. Returns 1 on success, 0 when reading or hashing failed.
extern "C" int sandbox_sha256_file(int fd, unsigned char *digest, long long *bytes);
