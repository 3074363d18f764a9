// The E2B backend's settings (packs/power/e2b/E2bSettings): where envd is reached. As E2B's
// SDK does, E2B's own domains serve every sandbox at https://sandbox.<domain> (the sandbox
// named in headers); other domains at the sandbox's own host; a configured sandbox URL wins.
#include "e2b/E2bSettings.h"

#include <QTest>

using sandbox::ResolvedSettings;
using sandbox::power::E2bSettings;

class TestE2bSettings final : public QObject
{
    Q_OBJECT

private slots:
    void envdAddress()
    {
        ResolvedSettings resolved;
        resolved.secrets.insert(QStringLiteral("apiKey"), QStringLiteral("e2b_key"));
        const auto read = E2bSettings::fromResolved(resolved);
        QVERIFY(read.ok());
        QCOMPARE(read.value().apiUrl, QUrl(QStringLiteral("https://api.e2b.app")));
        QCOMPARE(read.value().envdUrl(QStringLiteral("abc123"), QString()),
                 QUrl(QStringLiteral("https://sandbox.e2b.app")));
        QCOMPARE(read.value().envdUrl(QStringLiteral("abc123"), QStringLiteral("e2b.dev")),
                 QUrl(QStringLiteral("https://sandbox.e2b.dev")));
        QCOMPARE(read.value().envdUrl(QStringLiteral("abc123"), QStringLiteral("sandboxes.example.org")),
                 QUrl(QStringLiteral("https://49983-abc123.sandboxes.example.org")));

        resolved.values.values.insert(QStringLiteral("domain"), QStringLiteral("e2b.example.org"));
        resolved.values.values.insert(QStringLiteral("sandboxUrl"), QStringLiteral("https://envd.example.org"));
        const auto configured = E2bSettings::fromResolved(resolved);
        QVERIFY(configured.ok());
        QCOMPARE(configured.value().envdUrl(QStringLiteral("abc123"), QString()),
                 QUrl(QStringLiteral("https://envd.example.org")));
        resolved.values.values.remove(QStringLiteral("sandboxUrl"));
        QCOMPARE(E2bSettings::fromResolved(resolved).value().envdUrl(QStringLiteral("abc123"), QString()),
                 QUrl(QStringLiteral("https://49983-abc123.e2b.example.org")));
    }
};

QTEST_GUILESS_MAIN(TestE2bSettings)

#include "tst_e2bsettings.moc"
