#include "TlsFrontRig.h"

#include <QFile>
#include <QStandardPaths>
#include <QTcpServer>

namespace sandbox::test {

TlsFrontRig::TlsFrontRig()
    : m_dir(QStringLiteral("/tmp/tlsfront-XXXXXX"))
{ }

TlsFrontRig::~TlsFrontRig()
{
    if (m_stunnel.state() != QProcess::NotRunning) {
        m_stunnel.terminate();
        m_stunnel.waitForFinished(10000);
    }
}

void TlsFrontRig::stop()
{
    m_stunnel.kill();
    m_stunnel.waitForFinished(10000);
}

QByteArray TlsFrontRig::log()
{
    m_log += m_stunnel.readAll();
    return m_log;
}

QString TlsFrontRig::openssl(const QStringList &args) const
{
    QProcess tool;
    tool.setWorkingDirectory(m_dir.path());
    tool.setProcessChannelMode(QProcess::MergedChannels);
    tool.start(QStringLiteral("openssl"), args);
    if (!tool.waitForFinished(60000) || tool.exitStatus() != QProcess::NormalExit || tool.exitCode() != 0)
        return QStringLiteral("openssl %1 failed: %2")
            .arg(args.join(QLatin1Char(' ')), QString::fromLocal8Bit(tool.readAll()));
    return {};
}

QString TlsFrontRig::authority(const QString &name) const
{
    return openssl({ QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("ec"),
                     QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:P-256"), QStringLiteral("-nodes"),
                     QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-subj"),
                     QStringLiteral("/CN=%1").arg(name), QStringLiteral("-keyout"), name + QStringLiteral("-key.pem"),
                     QStringLiteral("-out"), name + QStringLiteral(".pem"), QStringLiteral("-addext"),
                     QStringLiteral("basicConstraints=critical,CA:TRUE"), QStringLiteral("-addext"),
                     QStringLiteral("keyUsage=critical,keyCertSign,cRLSign") });
}

QString TlsFrontRig::certificate(const QString &name, const QString &ca, const QString &subjectAltName, bool server,
                                 const QString &keyOf) const
{
    QStringList request{ QStringLiteral("req"),   QStringLiteral("-new"),
                         QStringLiteral("-subj"), QStringLiteral("/CN=%1").arg(name),
                         QStringLiteral("-out"),  name + QStringLiteral(".csr") };
    if (keyOf.isEmpty())
        request << QStringLiteral("-newkey") << QStringLiteral("ec") << QStringLiteral("-pkeyopt")
                << QStringLiteral("ec_paramgen_curve:P-256") << QStringLiteral("-nodes") << QStringLiteral("-keyout")
                << name + QStringLiteral("-key.pem");
    else
        request << QStringLiteral("-key") << keyOf + QStringLiteral("-key.pem");
    if (const QString made = openssl(request); !made.isEmpty())
        return made;
    QString extensions = QStringLiteral("basicConstraints=CA:FALSE\nextendedKeyUsage=%1\n")
                             .arg(server ? QStringLiteral("serverAuth") : QStringLiteral("clientAuth"));
    if (!subjectAltName.isEmpty())
        extensions += QStringLiteral("subjectAltName=%1\n").arg(subjectAltName);
    QFile file(path(name + QStringLiteral(".ext")));
    if (!file.open(QIODevice::WriteOnly) || file.write(extensions.toUtf8()) < 0)
        return QStringLiteral("cannot write %1").arg(file.fileName());
    file.close();
    return openssl({ QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"),
                     name + QStringLiteral(".csr"), QStringLiteral("-CA"), ca + QStringLiteral(".pem"),
                     QStringLiteral("-CAkey"), ca + QStringLiteral("-key.pem"), QStringLiteral("-CAcreateserial"),
                     QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-extfile"),
                     name + QStringLiteral(".ext"), QStringLiteral("-out"), name + QStringLiteral(".pem") });
}

QString TlsFrontRig::start(const QString &engineSocket)
{
    const QString stunnel = QStandardPaths::findExecutable(QStringLiteral("stunnel4")).isEmpty()
        ? QStandardPaths::findExecutable(QStringLiteral("stunnel"))
        : QStandardPaths::findExecutable(QStringLiteral("stunnel4"));
    if (stunnel.isEmpty())
        return QStringLiteral("stunnel is missing: run installer/install-deps.sh test (stunnel4)");
    if (QStandardPaths::findExecutable(QStringLiteral("openssl")).isEmpty())
        return QStringLiteral("openssl is missing: run installer/install-deps.sh test (openssl)");
    if (!m_dir.isValid())
        return QStringLiteral("cannot make a temporary folder: %1").arg(m_dir.errorString());
    for (const QString &name : { QStringLiteral("ca"), QStringLiteral("stranger-ca") }) {
        if (const QString made = authority(name); !made.isEmpty())
            return made;
    }
    const struct
    {
        const char *name;
        const char *ca;
        const char *subjectAltName;
        bool server;
        const char *keyOf;
    } certificates[] = {
        { "server", "ca", "IP:127.0.0.1,DNS:localhost", true, "" },
        { "misnamed", "ca", "DNS:elsewhere.test", true, "" },
        { "client", "ca", "", false, "" },
        { "stranger", "stranger-ca", "", false, "client" },
    };
    for (const auto &made : certificates) {
        if (const QString problem
            = certificate(QString::fromLatin1(made.name), QString::fromLatin1(made.ca),
                          QString::fromLatin1(made.subjectAltName), made.server, QString::fromLatin1(made.keyOf));
            !problem.isEmpty())
            return problem;
    }

    // stunnel binds its ports itself, so it gets ones found free a moment before; a test
    // running beside this one can take one meanwhile, and then it is given others.
    m_stunnel.setProcessChannelMode(QProcess::MergedChannels);
    for (int attempt = 0; attempt < 5; ++attempt) {
        {
            QTcpServer first;
            QTcpServer second;
            if (!first.listen(QHostAddress::LocalHost, 0) || !second.listen(QHostAddress::LocalHost, 0))
                return QStringLiteral("no free loopback port");
            m_port = first.serverPort();
            m_misnamedPort = second.serverPort();
        }
        // Notices (its readiness among them) for the front as a whole, only errors for each
        // connection: nothing reads its output while a test runs, and a full pipe would stop it.
        QString config = QStringLiteral("foreground = yes\npid =\ndebug = 5\n");
        const auto service = [&](const QString &name, quint16 port, const QString &certificate) {
            config += QStringLiteral("[%1]\naccept = 127.0.0.1:%2\nconnect = %3\ncert = %4\nkey = %5\n"
                                     "CAfile = %6\nverifyChain = yes\nrequireCert = yes\ndebug = 3\n")
                          .arg(name)
                          .arg(port)
                          .arg(engineSocket, path(certificate + QStringLiteral(".pem")),
                               path(certificate + QStringLiteral("-key.pem")), path(QStringLiteral("ca.pem")));
        };
        service(QStringLiteral("engine"), m_port, QStringLiteral("server"));
        service(QStringLiteral("misnamed"), m_misnamedPort, QStringLiteral("misnamed"));
        QFile file(path(QStringLiteral("stunnel.conf")));
        if (!file.open(QIODevice::WriteOnly) || file.write(config.toUtf8()) < 0)
            return QStringLiteral("cannot write stunnel.conf");
        file.close();
        m_stunnel.start(stunnel, { path(QStringLiteral("stunnel.conf")) });
        if (!m_stunnel.waitForStarted(10000))
            return QStringLiteral("stunnel did not start: %1").arg(m_stunnel.errorString());
        m_log.clear();
        while (!m_log.contains("Configuration successful") && m_stunnel.waitForReadyRead(10000))
            m_log += m_stunnel.readAll();
        if (m_log.contains("Configuration successful"))
            return {};
        m_stunnel.kill();
        m_stunnel.waitForFinished(10000);
        m_log += m_stunnel.readAll();
        if (!m_log.contains("Address already in use"))
            return QStringLiteral("stunnel did not start listening: %1").arg(QString::fromLocal8Bit(m_log));
    }
    return QStringLiteral("stunnel found no free port: %1").arg(QString::fromLocal8Bit(m_log));
}

} // namespace sandbox::test
