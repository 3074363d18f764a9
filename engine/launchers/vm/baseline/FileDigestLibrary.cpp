// The SHA-256 of an open file through OpenSSL, which uses the CPU's SHA instructions. On
// Linux this is libsandbox-digest, loaded by FileDigest the first time a VM baseline or
// guest image is checked: libcrypto costs every engine start milliseconds of loading and
// relocation, and most starts (every embedded `sandboxctl run`) never digest anything.
#include "FileDigestLibrary.h"

#include <cerrno>
#include <memory>
#include <openssl/evp.h>
#include <unistd.h>
#include <vector>

extern "C" int sandbox_sha256_file(int fd, unsigned char *digest, long long *bytes)
{
    const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    if (!context || EVP_DigestInit_ex(context.get(), EVP_sha256(), nullptr) != 1)
        return 0;
    std::vector<unsigned char> buffer(size_t(1) << 20);
    long long total = 0;
    for (;;) {
        const ssize_t got = ::read(fd, buffer.data(), buffer.size());
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return 0;
        if (got == 0)
            break;
        if (EVP_DigestUpdate(context.get(), buffer.data(), size_t(got)) != 1)
            return 0;
        total += got;
    }
    unsigned int length = 0;
    if (EVP_DigestFinal_ex(context.get(), digest, &length) != 1 || length != sandbox::kSha256Bytes)
        return 0;
    *bytes = total;
    return 1;
}
