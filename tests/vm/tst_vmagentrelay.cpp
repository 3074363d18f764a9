// The host end of a command's SSH agent in a VM (GuestAgentRelay), driven the way a guest (or
// a hostile one) drives it: agent frames as the exec agent's channel carries them, the
// engine's real filtering agent behind it (SshAgentService) in front of Debian's ssh-agent
// holding two keys. No VM is booted.
#include "GuestProtocol.h"
#include "OpenSshRig.h"
#include "launchers/vm/guest/GuestAgentRelay.h"
#include "launchers/vm/image/LittleEndian.h"
#include "net/SshAgentService.h"

#include <QFuture>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace sandbox;
using sandbox::test::OpenSshRig;

namespace {

struct Frame
{
    quint8 type = 0;
    quint32 connection = 0;
    QByteArray data;
};

// An agent request: u32 big-endian length, then the message.
QByteArray agentMessage(const QByteArray &message)
{
    QByteArray out(4, '\0');
    qToBigEndian(quint32(message.size()), out.data());
    return out + message;
}

QByteArray payload(quint32 connection, const QByteArray &data = {})
{
    return littleEndianU32(connection) + data;
}

} // namespace

class TestVmAgentRelay final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void aConnectionReachesTheFilterAndItsAnswerComesBackWithinTheWindow();
    void aGuestBeyondItsWindowLosesTheConnection();
    void theGuestsEndOfStreamClosesTheConnection();
    void connectionsAreBounded();
    void malformedFramesAreRefused();

private:
    QByteArray dataFor(quint32 connection) const;
    bool closedByRelay(quint32 connection) const;

    OpenSshRig m_rig;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<SshAgentService> m_service;
    QString m_socket;
    std::unique_ptr<GuestAgentRelay> m_relay;
    QList<Frame> m_sent; // what the relay sent the guest
};

void TestVmAgentRelay::initTestCase()
{
    const QString started = m_rig.start();
    QVERIFY2(started.isEmpty(), qPrintable(started));
}

void TestVmAgentRelay::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_service = std::make_unique<SshAgentService>(m_dir->path());
    PolicySshAgent policy;
    policy.keys = { m_rig.listedFingerprint() };
    policy.confirm = PolicySshAgent::Confirm::Never;
    const Result<QString> opened = m_service->open(
        policy, m_rig.agentSocket(), [](const SshAgentConfirmation &) { return QtFuture::makeReadyFuture(false); },
        [](const QString &, const QString &) {});
    QVERIFY2(opened.ok(), opened.ok() ? "" : qPrintable(opened.error().toString()));
    m_socket = opened.value();
    m_sent.clear();
    m_relay = std::make_unique<GuestAgentRelay>(m_socket, [this](quint8 type, const QByteArray &bytes) {
        QVERIFY(bytes.size() >= 4);
        m_sent.append(Frame{ type, readLittleEndianU32(bytes.constData()), bytes.mid(4) });
    });
}

void TestVmAgentRelay::cleanup()
{
    m_relay.reset();
    m_service.reset();
    m_dir.reset();
}

QByteArray TestVmAgentRelay::dataFor(quint32 connection) const
{
    QByteArray all;
    for (const Frame &frame : m_sent) {
        if (frame.connection == connection && frame.type == guest::AgentData)
            all += frame.data;
    }
    return all;
}

bool TestVmAgentRelay::closedByRelay(quint32 connection) const
{
    for (const Frame &frame : m_sent) {
        if (frame.connection == connection && frame.type == guest::AgentClose)
            return true;
    }
    return false;
}

void TestVmAgentRelay::aConnectionReachesTheFilterAndItsAnswerComesBackWithinTheWindow()
{
    QVERIFY(m_relay->handle(guest::AgentOpen, payload(1)));
    QVERIFY(m_relay->handle(guest::AgentData, payload(1, agentMessage(QByteArray(1, char(11))))));
    // SSH_AGENT_IDENTITIES_ANSWER with the listed key alone.
    QTRY_VERIFY(dataFor(1).size() >= 9);
    const QByteArray answer = dataFor(1);
    QCOMPARE(quint8(answer.at(4)), quint8(12));
    QCOMPARE(qFromBigEndian<quint32>(answer.constData() + 5), quint32(1));
    QCOMPARE(qsizetype(qFromBigEndian<quint32>(answer.constData())) + 4, answer.size());
    // What the guest was sent is credited back; the bytes the relay wrote on are credited to it.
    quint32 credited = 0;
    for (const Frame &frame : std::as_const(m_sent)) {
        if (frame.type == guest::AgentCredit)
            credited += readLittleEndianU32(frame.data.constData());
    }
    QCOMPARE(credited, quint32(5));
    QVERIFY(m_relay->handle(guest::AgentCredit, payload(1, littleEndianU32(quint32(answer.size())))));
    QCOMPARE(m_relay->connectionCount(), 1);
    // The guest's client went: so does the connection, without a reply.
    const qsizetype before = m_sent.size();
    QVERIFY(m_relay->handle(guest::AgentClose, payload(1)));
    QCOMPARE(m_relay->connectionCount(), 0);
    QCOMPARE(m_sent.size(), before);
    // Late frames for it are no error.
    QVERIFY(m_relay->handle(guest::AgentData, payload(1, "x")));
}

void TestVmAgentRelay::aGuestBeyondItsWindowLosesTheConnection()
{
    QVERIFY(m_relay->handle(guest::AgentOpen, payload(2)));
    // Within one turn of the event loop nothing is written on to the filter, so nothing is
    // credited: a window's worth is taken, one byte more loses the connection, and the guest
    // is told.
    const QByteArray chunk(guest::kAgentMaxPayload, 'a');
    for (quint32 sent = 0; sent < guest::kAgentWindow; sent += quint32(chunk.size())) {
        QVERIFY(m_relay->handle(guest::AgentData, payload(2, chunk)));
        QVERIFY(!closedByRelay(2));
    }
    QVERIFY(m_relay->handle(guest::AgentData, payload(2, "a")));
    QVERIFY(closedByRelay(2));
    QCOMPARE(m_relay->connectionCount(), 0);
}

void TestVmAgentRelay::theGuestsEndOfStreamClosesTheConnection()
{
    QVERIFY(m_relay->handle(guest::AgentOpen, payload(3)));
    QVERIFY(m_relay->handle(guest::AgentData, payload(3, agentMessage(QByteArray(1, char(11))))));
    // The guest's client half-closed: the filter sees the end of its requests and ends the
    // connection, and the guest is told.
    QVERIFY(m_relay->handle(guest::AgentEof, payload(3)));
    QTRY_VERIFY(closedByRelay(3));
    QCOMPARE(m_relay->connectionCount(), 0);
    // Data after its end of stream is the guest's mistake, not a malformed frame.
    QVERIFY(m_relay->handle(guest::AgentData, payload(3, "late")));
}

void TestVmAgentRelay::connectionsAreBounded()
{
    for (quint32 id = 1; id <= guest::kAgentMaxConnections; ++id)
        QVERIFY(m_relay->handle(guest::AgentOpen, payload(id)));
    QCOMPARE(m_relay->connectionCount(), int(guest::kAgentMaxConnections));
    QVERIFY(m_relay->handle(guest::AgentOpen, payload(guest::kAgentMaxConnections + 1)));
    QVERIFY(closedByRelay(guest::kAgentMaxConnections + 1));
    QCOMPARE(m_relay->connectionCount(), int(guest::kAgentMaxConnections));
}

void TestVmAgentRelay::malformedFramesAreRefused()
{
    QVERIFY(!m_relay->handle(guest::AgentOpen, QByteArray("abc")));
    QVERIFY(!m_relay->handle(guest::AgentOpen, payload(0)));
    QVERIFY(!m_relay->handle(guest::AgentOpen, payload(4, "extra")));
    QVERIFY(m_relay->handle(guest::AgentOpen, payload(4)));
    QVERIFY(!m_relay->handle(guest::AgentOpen, payload(4)));
    QVERIFY(!m_relay->handle(guest::AgentCredit, payload(4, "xy")));
    QVERIFY(!m_relay->handle(guest::AgentData, payload(4, QByteArray(guest::kAgentMaxPayload + 1, 'a'))));
    QVERIFY(!m_relay->handle(guest::Stdout, payload(4)));
}

QTEST_GUILESS_MAIN(TestVmAgentRelay)
#include "tst_vmagentrelay.moc"
