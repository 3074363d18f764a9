// The filtering SSH agent against the real OpenSSH tools: Debian's ssh-agent holding two
// keys (one listed, one not), ssh-add and ssh-keygen talking to the filter's socket as a
// sandboxed command would. Only the listed key is seen and signs (and the signature
// verifies); key management is refused and reported; confirmations are asked when the
// policy says so and a denial fails the signature. Hostile clients speak the protocol by
// hand: signing with a key they know but may not use, unknown extensions, oversized frames.
#include "OpenSshRig.h"
#include "net/SshAgentFilter.h"
#include "net/SshAgentMessage.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLocalSocket>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

#include <memory>
#include <sys/stat.h>
#include <vector>

using namespace sandbox;
using sandbox::test::OpenSshRig;
using Run = OpenSshRig::Run;

namespace {

struct Reported
{
    QString fingerprint;
    QString what;
};

// A hand-made client of the agent protocol: one request, one answer (or the end of the
// connection), waiting on the socket's signals so the filter, on this thread, can work.
class RawClient final
{
public:
    explicit RawClient(const QString &path) { m_socket.connectToServer(path); }

    bool connected() const { return m_socket.state() == QLocalSocket::ConnectedState; }

    void send(const QByteArray &bytes)
    {
        m_socket.write(bytes);
        m_socket.flush();
    }

    // The next message, or nothing when the connection ends first (or 10 s pass).
    std::optional<QByteArray> receive()
    {
        for (int round = 0; round < 100; ++round) {
            m_reader.append(m_socket.readAll());
            if (std::optional<QByteArray> message = m_reader.next())
                return message;
            if (m_socket.state() != QLocalSocket::ConnectedState)
                return std::nullopt;
            QSignalSpy data(&m_socket, &QLocalSocket::readyRead);
            QSignalSpy gone(&m_socket, &QLocalSocket::disconnected);
            if (!data.wait(100) && gone.count() > 0)
                return std::nullopt;
        }
        return std::nullopt;
    }

    std::optional<QByteArray> request(const QByteArray &message)
    {
        send(sshagent::frame(message));
        return receive();
    }

private:
    QLocalSocket m_socket;
    sshagent::FrameReader m_reader;
};

QByteArray sshString(const QByteArray &value)
{
    QByteArray out(4, '\0');
    qToBigEndian(quint32(value.size()), out.data());
    return out + value;
}

QByteArray signRequest(const QByteArray &keyBlob, const QByteArray &data)
{
    return QByteArray(1, char(sshagent::SignRequest)) + sshString(keyBlob) + sshString(data) + QByteArray(4, '\0');
}

} // namespace

class TestSshAgentFilter final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void fingerprintIsOpenSshs();
    void listsOnlyTheListedKey();
    void signsOnlyWithTheListedKey();
    void handMadeSignatureWithAnUnlistedKeyIsRefused();
    void keyManagementIsRefusedAndReported();
    void extensionsOtherThanSessionBindAreRefused();
    void oversizedAndMalformedMessagesEndTheConnection();
    void pipelinedRequestsAreAnsweredInOrder();
    void connectionsAreBounded();
    void confirmAlwaysAsksForEverySignature();
    void confirmFirstUseAsksOncePerKey();
    void confirmationWithoutHandlerIsRefused();
    void socketIsItsOwnNotTheUsersAgent();
    void missingUserAgentFailsRequests();

private:
    Run run(const QString &program, const QStringList &args, const QString &authSocket,
            const QMap<QString, QString> &extra = {})
    {
        return m_rig.run(program, args, authSocket, extra);
    }
    Run sign(const QString &publicKey, const QString &authSocket);
    bool verifies(const QString &publicKey);
    std::unique_ptr<SshAgentFilter> makeFilter(PolicySshAgent::Confirm confirm);

    OpenSshRig m_rig;
    QString m_agentSocket;
    QString m_listed; // public key files; the private keys live only in the agent
    QString m_unlisted;
    QString m_listedFingerprint;
    QString m_unlistedFingerprint;
    QString m_filterSocket;
    QString m_data;
    std::unique_ptr<SshAgentFilter> m_filter;
    QList<Reported> m_refusals;
};

Run TestSshAgentFilter::sign(const QString &publicKey, const QString &authSocket)
{
    QFile::remove(m_data + QStringLiteral(".sig"));
    return run(QStringLiteral("ssh-keygen"),
               { QStringLiteral("-Y"), QStringLiteral("sign"), QStringLiteral("-f"), publicKey, QStringLiteral("-n"),
                 QStringLiteral("file"), m_data },
               authSocket);
}

bool TestSshAgentFilter::verifies(const QString &publicKey)
{
    return m_rig.verifySignature(publicKey, m_data, m_data + QStringLiteral(".sig")).isEmpty();
}

std::unique_ptr<SshAgentFilter> TestSshAgentFilter::makeFilter(PolicySshAgent::Confirm confirm)
{
    PolicySshAgent policy;
    policy.keys = { m_listedFingerprint };
    policy.confirm = confirm;
    auto filter = std::make_unique<SshAgentFilter>(policy, m_agentSocket);
    filter->setRefusalListener([this](const QString &fingerprint, const QString &what) {
        m_refusals.append(Reported{ fingerprint, what });
    });
    return filter;
}

void TestSshAgentFilter::initTestCase()
{
    const QString problem = m_rig.start();
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    m_agentSocket = m_rig.agentSocket();
    m_listed = m_rig.listedKey();
    m_unlisted = m_rig.unlistedKey();
    m_listedFingerprint = m_rig.listedFingerprint();
    m_unlistedFingerprint = m_rig.unlistedFingerprint();
    m_filterSocket = m_rig.path(QStringLiteral("filter/agent.sock"));
    m_data = m_rig.path(QStringLiteral("data.txt"));
    QVERIFY(OpenSshRig::writeFile(m_data, "a commit to sign\n"));
}

void TestSshAgentFilter::init()
{
    m_refusals.clear();
    m_filter = makeFilter(PolicySshAgent::Confirm::Never);
    const Status listening = m_filter->listen(m_filterSocket);
    QVERIFY2(listening.ok(), qPrintable(listening.ok() ? QString() : listening.error().toString()));
}

void TestSshAgentFilter::cleanup()
{
    m_filter.reset();
    // Whatever a test did through the filter, the user's agent still holds both keys, unlocked.
    QCOMPARE(m_rig.fingerprintsListedAt(m_agentSocket).size(), 2);
}

void TestSshAgentFilter::fingerprintIsOpenSshs()
{
    QCOMPARE(sshagent::fingerprint(m_rig.keyBlobOf(m_listed)), m_listedFingerprint);
    QCOMPARE(sshagent::fingerprint(m_rig.keyBlobOf(m_unlisted)), m_unlistedFingerprint);
    QVERIFY(PolicySshAgent::fingerprintProblem(m_listedFingerprint).isEmpty());
    QCOMPARE(sshagent::keyType(m_rig.keyBlobOf(m_listed)), QStringLiteral("ssh-ed25519"));
}

void TestSshAgentFilter::listsOnlyTheListedKey()
{
    QCOMPARE(m_rig.fingerprintsListedAt(m_filterSocket), QStringList{ m_listedFingerprint });
    const Run listed = run(QStringLiteral("ssh-add"), { QStringLiteral("-L") }, m_filterSocket);
    QCOMPARE(listed.exitCode, 0);
    QCOMPARE(listed.out.trimmed(), OpenSshRig::readAll(m_listed).trimmed());
    // Listing is not a refusal: nothing is reported.
    QCOMPARE(m_refusals.size(), 0);
}

void TestSshAgentFilter::signsOnlyWithTheListedKey()
{
    const Run signedListed = sign(m_listed, m_filterSocket);
    QVERIFY2(signedListed.exitCode == 0, signedListed.err.constData());
    QVERIFY(verifies(m_listed));

    const Run signedUnlisted = sign(m_unlisted, m_filterSocket);
    QVERIFY(signedUnlisted.exitCode != 0);
    QVERIFY(!QFile::exists(m_data + QStringLiteral(".sig")));
    // The same command against the user's agent itself signs: only the filter stood in the way.
    QVERIFY(sign(m_unlisted, m_agentSocket).exitCode == 0);
    QVERIFY(verifies(m_unlisted));
}

void TestSshAgentFilter::handMadeSignatureWithAnUnlistedKeyIsRefused()
{
    // A command that knows the unlisted public key asks for a signature without listing first.
    RawClient client(m_filterSocket);
    const std::optional<QByteArray> refused = client.request(signRequest(m_rig.keyBlobOf(m_unlisted), "data"));
    QVERIFY(refused);
    QCOMPARE(*refused, sshagent::failureMessage());
    QCOMPARE(m_refusals.size(), 1);
    QCOMPARE(m_refusals.first().fingerprint, m_unlistedFingerprint);
    QVERIFY2(m_refusals.first().what.contains(QStringLiteral("does not list")), qPrintable(m_refusals.first().what));

    // On the same connection the listed key signs.
    const std::optional<QByteArray> signature = client.request(signRequest(m_rig.keyBlobOf(m_listed), "data"));
    QVERIFY(signature);
    QCOMPARE(quint8(signature->at(0)), quint8(sshagent::SignResponse));
    QCOMPARE(m_refusals.size(), 1);
}

void TestSshAgentFilter::keyManagementIsRefusedAndReported()
{
    const QString askpass = m_rig.path(QStringLiteral("askpass.sh"));
    QVERIFY(OpenSshRig::writeFile(askpass, "#!/bin/sh\necho lock-password\n",
                                  QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
    const QMap<QString, QString> askpassEnv{ { QStringLiteral("SSH_ASKPASS"), askpass },
                                             { QStringLiteral("SSH_ASKPASS_REQUIRE"), QStringLiteral("force") } };
    auto refusedWith = [this](const QString &words) {
        for (const Reported &reported : std::as_const(m_refusals)) {
            if (reported.what == words)
                return true;
        }
        return false;
    };

    const Run removeAll = run(QStringLiteral("ssh-add"), { QStringLiteral("-D") }, m_filterSocket);
    QVERIFY(removeAll.exitCode != 0);
    QVERIFY(refusedWith(QStringLiteral("remove every key")));

    const Run lock = run(QStringLiteral("ssh-add"), { QStringLiteral("-x") }, m_filterSocket, askpassEnv);
    QVERIFY2(lock.exitCode != 0, lock.err.constData());
    QVERIFY(refusedWith(QStringLiteral("lock the agent")));
    const Run unlock = run(QStringLiteral("ssh-add"), { QStringLiteral("-X") }, m_filterSocket, askpassEnv);
    QVERIFY(unlock.exitCode != 0);
    QVERIFY(refusedWith(QStringLiteral("unlock the agent")));

    const Run remove = run(QStringLiteral("ssh-add"), { QStringLiteral("-d"), m_listed }, m_filterSocket);
    QVERIFY(remove.exitCode != 0);
    QVERIFY(refusedWith(QStringLiteral("remove a key")));
    bool namedTheKey = false;
    for (const Reported &reported : std::as_const(m_refusals))
        namedTheKey = namedTheKey
            || (reported.what == QStringLiteral("remove a key") && reported.fingerprint == m_listedFingerprint);
    QVERIFY(namedTheKey);

    // A key of the command's own is not added to the user's agent.
    const QString own = m_rig.path(QStringLiteral("own"));
    QCOMPARE(m_rig.generateKey(own, QStringLiteral("own@test")), QString());
    const Run add = run(QStringLiteral("ssh-add"), { own }, m_filterSocket);
    QVERIFY(add.exitCode != 0);
    QVERIFY(refusedWith(QStringLiteral("add a key")));
    QVERIFY(!m_rig.fingerprintsListedAt(m_agentSocket).contains(m_rig.fingerprintOf(own + QStringLiteral(".pub"))));
    QFile::remove(own);
    QFile::remove(own + QStringLiteral(".pub"));
    // cleanup() checks that the user's agent still holds both keys, unlocked.
}

void TestSshAgentFilter::extensionsOtherThanSessionBindAreRefused()
{
    RawClient client(m_filterSocket);
    const QByteArray query = QByteArray(1, char(sshagent::Extension)) + sshString("query");
    QCOMPARE(client.request(query), std::optional<QByteArray>(sshagent::failureMessage()));
    QCOMPARE(m_refusals.size(), 1);
    QVERIFY(m_refusals.first().what.contains(QStringLiteral("\"query\"")));

    // session-bind is passed on: the user's agent judges it (this one is not a valid binding),
    // and the filter refuses nothing.
    const QByteArray bind = QByteArray(1, char(sshagent::Extension)) + sshString("session-bind@openssh.com")
        + sshString("not a host key") + sshString("id") + sshString("sig") + QByteArray(1, '\0');
    const std::optional<QByteArray> answer = client.request(bind);
    QVERIFY(answer);
    QVERIFY(quint8(answer->at(0)) == sshagent::Failure || quint8(answer->at(0)) == sshagent::ExtensionFailure);
    QCOMPARE(m_refusals.size(), 1);
}

void TestSshAgentFilter::oversizedAndMalformedMessagesEndTheConnection()
{
    {
        RawClient client(m_filterSocket);
        QByteArray header(4, '\0');
        qToBigEndian(quint32(sshagent::kMaxMessageBytes + 1), header.data());
        client.send(header + QByteArray(1, char(sshagent::SignRequest)));
        QCOMPARE(client.receive(), std::nullopt);
        QCOMPARE(m_refusals.size(), 1);
        QVERIFY(m_refusals.first().what.contains(QStringLiteral("more than the")));
    }
    {
        RawClient client(m_filterSocket);
        client.send(QByteArray(4, '\0'));
        QCOMPARE(client.receive(), std::nullopt);
        QCOMPARE(m_refusals.size(), 2);
    }
    {
        // A signature request cut short is refused; the connection goes on.
        RawClient client(m_filterSocket);
        QCOMPARE(client.request(QByteArray(1, char(sshagent::SignRequest)) + sshString("x")),
                 std::optional<QByteArray>(sshagent::failureMessage()));
        QCOMPARE(m_refusals.size(), 3);
        QVERIFY(m_refusals.last().what.contains(QStringLiteral("malformed")));
        const std::optional<QByteArray> identities = client.request(QByteArray(1, char(sshagent::RequestIdentities)));
        QVERIFY(identities && quint8(identities->at(0)) == sshagent::IdentitiesAnswer);
    }
    // The filter still serves everyone else.
    QCOMPARE(m_rig.fingerprintsListedAt(m_filterSocket), QStringList{ m_listedFingerprint });
}

void TestSshAgentFilter::pipelinedRequestsAreAnsweredInOrder()
{
    // Three requests in one write, one of them refused: three answers, in the order asked.
    RawClient client(m_filterSocket);
    client.send(sshagent::frame(QByteArray(1, char(sshagent::RequestIdentities)))
                + sshagent::frame(QByteArray(1, char(sshagent::RemoveAllIdentities)))
                + sshagent::frame(signRequest(m_rig.keyBlobOf(m_listed), "pipelined")));
    const std::optional<QByteArray> first = client.receive();
    const std::optional<QByteArray> second = client.receive();
    const std::optional<QByteArray> third = client.receive();
    QVERIFY(first && second && third);
    QCOMPARE(quint8(first->at(0)), quint8(sshagent::IdentitiesAnswer));
    QCOMPARE(*second, sshagent::failureMessage());
    QCOMPARE(quint8(third->at(0)), quint8(sshagent::SignResponse));
    QCOMPARE(m_refusals.size(), 1);
    QCOMPARE(m_refusals.first().what, QStringLiteral("remove every key"));
}

void TestSshAgentFilter::connectionsAreBounded()
{
    // Each connection would hold one to the user's agent: a command cannot open them without end.
    std::vector<std::unique_ptr<RawClient>> clients;
    for (int i = 0; i < SshAgentFilter::kMaxConnections; ++i)
        clients.push_back(std::make_unique<RawClient>(m_filterSocket));
    QTRY_COMPARE(m_filter->connectionCount(), SshAgentFilter::kMaxConnections);
    RawClient extra(m_filterSocket);
    QCOMPARE(extra.request(QByteArray(1, char(sshagent::RequestIdentities))), std::nullopt);
    QCOMPARE(m_refusals.size(), 1);
    QVERIFY2(m_refusals.first().what.contains(QStringLiteral("connections at once")),
             qPrintable(m_refusals.first().what));
    // The ones served still are, and once they go, new ones are served again.
    const std::optional<QByteArray> answer = clients.front()->request(QByteArray(1, char(sshagent::RequestIdentities)));
    QVERIFY(answer && quint8(answer->at(0)) == sshagent::IdentitiesAnswer);
    clients.clear();
    QTRY_COMPARE(m_filter->connectionCount(), 0);
    QCOMPARE(m_rig.fingerprintsListedAt(m_filterSocket), QStringList{ m_listedFingerprint });
}

void TestSshAgentFilter::confirmAlwaysAsksForEverySignature()
{
    m_filter = makeFilter(PolicySshAgent::Confirm::Always);
    QVERIFY(m_filter->listen(m_filterSocket).ok());
    QList<SshAgentConfirmation> asked;
    QList<bool> answers{ true, false, true };
    m_filter->setConfirmHandler([&](const SshAgentConfirmation &request, std::function<void(bool)> answer) {
        asked.append(request);
        // Answered later, from the event loop, as a dialog would.
        QMetaObject::invokeMethod(
            this, [answer, allowed = answers.takeFirst()] { answer(allowed); }, Qt::QueuedConnection);
    });

    QCOMPARE(sign(m_listed, m_filterSocket).exitCode, 0);
    QVERIFY(verifies(m_listed));
    QCOMPARE(asked.size(), 1);
    QCOMPARE(asked.first().fingerprint, m_listedFingerprint);
    QCOMPARE(asked.first().keyType, QStringLiteral("ssh-ed25519"));
    QCOMPARE(asked.first().comment, QStringLiteral("listed@test"));

    const Run denied = sign(m_listed, m_filterSocket);
    QVERIFY(denied.exitCode != 0);
    QVERIFY(!QFile::exists(m_data + QStringLiteral(".sig")));
    QCOMPARE(asked.size(), 2);
    QCOMPARE(m_refusals.size(), 1);
    QCOMPARE(m_refusals.first().fingerprint, m_listedFingerprint);
    QVERIFY2(m_refusals.first().what.contains(QStringLiteral("refused the signature")),
             qPrintable(m_refusals.first().what));

    QCOMPARE(sign(m_listed, m_filterSocket).exitCode, 0);
    QCOMPARE(asked.size(), 3);
    // An unlisted key is refused without asking.
    QVERIFY(sign(m_unlisted, m_filterSocket).exitCode != 0);
    QCOMPARE(asked.size(), 3);
}

void TestSshAgentFilter::confirmFirstUseAsksOncePerKey()
{
    m_filter = makeFilter(PolicySshAgent::Confirm::FirstUse);
    QVERIFY(m_filter->listen(m_filterSocket).ok());
    int asked = 0;
    std::function<void(bool)> pending;
    m_filter->setConfirmHandler([&](const SshAgentConfirmation &, std::function<void(bool)> answer) {
        ++asked;
        pending = std::move(answer);
    });

    // Denied the first time: refused, and asked again next time.
    RawClient client(m_filterSocket);
    client.send(sshagent::frame(signRequest(m_rig.keyBlobOf(m_listed), "one")));
    QTRY_COMPARE(asked, 1);
    pending(false);
    QCOMPARE(client.receive(), std::optional<QByteArray>(sshagent::failureMessage()));
    client.send(sshagent::frame(signRequest(m_rig.keyBlobOf(m_listed), "two")));
    QTRY_COMPARE(asked, 2);
    // An answer given twice counts once.
    pending(true);
    pending(false);
    const std::optional<QByteArray> signature = client.receive();
    QVERIFY(signature && quint8(signature->at(0)) == sshagent::SignResponse);

    // Allowed once: every later signature with that key goes through without asking.
    QCOMPARE(sign(m_listed, m_filterSocket).exitCode, 0);
    QVERIFY(verifies(m_listed));
    QCOMPARE(sign(m_listed, m_filterSocket).exitCode, 0);
    QCOMPARE(asked, 2);
}

void TestSshAgentFilter::confirmationWithoutHandlerIsRefused()
{
    m_filter = makeFilter(PolicySshAgent::Confirm::Always);
    QVERIFY(m_filter->listen(m_filterSocket).ok());
    QVERIFY(sign(m_listed, m_filterSocket).exitCode != 0);
    QCOMPARE(m_refusals.size(), 1);
    QVERIFY(m_refusals.first().what.contains(QStringLiteral("nobody can give it")));
}

void TestSshAgentFilter::socketIsItsOwnNotTheUsersAgent()
{
    QCOMPARE(m_filter->socketPath(), m_filterSocket);
    struct stat directory
    {
    };
    QCOMPARE(::lstat(QFile::encodeName(QFileInfo(m_filterSocket).absolutePath()).constData(), &directory), 0);
    QCOMPARE(directory.st_mode & 0777, 0700u);
    struct stat filter
    {
    };
    struct stat user
    {
    };
    QCOMPARE(::stat(QFile::encodeName(m_filterSocket).constData(), &filter), 0);
    QCOMPARE(::stat(QFile::encodeName(m_agentSocket).constData(), &user), 0);
    QVERIFY(S_ISSOCK(filter.st_mode));
    QVERIFY(filter.st_ino != user.st_ino);

    // The filter never takes the user's agent's own place.
    SshAgentFilter other(PolicySshAgent{ { m_listedFingerprint }, {}, PolicySshAgent::Confirm::Never }, m_agentSocket);
    const Status onAgent = other.listen(m_agentSocket);
    QVERIFY(!onAgent.ok());
    QVERIFY(onAgent.error().message.contains(QStringLiteral("user's own SSH agent")));
    // Nor a directory others can reach.
    const QString shared = m_rig.path(QStringLiteral("shared"));
    QVERIFY(QDir().mkdir(shared));
    QVERIFY(QFile::setPermissions(shared,
                                  QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup
                                      | QFile::WriteGroup | QFile::ExeGroup));
    const Status inShared = other.listen(shared + QStringLiteral("/agent.sock"));
    QVERIFY(!inShared.ok());
    QVERIFY(inShared.error().message.contains(QStringLiteral("0700")));
    QVERIFY(!QFile::exists(shared + QStringLiteral("/agent.sock")));

    // Closed: the socket is gone and the user's agent is untouched.
    m_filter->close();
    QVERIFY(!QFile::exists(m_filterSocket));
    QVERIFY(QFile::exists(m_agentSocket));
}

void TestSshAgentFilter::missingUserAgentFailsRequests()
{
    SshAgentFilter orphan(PolicySshAgent{ { m_listedFingerprint }, {}, PolicySshAgent::Confirm::Never },
                          m_rig.path(QStringLiteral("no-agent.sock")));
    const QString path = m_rig.path(QStringLiteral("orphan/agent.sock"));
    QVERIFY(orphan.listen(path).ok());
    const Run listed = run(QStringLiteral("ssh-add"), { QStringLiteral("-l") }, path);
    QVERIFY(listed.exitCode != 0);
    QVERIFY(sign(m_listed, path).exitCode != 0);
}

QTEST_GUILESS_MAIN(TestSshAgentFilter)
#include "tst_sshagentfilter.moc"
