// The requests inside a TLS connection the proxy terminated for a credential's host:
// placeholders become values only where the policy says, everything else passes unchanged
// and is reported, and framing the proxy cannot read with certainty ends the connection.
#include "net/HttpRequestRewriter.h"

#include <QTest>

using namespace sandbox;

namespace {

const QByteArray home = "sandbox-credential-home-0123";
const QByteArray away = "sandbox-credential-away-4567";

HttpRequestRewriter makeRewriter(QList<QByteArray> headers = {}, std::optional<QByteArray> value = "s3cr3t")
{
    return HttpRequestRewriter(
        QStringLiteral("forge.example"), 443,
        { { QStringLiteral("home"), home, true, std::move(headers) }, { QStringLiteral("away"), away, false, {} } },
        [value](const QString &name) -> std::optional<QByteArray> {
            if (name == QLatin1String("home"))
                return value;
            return QByteArray("AWAY-VALUE");
        });
}

// Fed one byte at a time: the result must not depend on how the bytes arrive.
QByteArray feedBytewise(HttpRequestRewriter &rewriter, const QByteArray &input)
{
    QByteArray out;
    for (char c : input)
        out += rewriter.feed(QByteArray(1, c));
    return out;
}

} // namespace

class TestHttpRequestRewriter final : public QObject
{
    Q_OBJECT

private slots:
    void replacesInAllowedHeadersOnly();
    void replacesInsideBasic();
    void keepAliveAndBodies();
    void otherCredentialIsReportedNeverReplaced();
    void missingValueIsReported();
    void hostFormsOfThisHostPass();
    void answersStayUncompressedAndSentValuesAreKnown();
    void frontingIsRefused_data();
    void frontingIsRefused();
    void ambiguousFramingIsRefused_data();
    void ambiguousFramingIsRefused();
};

void TestHttpRequestRewriter::replacesInAllowedHeadersOnly()
{
    HttpRequestRewriter rewriter = makeRewriter({ "authorization" });
    const QByteArray out = feedBytewise(rewriter,
                                        "GET /" + home + " HTTP/1.1\r\nHost: forge.example\r\nAuthorization: Bearer "
                                            + home + "\r\nX-Other: " + home + "\r\n\r\n");
    QVERIFY(!rewriter.hasFailed());
    QVERIFY(out.contains("\r\nAuthorization: Bearer s3cr3t\r\n"));
    QVERIFY(out.contains(QByteArray("\r\nX-Other: " + home + "\r\n")));
    QVERIFY(out.startsWith(QByteArray("GET /" + home + " HTTP/1.1\r\n")));
    QCOMPARE(out.count("s3cr3t"), 1);
    const QList<HttpRequestRewriter::Report> reports = rewriter.takeReports();
    QCOMPARE(reports.size(), 1); // the request line and X-Other: one report per credential and kind
    QCOMPARE(reports.first().credential, QStringLiteral("home"));
}

void TestHttpRequestRewriter::replacesInsideBasic()
{
    HttpRequestRewriter rewriter = makeRewriter();
    const QByteArray basic = QByteArray("x-access-token:" + home).toBase64();
    const QByteArray out
        = rewriter.feed("GET / HTTP/1.1\r\nHost: forge.example:443\r\nAuthorization: Basic " + basic + "\r\n\r\n");
    QVERIFY(!rewriter.hasFailed());
    QVERIFY2(
        out.contains(QByteArray("Authorization: Basic " + QByteArray("x-access-token:s3cr3t").toBase64() + "\r\n")),
        out.constData());
}

void TestHttpRequestRewriter::keepAliveAndBodies()
{
    HttpRequestRewriter rewriter = makeRewriter();
    const QByteArray input = "POST /a HTTP/1.1\r\nHost: forge.example\r\nContent-Length: 11\r\n\r\nAuthorizati"
                             "POST /b HTTP/1.1\r\nHost: forge.example\r\nTransfer-Encoding: chunked\r\n\r\n"
                             "4\r\nab\r\n\r\n0\r\nX-Trailer: 1\r\n\r\n"
                             "GET /c HTTP/1.1\r\nHost: forge.example\r\nAuthorization: "
        + home + "\r\n\r\n";
    const QByteArray out = feedBytewise(rewriter, input);
    QVERIFY2(!rewriter.hasFailed(), qPrintable(rewriter.failureReason()));
    QCOMPARE(rewriter.requestCount(), 3);
    QByteArray expected = input;
    expected.replace(QByteArray("Authorization: " + home), "Authorization: s3cr3t");
    QCOMPARE(out, expected);
}

void TestHttpRequestRewriter::otherCredentialIsReportedNeverReplaced()
{
    HttpRequestRewriter rewriter = makeRewriter();
    const QByteArray out
        = rewriter.feed("POST / HTTP/1.1\r\nHost: forge.example\r\nAuthorization: " + away
                        + "\r\nContent-Length: " + QByteArray::number(away.size()) + "\r\n\r\n" + away);
    QVERIFY(!out.contains("AWAY-VALUE"));
    QCOMPARE(out.count(away), 2);
    const QList<HttpRequestRewriter::Report> reports = rewriter.takeReports();
    QCOMPARE(reports.size(), 1);
    QCOMPARE(reports.first().credential, QStringLiteral("away"));
    QVERIFY(reports.first().message.contains(QStringLiteral("not one of its hosts")));
}

void TestHttpRequestRewriter::missingValueIsReported()
{
    HttpRequestRewriter rewriter = makeRewriter({}, std::nullopt);
    const QByteArray out
        = rewriter.feed("GET / HTTP/1.1\r\nHost: forge.example\r\nAuthorization: " + home + "\r\n\r\n");
    QVERIFY(out.contains(QByteArray("Authorization: " + home)));
    const QList<HttpRequestRewriter::Report> reports = rewriter.takeReports();
    QCOMPARE(reports.size(), 1);
    QVERIFY(reports.first().message.contains(QStringLiteral("no stored value")));
}

void TestHttpRequestRewriter::hostFormsOfThisHostPass()
{
    for (const QByteArray &host : { QByteArray("forge.example"), QByteArray("FORGE.Example"),
                                    QByteArray("forge.example."), QByteArray("forge.example:443") }) {
        HttpRequestRewriter rewriter = makeRewriter();
        rewriter.feed("GET https://" + host + "/x HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
        QVERIFY2(!rewriter.hasFailed(), host.constData());
    }
}

void TestHttpRequestRewriter::answersStayUncompressedAndSentValuesAreKnown()
{
    HttpRequestRewriter rewriter = makeRewriter();
    const QByteArray out = rewriter.feed("GET / HTTP/1.1\r\nHost: forge.example\r\nAccept-Encoding: gzip, br\r\n"
                                         "Authorization: Basic "
                                         + QByteArray("u:" + home).toBase64() + "\r\nX-Key: " + home + "\r\n\r\n");
    QVERIFY(out.contains("\r\nAccept-Encoding: identity\r\n"));
    QList<QByteArray> sent;
    for (const HttpRequestRewriter::Sent &entry : rewriter.sent()) {
        QCOMPARE(entry.credential, QStringLiteral("home"));
        sent.append(entry.bytes);
    }
    QVERIFY(sent.contains(QByteArray("s3cr3t")));
    QVERIFY(sent.contains(QByteArray("u:s3cr3t").toBase64()));
}

void TestHttpRequestRewriter::frontingIsRefused_data()
{
    QTest::addColumn<QByteArray>("head");
    QTest::newRow("other host") << QByteArray("GET / HTTP/1.1\r\nHost: elsewhere.example\r\n");
    QTest::newRow("other port") << QByteArray("GET / HTTP/1.1\r\nHost: forge.example:8443\r\n");
    QTest::newRow("two hosts") << QByteArray("GET / HTTP/1.1\r\nHost: forge.example\r\nHost: elsewhere.example\r\n");
    QTest::newRow("no host") << QByteArray("GET / HTTP/1.1\r\n");
    QTest::newRow("absolute form") << QByteArray("GET https://elsewhere.example/ HTTP/1.1\r\nHost: forge.example\r\n");
    QTest::newRow("user info") << QByteArray("GET / HTTP/1.1\r\nHost: x@forge.example\r\n");
    // What a URL parser reads past, so that a looser front end could take another name.
    QTest::newRow("query after port") << QByteArray("GET / HTTP/1.1\r\nHost: forge.example:443?.evil.example\r\n");
    QTest::newRow("path after port") << QByteArray("GET / HTTP/1.1\r\nHost: forge.example:443/evil.example\r\n");
    QTest::newRow("fragment after port") << QByteArray("GET / HTTP/1.1\r\nHost: forge.example:443#@evil.example\r\n");
    QTest::newRow("empty port") << QByteArray("GET / HTTP/1.1\r\nHost: forge.example:\r\n");
    QTest::newRow("absolute with user info")
        << QByteArray("GET https://evil.example:@forge.example/ HTTP/1.1\r\nHost: forge.example\r\n");
    QTest::newRow("absolute with encoded slash")
        << QByteArray("GET https://evil.example%2f@forge.example/ HTTP/1.1\r\nHost: forge.example\r\n");
    QTest::newRow("absolute with fragment")
        << QByteArray("GET https://forge.example#@evil.example/ HTTP/1.1\r\nHost: forge.example\r\n");
    QTest::newRow("plain http") << QByteArray("GET http://forge.example/ HTTP/1.1\r\nHost: forge.example\r\n");
}

void TestHttpRequestRewriter::frontingIsRefused()
{
    QFETCH(QByteArray, head);
    HttpRequestRewriter rewriter = makeRewriter();
    const QByteArray out = rewriter.feed(head + "Authorization: " + home + "\r\n\r\n");
    QVERIFY(rewriter.hasFailed());
    QVERIFY(rewriter.failureStatus() == 421 || rewriter.failureStatus() == 400);
    QVERIFY(!out.contains("s3cr3t"));
    QVERIFY(out.isEmpty());
}

void TestHttpRequestRewriter::ambiguousFramingIsRefused_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<int>("status");
    QTest::newRow("length and chunked") << QByteArray(
        "POST / HTTP/1.1\r\nHost: forge.example\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n")
                                        << 400;
    QTest::newRow("two lengths") << QByteArray(
        "POST / HTTP/1.1\r\nHost: forge.example\r\nContent-Length: 4\r\nContent-Length: 5\r\n\r\n")
                                 << 400;
    QTest::newRow("folded") << QByteArray("GET / HTTP/1.1\r\nHost: forge.example\r\nX-A: 1\r\n  more\r\n\r\n") << 400;
    QTest::newRow("bare line feed") << QByteArray("GET / HTTP/1.1\nHost: forge.example\r\n\r\n") << 400;
    QTest::newRow("gzip coding") << QByteArray(
        "POST / HTTP/1.1\r\nHost: forge.example\r\nTransfer-Encoding: gzip\r\n\r\n")
                                 << 501;
    QTest::newRow("bad chunk") << QByteArray(
        "POST / HTTP/1.1\r\nHost: forge.example\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
                               << 400;
    QTest::newRow("chunk without end") << QByteArray(
        "POST / HTTP/1.1\r\nHost: forge.example\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabXY")
                                       << 400;
    QTest::newRow("nested connect") << QByteArray("CONNECT other:443 HTTP/1.1\r\nHost: forge.example\r\n\r\n") << 405;
    QTest::newRow("trace") << QByteArray("TRACE / HTTP/1.1\r\nHost: forge.example\r\n\r\n") << 405;
    QTest::newRow("upgrade") << QByteArray(
        "GET / HTTP/1.1\r\nHost: forge.example\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n")
                             << 501;
    QTest::newRow("huge head") << QByteArray("GET / HTTP/1.1\r\nX: " + QByteArray(40000, 'a')) << 431;
}

void TestHttpRequestRewriter::ambiguousFramingIsRefused()
{
    QFETCH(QByteArray, input);
    QFETCH(int, status);
    HttpRequestRewriter rewriter = makeRewriter();
    rewriter.feed(input);
    QVERIFY(rewriter.hasFailed());
    QCOMPARE(rewriter.failureStatus(), status);
    QVERIFY(!rewriter.failureReason().isEmpty());
    // Nothing more passes once it failed.
    QVERIFY(rewriter.feed("GET / HTTP/1.1\r\nHost: forge.example\r\n\r\n").isEmpty());
}

QTEST_GUILESS_MAIN(TestHttpRequestRewriter)
#include "tst_httprequestrewriter.moc"
