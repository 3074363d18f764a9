#include "DaemonFixture.h"

#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QTest>

#include <algorithm>
#include <csignal>

namespace sandbox::test {

DaemonFixture::DaemonFixture(const QString &packPath)
    : m_packPath(packPath)
{ }

void DaemonFixture::setUp()
{
    QVERIFY(m_rig.create(QStringLiteral("/var/tmp/daemon-XXXXXX")));
    m_rig.setCtlEnvironment(environment(QStringLiteral("d")));
}

void DaemonFixture::tearDown()
{
    m_rig.destroy();
}

QProcessEnvironment DaemonFixture::environment(const QString &name) const
{
    return m_rig.environment(name, m_packPath);
}

void DaemonFixture::startDaemon()
{
    m_rig.clearLog();
    m_rig.start(environment(QStringLiteral("d")));
}

Outcome DaemonFixture::ctl(const QStringList &args, const QByteArray &input, const QString &profile, int timeoutMs)
{
    QStringList all{ QStringLiteral("--socket"),
                     profile == QLatin1String("d") ? m_rig.socket()
                                                   : m_rig.filePath(profile + QStringLiteral("/engine.sock")) };
    all += args;
    return runProgram(binary(QStringLiteral("sandboxctl")), all, m_rig.workspace(), input, timeoutMs,
                      environment(profile));
}

std::unique_ptr<QProcess> DaemonFixture::startCtl(const QStringList &args, const QString &program)
{
    return m_rig.startCtl(args, program);
}

QJsonArray DaemonFixture::processes()
{
    const Outcome ps = ctl({ QStringLiteral("ps"), QStringLiteral("--json") });
    return QJsonDocument::fromJson(ps.out).array();
}

QString DaemonFixture::policyWithNetwork(const QString &name, const QJsonObject &network)
{
    QJsonObject policy = QJsonDocument::fromJson(
                             ctl({ QStringLiteral("policy"), QStringLiteral("show"), QStringLiteral("--json") }).out)
                             .object();
    policy.insert(QStringLiteral("network"), network);
    const QString path = m_rig.filePath(QStringLiteral("work/") + name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write(QJsonDocument(policy).toJson());
    return path;
}

void DaemonFixture::programRows()
{
    QTest::addColumn<QString>("program");
    QTest::newRow("run front") << QStringLiteral("sandboxctl");
    QTest::newRow("full program") << QStringLiteral("sandboxctl-full");
}

void killHard(const QProcess &process)
{
    if (process.processId() > 0)
        ::kill(pid_t(process.processId()), SIGKILL);
}

bool pidAlive(qint64 pid)
{
    return pid > 0 && ::kill(pid_t(pid), 0) == 0;
}

bool everyPidKnown(const QJsonArray &list)
{
    return std::all_of(list.begin(), list.end(),
                       [](const QJsonValue &p) { return p.toObject().value(QStringLiteral("pid")).toInteger() > 0; });
}

} // namespace sandbox::test
