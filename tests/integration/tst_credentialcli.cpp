// `sandboxctl credential` and `sandboxctl policy` with credentials, through the real
// sandboxctl and an engine it hosts, against the real OS keychain (tests/with-keyring.sh):
// a value comes from stdin only, is never printed, and reads say only whether one is stored.
#include "ProgramRun.h"

#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

using sandbox::test::binary;
using sandbox::test::Outcome;

class TestCredentialCli final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void setListRemove();
    void badInputChangesNothing();
    void policyShowsCredentials();
    void credentialsNeedAllowedDomains();
    void plainValuesAreUnreadableInside_data();
    void plainValuesAreUnreadableInside();
    void extraAuthorityTheCommandCanWriteIsRefused();
    void authorityKeyIsUnreadableInside_data();
    void authorityKeyIsUnreadableInside();

private:
    Outcome ctl(const QStringList &args, const QByteArray &input = {});
    QStringList filesContaining(const QByteArray &value) const;

    std::unique_ptr<QTemporaryDir> m_root;
};

void TestCredentialCli::init()
{
    m_root = std::make_unique<QTemporaryDir>(QStringLiteral("/var/tmp/credential-cli-XXXXXX"));
    QVERIFY(m_root->isValid());
    QVERIFY(QDir(m_root->path()).mkpath(QStringLiteral("work")));
}

void TestCredentialCli::cleanup()
{
    m_root.reset();
}

Outcome TestCredentialCli::ctl(const QStringList &args, const QByteArray &input)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SANDBOX_CONFIG_DIR"), m_root->filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("SANDBOX_STATE_DIR"), m_root->filePath(QStringLiteral("state")));
    return sandbox::test::runProgram(
        binary(QStringLiteral("sandboxctl")),
        QStringList{ QStringLiteral("--socket"), m_root->filePath(QStringLiteral("e.sock")) } + args,
        m_root->filePath(QStringLiteral("work")), input, 60000, env);
}

QStringList TestCredentialCli::filesContaining(const QByteArray &value) const
{
    QStringList found;
    QDirIterator it(m_root->path(), QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile file(path);
        if (file.open(QIODevice::ReadOnly) && file.readAll().contains(value))
            found.append(path);
    }
    return found;
}

void TestCredentialCli::setListRemove()
{
    const QByteArray value = "ghp_" + QByteArray::number(QRandomGenerator::global()->generate64(), 36) + "-no-leak";
    const QString name = QStringLiteral("cli-%1").arg(QRandomGenerator::global()->generate(), 0, 36);

    Outcome listed = ctl({ QStringLiteral("credential"), QStringLiteral("list") });
    QCOMPARE(listed.exitCode, 0);
    QVERIFY2(listed.out.startsWith("no credentials"), listed.out.constData());

    const Outcome set = ctl({ QStringLiteral("credential"), QStringLiteral("set"), name }, value + '\n');
    QVERIFY2(set.exitCode == 0, set.err.constData());
    QCOMPARE(set.out, QStringLiteral("credential %1 stored\n").arg(name).toUtf8());
    QVERIFY(!set.out.contains(value) && !set.err.contains(value));

    listed = ctl({ QStringLiteral("credential"), QStringLiteral("list") });
    QCOMPARE(listed.exitCode, 0);
    QCOMPARE(listed.out, QStringLiteral("%1  value stored  (not in the policy)\n").arg(name).toUtf8());
    const Outcome json = ctl({ QStringLiteral("credential"), QStringLiteral("list"), QStringLiteral("--json") });
    QCOMPARE(json.exitCode, 0);
    const QJsonArray entries
        = QJsonDocument::fromJson(json.out).object().value(QStringLiteral("credentials")).toArray();
    QCOMPARE(entries.size(), 1);
    QCOMPARE(entries.first().toObject().value(QStringLiteral("configured")), QJsonValue(true));
    QVERIFY(!json.out.contains(value));
    // Only the keychain holds it: no file of the engine's.
    QCOMPARE(filesContaining(value), QStringList());

    const Outcome removed = ctl({ QStringLiteral("credential"), QStringLiteral("remove"), name });
    QCOMPARE(removed.exitCode, 0);
    QCOMPARE(removed.out, QStringLiteral("credential %1 removed\n").arg(name).toUtf8());
    listed = ctl({ QStringLiteral("credential"), QStringLiteral("list") });
    QVERIFY2(listed.out.startsWith("no credentials"), listed.out.constData());
}

void TestCredentialCli::badInputChangesNothing()
{
    // A value on the command line is not accepted: only stdin carries it.
    const Outcome argv
        = ctl({ QStringLiteral("credential"), QStringLiteral("set"), QStringLiteral("gh"), QStringLiteral("token") });
    QCOMPARE(argv.exitCode, 2);
    QVERIFY(argv.err.contains("expects set NAME, list, remove NAME or rotate-authority"));
    const Outcome badName = ctl({ QStringLiteral("credential"), QStringLiteral("set"), QStringLiteral("a/b") }, "v\n");
    QCOMPARE(badName.exitCode, 2);
    QVERIFY2(badName.err.contains("may only contain"), badName.err.constData());
    const Outcome empty = ctl({ QStringLiteral("credential"), QStringLiteral("set"), QStringLiteral("gh") }, "\n");
    QCOMPARE(empty.exitCode, 1);
    QVERIFY(empty.err.contains("empty value: nothing changed"));
    const Outcome twoLines
        = ctl({ QStringLiteral("credential"), QStringLiteral("set"), QStringLiteral("gh") }, "a\nX-Evil: 1\n");
    QCOMPARE(twoLines.exitCode, 1);
    QVERIFY2(twoLines.err.contains("control character"), twoLines.err.constData());
    QVERIFY(!twoLines.err.contains("X-Evil"));
    const Outcome listed = ctl({ QStringLiteral("credential"), QStringLiteral("list") });
    QVERIFY2(listed.out.startsWith("no credentials"), listed.out.constData());
}

void TestCredentialCli::policyShowsCredentials()
{
    const QString file = m_root->filePath(QStringLiteral("work/policy.json"));
    QFile out(file);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(R"({"filesystem":{"readable":["/"],"writable":["${workspace}"]},
                 "network":{"mode":"allowlist","allowedDomains":["github.com"]},"hostExecution":"deny",
                 "credentials":[{"name":"github","env":"GITHUB_TOKEN","hosts":["github.com","*.github.com"]}]})");
    out.close();
    const Outcome set = ctl({ QStringLiteral("policy"), QStringLiteral("set"), file });
    QVERIFY2(set.exitCode == 0, set.err.constData());
    const Outcome shown = ctl({ QStringLiteral("policy"), QStringLiteral("show") });
    QVERIFY2(shown.out.contains("credentials:\n  github -> github.com, *.github.com\n"), shown.out.constData());
    const Outcome listed = ctl({ QStringLiteral("credential"), QStringLiteral("list") });
    QCOMPARE(listed.out,
             QByteArray("github  no value stored  github.com, *.github.com  (the command sees GITHUB_TOKEN)\n"));

    // A bad entry is refused with its place in the file, and the stored policy stays.
    QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
    out.write(R"({"filesystem":{},"network":{"mode":"full"},"hostExecution":"deny",
                 "credentials":[{"name":"github","hosts":["https://github.com"]}]})");
    out.close();
    const Outcome refused = ctl({ QStringLiteral("policy"), QStringLiteral("set"), file });
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains("policy.credentials[0].hosts[0]"), refused.err.constData());
    QVERIFY(ctl({ QStringLiteral("policy"), QStringLiteral("show") }).out.contains("github -> github.com"));
}

void TestCredentialCli::credentialsNeedAllowedDomains()
{
    // With the host's network the command's connections would not pass the engine's proxy,
    // which alone puts the values in: such a policy runs nothing, and says why.
    const QString file = m_root->filePath(QStringLiteral("policy.json"));
    QFile out(file);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(R"({"filesystem":{"readable":["/"],"writable":["${workspace}"]},"network":{"mode":"full"},
                 "hostExecution":"deny","credentials":[{"name":"github","env":"GITHUB_TOKEN","hosts":["github.com"]}]})");
    out.close();
    const QString marker = m_root->filePath(QStringLiteral("work/ran"));
    const Outcome run = ctl({ QStringLiteral("run"), QStringLiteral("--policy"), file, QStringLiteral("--"),
                              QStringLiteral("/bin/touch"), marker });
    QVERIFY(run.exitCode != 0);
    QVERIFY2(run.err.contains(".credentials: credentials need the network mode \"allowlist\""), run.err.constData());
    QVERIFY(!QFile::exists(marker));
}

void TestCredentialCli::plainValuesAreUnreadableInside_data()
{
    QTest::addColumn<QString>("tier");
    QTest::newRow("tier 1") << QStringLiteral("strongest");
    QTest::newRow("tier 2") << QStringLiteral("landlock-seccomp");
}

void TestCredentialCli::plainValuesAreUnreadableInside()
{
    // The user's opt-in to a plain secrets file: the file the values are in is readable by
    // the user, and so by a command under the default policy unless the engine denies it.
    QFETCH(QString, tier);
    const Outcome optIn = ctl({ QStringLiteral("secret"), QStringLiteral("storage"), QStringLiteral("plaintext") });
    QVERIFY2(optIn.exitCode == 0, optIn.err.constData());
    const QByteArray value = "plain_" + QByteArray::number(QRandomGenerator::global()->generate64(), 36);
    const Outcome set
        = ctl({ QStringLiteral("credential"), QStringLiteral("set"), QStringLiteral("forge") }, value + '\n');
    QVERIFY2(set.exitCode == 0, set.err.constData());
    const QString file = m_root->filePath(QStringLiteral("config/secrets.json"));
    QVERIFY2(sandbox::test::readFile(file).contains(value), "the value is not in the plain file: nothing to attack");
    QVERIFY(ctl({ QStringLiteral("settings"), QStringLiteral("set"), QStringLiteral("builtin:auto"),
                  QStringLiteral("tier=") + tier })
                .exitCode
            == 0);
    QVERIFY(ctl({ QStringLiteral("activate"), QStringLiteral("builtin:auto") }).exitCode == 0);
    for (const QStringList &attempt :
         { QStringList{ QStringLiteral("/bin/cat"), file },
           QStringList{ QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                        QStringLiteral("cat %1/../config/secrets.json").arg(m_root->filePath(QStringLiteral("work"))) },
           QStringList{ QStringLiteral("/bin/grep"), QStringLiteral("-r"), QString::fromLatin1(value),
                        m_root->filePath(QStringLiteral("config")) } }) {
        const Outcome run = ctl(QStringList{ QStringLiteral("run"), QStringLiteral("--") } + attempt);
        QVERIFY2(!run.out.contains(value) && !run.err.contains(value), qPrintable(attempt.join(QLatin1Char(' '))));
    }
}

void TestCredentialCli::extraAuthorityTheCommandCanWriteIsRefused()
{
    // An authority file the command could rewrite would make the proxy trust what the
    // command likes toward the real host, for the next command: refused however it is named.
    const QString authority = m_root->filePath(QStringLiteral("work/corp.pem"));
    QVERIFY(sandbox::test::writeFile(authority, "-----BEGIN CERTIFICATE-----\n"));
    const QString file = m_root->filePath(QStringLiteral("policy.json"));
    QVERIFY(sandbox::test::writeFile(file,
                                     QStringLiteral(R"({"filesystem":{"readable":["/"],"writable":["${workspace}"]},
                 "network":{"mode":"allowlist","allowedDomains":["github.com"],"extraCaCertificates":["%1"]},
                 "hostExecution":"deny","credentials":[{"name":"github","env":"GITHUB_TOKEN","hosts":["github.com"]}]})")
                                         .arg(authority)
                                         .toUtf8()));
    const QString marker = m_root->filePath(QStringLiteral("work/ran"));
    const Outcome run = ctl({ QStringLiteral("run"), QStringLiteral("--policy"), file, QStringLiteral("--"),
                              QStringLiteral("/bin/touch"), marker });
    QVERIFY(run.exitCode != 0);
    QVERIFY2(run.err.contains("extraCaCertificates") && run.err.contains("may write"), run.err.constData());
    QVERIFY(!QFile::exists(marker));
}

void TestCredentialCli::authorityKeyIsUnreadableInside_data()
{
    QTest::addColumn<QString>("tier");
    QTest::newRow("tier 1") << QStringLiteral("strongest");
    QTest::newRow("tier 2") << QStringLiteral("landlock-seccomp");
}

void TestCredentialCli::authorityKeyIsUnreadableInside()
{
    QFETCH(QString, tier);
    const Outcome set = ctl({ QStringLiteral("settings"), QStringLiteral("set"), QStringLiteral("builtin:auto"),
                              QStringLiteral("tier=") + tier });
    QVERIFY2(set.exitCode == 0, set.err.constData());
    const Outcome activated = ctl({ QStringLiteral("activate"), QStringLiteral("builtin:auto") });
    QVERIFY2(activated.exitCode == 0, activated.err.constData());

    // The state directory is readable inside (the default policy reads "/"): only the
    // engine's denial keeps the authority out of reach. This run also leaves a recorded plan
    // made while there was no authority, which must not serve the runs after it.
    QFile beside(m_root->filePath(QStringLiteral("state/beside.txt")));
    QVERIFY(beside.open(QIODevice::WriteOnly));
    beside.write("readable\n");
    beside.close();
    const Outcome control
        = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/cat"), beside.fileName() });
    QVERIFY2(control.exitCode == 0 && control.out == "readable\n", control.err.constData());

    const Outcome rotated = ctl({ QStringLiteral("credential"), QStringLiteral("rotate-authority") });
    QVERIFY2(rotated.exitCode == 0, rotated.err.constData());
    QVERIFY(rotated.out.startsWith("-----BEGIN CERTIFICATE-----"));
    QVERIFY(!rotated.out.contains("PRIVATE KEY"));
    const QString directory = m_root->filePath(QStringLiteral("state/credential-ca"));
    QFile key(directory + QStringLiteral("/ca-key.pem"));
    QVERIFY(key.open(QIODevice::ReadOnly));
    QVERIFY(key.readAll().contains("PRIVATE KEY"));
    QCOMPARE(key.permissions() & ~(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadUser | QFile::WriteUser),
             QFile::Permissions());
    QList<QStringList> attempts{ { QStringLiteral("/bin/cat"), key.fileName() },
                                 { QStringLiteral("/bin/cat"), directory + QStringLiteral("/ca.pem") },
                                 { QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                                   QStringLiteral("cat %1/../credential-ca/ca-key.pem").arg(directory) },
                                 { QStringLiteral("/bin/cp"), key.fileName(), QStringLiteral("stolen.pem") } };
    // Tier 1 masks the directory; tier 2 (Landlock) leaves the names in a denied directory
    // listable, as for every denied path, but none of their contents.
    if (tier == QLatin1String("strongest"))
        attempts.append({ QStringLiteral("/bin/ls"), QStringLiteral("-a"), directory });
    for (const QStringList &attempt : std::as_const(attempts)) {
        const Outcome run = ctl(QStringList{ QStringLiteral("run"), QStringLiteral("--") } + attempt);
        QVERIFY2(run.exitCode != 0, qPrintable(attempt.join(QLatin1Char(' '))));
        QVERIFY2(!run.out.contains("PRIVATE KEY") && !run.out.contains("ca-key"), run.out.constData());
    }
    QVERIFY(!QFile::exists(m_root->filePath(QStringLiteral("work/stolen.pem"))));
}

QTEST_GUILESS_MAIN(TestCredentialCli)
#include "tst_credentialcli.moc"
