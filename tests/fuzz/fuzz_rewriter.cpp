// libFuzzer target for the requests the filtering proxy reads inside a TLS connection it
// terminated (engine/net/HttpRequestRewriter): what a sandboxed command sends, split into
// reads at the places the first input byte picks. Two credentials: "home" belongs to the
// connection's host (its placeholder may become its value in the Authorization header),
// "away" does not.
// Beyond "no crash, no sanitizer report": the value of "away" never leaves the proxy; the
// value of "home" leaves only in an Authorization header of a request head whose Host is
// the connection's; a failure says why
// and carries an HTTP status; after a failure nothing more is passed.
#include "net/HttpRequestRewriter.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace sandbox;

namespace {

[[noreturn]] void contractBroken(const char *what, const QByteArray &detail)
{
    std::fprintf(stderr, "rewriter contract broken: %s: %s\n", what, detail.left(400).constData());
    std::abort();
}

const QByteArray homePlaceholder = "sandbox-credential-home-0123456789abcdef";
const QByteArray awayPlaceholder = "sandbox-credential-away-fedcba9876543210";
const QByteArray homeValue = "HOME-SECRET-VALUE";
const QByteArray awayValue = "AWAY-SECRET-VALUE";

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const unsigned step = 1 + data[0] % 64;
    const QByteArray input(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));
    HttpRequestRewriter rewriter(QStringLiteral("forge.example"), 443,
                                 { { QStringLiteral("home"), homePlaceholder, true, { "authorization" } },
                                   { QStringLiteral("away"), awayPlaceholder, false, {} } },
                                 [](const QString &name) -> std::optional<QByteArray> {
                                     if (name == QLatin1String("home"))
                                         return homeValue;
                                     if (name == QLatin1String("away"))
                                         return awayValue;
                                     return std::nullopt;
                                 });
    QByteArray out;
    for (qsizetype offset = 0; offset < input.size(); offset += step) {
        const bool failedBefore = rewriter.hasFailed();
        const QByteArray passed = rewriter.feed(input.mid(offset, step));
        if (failedBefore && !passed.isEmpty())
            contractBroken("bytes passed after a failure", passed);
        out += passed;
    }
    if (rewriter.hasFailed() && (rewriter.failureStatus() < 400 || rewriter.failureReason().isEmpty()))
        contractBroken("a failure without a status or a reason", rewriter.failureReason().toUtf8());
    if (out.contains(awayValue) && !input.contains(awayValue))
        contractBroken("the other host's value left the proxy", out);
    if (!input.contains(homeValue)) {
        // Every value sent is in an Authorization header line.
        qsizetype at = 0;
        while ((at = out.indexOf(homeValue, at)) >= 0) {
            const qsizetype lineStart = out.lastIndexOf('\n', at) + 1;
            if (!out.mid(lineStart, 14).toLower().startsWith("authorization:"))
                contractBroken("a value outside an Authorization header", out.mid(lineStart, 200));
            at += homeValue.size();
        }
    }
    rewriter.takeReports();
    return 0;
}
