// engine/launchers/auto/linux/handoff/InitConfigFormat: sandbox-init's configuration, written
// and read by the one definition of its format. What is written is read back field for field,
// what the reader accepts is written back byte for byte, and the keys on the wire are pinned
// (a recorded plan and a running sandbox-init of the previous build must understand them).

#include "launchers/auto/linux/handoff/InitConfigFormat.h"

#include <QTest>

#include <string>

using namespace sandbox::init;

class TestInitConfigFormat final : public QObject
{
    Q_OBJECT

private slots:
    void everyFieldRoundTrips();
    void smallestConfigurationIsPinned();
    void readConfigurationIsWrittenBackUnchanged();
    void parserRejectsWhatItCannotRead_data();
    void parserRejectsWhatItCannotRead();
};

namespace {

std::string records(std::initializer_list<std::string_view> tokens)
{
    std::string out;
    for (const std::string_view token : tokens)
        out.append(token).push_back('\0');
    return out;
}

InitConfig everyField()
{
    InitConfig config;
    config.tier = 1;
    config.argv = { "/bin/sh", "-c", "echo 'two words' \x01" };
    config.env = { "PATH=/usr/bin:/bin", "EMPTY=", "A==b" };
    config.cwd = "/work/space with blanks";
    config.hostname = "box";
    config.network = InitConfig::Network::Allowlist;
    config.proxySocket = "/run/user/1000/proxy.sock";
    config.proxyPort = 3128;
    config.landlockConnectPorts = { 3128, 8080 };
    config.mounts = { { MountOp::Kind::BindReadOnly, "/usr", "/usr" },
                      { MountOp::Kind::BindWritable, "/work", "/work" },
                      { MountOp::Kind::Tmpfs, "", "/tmp" },
                      { MountOp::Kind::Mask, "", "/home/u/.ssh" } };
    config.symlinks = { { "usr/bin", "/bin" } };
    config.landlockReadable = { "/usr", "/etc" };
    config.landlockWritable = { "/work" };
    config.landlockDirectories = { "/home/u" };
    config.landlockDevices = { "/dev/null", "/dev/pts" };
    config.agentSocket = "/run/user/1000/agent.sock";
    config.superviseConnect = true;
    config.exposeHostExecution = true;
    config.terminalRows = 40;
    config.terminalColumns = 132;
    config.rlimits = { { "core", 0 }, { "nofile", 1024 } };
    config.guardRepositories = { "/work" };
    config.guardReadOnly = { "/work/.git/hooks" };
    config.guardDenied = { "/work/secret" };
    return config;
}

} // namespace

void TestInitConfigFormat::everyFieldRoundTrips()
{
    const InitConfig written = everyField();
    InitConfig read;
    std::string error;
    QVERIFY2(parseConfig(writeConfig(written), read, error), error.c_str());
    QCOMPARE(read.argv, written.argv);
    QCOMPARE(read.mounts.size(), written.mounts.size());
    QCOMPARE(read.symlinks, written.symlinks);
    QCOMPARE(read.rlimits, written.rlimits);
    QVERIFY(read == written);

    // The other network modes and unix socket modes, each read back as written.
    for (const InitConfig::Network network : { InitConfig::Network::None, InitConfig::Network::Full }) {
        for (const bool deny : { false, true }) {
            InitConfig other = everyField();
            other.network = network;
            other.denyUnixSockets = deny;
            other.superviseConnect = false;
            InitConfig back;
            QVERIFY2(parseConfig(writeConfig(other), back, error), error.c_str());
            QVERIFY(back == other);
        }
    }
}

void TestInitConfigFormat::smallestConfigurationIsPinned()
{
    InitConfig config;
    config.tier = 2;
    config.argv = { "true" };
    config.cwd = "/";
    config.rlimits = { { "core", 0 } };
    const std::string expected = records({ "version", "1", "tier", "2", "arg", "true", "cwd", "/", "net", "none",
                                           "unix", "allow", "hostexec", "deny", "rlimit", "core", "0" });
    QCOMPARE(writeConfig(config), expected);

    std::string appended;
    appendRecord(appended, key::kTerminal, { "24", "80" });
    QCOMPARE(appended, records({ "terminal", "24", "80" }));
}

void TestInitConfigFormat::readConfigurationIsWrittenBackUnchanged()
{
    // In the writer's order, as the engine's SandboxPlan writes it for tier 1 with a proxy.
    const std::string configuration = records({ "version",   "1",
                                                "tier",      "1",
                                                "arg",       "curl",
                                                "arg",       "https://example.org",
                                                "env",       "HOME=/home/u",
                                                "cwd",       "/work",
                                                "net",       "allowlist",
                                                "proxy",     "/run/p.sock",
                                                "proxyport", "3128",
                                                "llconnect", "3128",
                                                "mount",     "ro",
                                                "/usr",      "/usr",
                                                "mount",     "tmpfs",
                                                "",          "/tmp",
                                                "symlink",   "usr/lib",
                                                "/lib",      "llro",
                                                "/usr",      "lldir",
                                                "/home",     "llrw",
                                                "/work",     "lldev",
                                                "/dev/null", "unix",
                                                "deny",      "hostexec",
                                                "deny",      "rlimit",
                                                "core",      "0",
                                                "guardgit",  "/work",
                                                "guardro",   "/work/.git/config",
                                                "guarddeny", "/work/.env",
                                                "terminal",  "24",
                                                "80" });
    InitConfig config;
    std::string error;
    QVERIFY2(parseConfig(configuration, config, error), error.c_str());
    QCOMPARE(writeConfig(config), configuration);
}

void TestInitConfigFormat::parserRejectsWhatItCannotRead_data()
{
    QTest::addColumn<QByteArray>("configuration");
    QTest::addColumn<QString>("error");
    const std::string base = records({ "version", "1", "tier", "1", "arg", "true", "cwd", "/" });
    auto row = [&base](const char *name, const std::string &extra, const char *error) {
        const std::string all = base + extra;
        QTest::newRow(name) << QByteArray(all.data(), qsizetype(all.size())) << QString::fromLatin1(error);
    };
    row("unknown key", records({ "bogus", "x" }), "configuration: unknown record 'bogus'");
    row("truncated", records({ "mount", "ro", "/usr" }), "configuration: record 'mount' is truncated");
    row("unterminated", std::string("net"), "configuration: unterminated field at byte 32");
    row("bad mount kind", records({ "mount", "rx", "/a", "/a" }), "configuration: bad mount kind 'rx'");
    row("bad network", records({ "net", "some" }), "configuration: bad network mode 'some'");
    row("allowlist without proxy", records({ "net", "allowlist" }),
        "configuration: allowlist network without a proxy socket");
    const std::string noVersion = records({ "tier", "1", "arg", "true", "cwd", "/" });
    QTest::newRow("no version") << QByteArray(noVersion.data(), qsizetype(noVersion.size()))
                                << QStringLiteral("configuration: no version record");
}

void TestInitConfigFormat::parserRejectsWhatItCannotRead()
{
    QFETCH(QByteArray, configuration);
    QFETCH(QString, error);
    InitConfig config;
    std::string message;
    QVERIFY(!parseConfig(configuration.toStdString(), config, message));
    QCOMPARE(QString::fromStdString(message), error);
}

QTEST_GUILESS_MAIN(TestInitConfigFormat)
#include "tst_initconfigformat.moc"
