#pragma once

#include "launchers/vm/drivers/UserNetwork.h"
#include "launchers/vm/drivers/VmDriver.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QHash>
#include <QLocalSocket>
#include <QMutex>
#include <QObject>
#include <QProcess>
#include <QSet>
#include <QStringList>
#include <QTimer>

#include <functional>
#include <memory>

namespace sandbox {

class GuestAgentRelay;

// One running VM: the hypervisor process and the exec agent's channel. Lives in the VM
// backend's I/O thread; other threads reach it with QMetaObject::invokeMethod. Frames for
// a command go to the sink registered for its id (called in this object's thread).
class VmMachine final : public QObject
{
    Q_OBJECT

public:
    using Sink = std::function<void(quint8 type, const QByteArray &payload)>;

    // `restoring`: the VM starts from a baseline, whose agent said "ready" before it was
    // saved; it is ready once confirmRestored()'s command has run in it.
    VmMachine(VmDriver::Command command, VmSpec spec, GuestLayout layout, int bootTimeoutMs, bool restoring = false);
    ~VmMachine() override;

    // The thread every VmMachine lives in (started on first use, stopped at exit), and an
    // object of that thread to queue calls to.
    static QObject *ioContext();
    // That object if the thread was ever started, else null: nothing was queued to it.
    static QObject *startedIoContext();

    void start();
    void stop();
    bool isReady() const { return m_ready; }
    bool hasFailed() const { return !m_failure.isEmpty(); }
    QString failure() const { return m_failure; }
    QString layoutKey() const { return m_layoutKey; }
    const GuestLayout &layout() const { return m_layout; }
    // The layout this VM serves spawns under now (thread-safe): layout() less the shares whose
    // directories have been removed since it started (OpenedShares::removed()), which show
    // nothing in it. A layout computed after such a removal no longer has them, and without
    // this every later spawn would boot a VM of its own.
    GuestLayout servingLayout() const;
    const VmSpec &spec() const { return m_spec; }
    qint64 hostPid() const { return m_process.processId(); }
    qint64 bootMs() const { return m_bootMs; }
    int commandCount() const { return int(m_sinks.size()); }

    // Sends a frame now, or once the agent is ready. Returns the id given to the command.
    // With `agentSocket` (the command's filtering SSH agent on the host), the connections the
    // guest relays from the command's agent socket are connected to it until the command ends.
    void open(quint32 id, const Sink &sink, const QByteArray &spawnPayload, const QString &agentSocket = {});
    void send(quint8 type, quint32 id, const QByteArray &payload);
    void close(quint32 id);
    // After the driver restored the VM: runs the handshake command (cwd, argv, env as for a
    // spawn; `input` on its stdin) and declares the VM ready when it exits with 0.
    void confirmRestored(const QByteArray &spawnPayload, const QByteArray &input);
    // The command id the handshake uses (never one of the launcher's).
    static constexpr quint32 kHandshakeId = 0xffffffffu;
    // The id of the request that attaches a restored guest's shares.
    static constexpr quint32 kAttachId = 0xfffffffeu;
    // The frame type (no guest sends it) a sink gets a note about how this VM started in.
    static constexpr quint8 kBootNote = 0xf0;
    // A sentence about how this VM started (restored from a baseline, or why it cold booted):
    // every command opened before the VM was ready gets it in its sink as a kBootNote frame,
    // the notes before its open() included.
    void noteBoot(const QString &note);

    // A VM restored from a share-less baseline: after the handshake the agent attaches the
    // shares of `layout` (hot-added by the driver) before the VM is ready. Should the
    // restore, the handshake or the attachment fail, this VM is discarded and `coldCommand`
    // (booting `coldSpec` with its shares) boots once in its place, within `coldTimeoutMs`:
    // the commands waiting for it never see the difference. Called before start().
    void setColdFallback(VmDriver::Command coldCommand, VmSpec coldSpec, int coldTimeoutMs);
    // The restore did not work (the driver's own step failed): as a failed handshake.
    void abandonRestore(const QString &reason);
    // Whether this VM runs from a baseline (false once it fell back to a cold boot).
    bool isRestored() const { return m_restoring || m_restoredReady; }
    // Where a restored VM's start went, in ms from start(): the driver's restore done (QEMU
    // started, the state loaded, the guest running), the handshake done, ready (its shares
    // mounted). -1 for a step not reached.
    qint64 stateLoadedMs() const { return m_stateLoadedMs; }
    qint64 handshakeDoneMs() const { return m_handshakeDoneMs; }

signals:
    void ready();
    void failed(const QString &reason);
    void log(const QString &message);
    // The restore was given up for `reason`; the VM cold boots instead.
    void fellBack(const QString &reason);

private:
    void fail(const QString &reason);
    void tryConnect();
    void readFrames();
    void writeFrame(quint8 type, quint32 id, const QByteArray &payload);
    void becomeReady();
    void writeNow(quint8 type, quint32 id, const QByteArray &payload);
    void attachShares();
    void bootCold(const QString &reason);
    void dropAgent(quint32 id);

    VmDriver::Command m_command;
    VmSpec m_spec;
    GuestLayout m_layout;
    QString m_layoutKey;
    // The share directories QEMU was given (those of the cold boot once a restore fell back),
    // for servingLayout() on any thread: m_spec changes on this object's own.
    mutable QMutex m_heldMutex;
    std::shared_ptr<const OpenedShares> m_heldShares;
    int m_bootTimeoutMs;
    QProcess m_process;
    UserNetwork *m_network = nullptr; // network full: QEMU's namespace and slirp4netns
    QLocalSocket m_channel;
    QTimer m_connectTimer;
    QTimer m_bootTimer;
    QElapsedTimer m_clock;
    QByteArray m_input;
    QList<QByteArray> m_pending; // frames written before the agent was ready
    QHash<quint32, Sink> m_sinks;
    QHash<quint32, GuestAgentRelay *> m_agents; // the commands' agent relays (children)
    QStringList m_bootNotes;
    QSet<quint32> m_bootWatchers; // the commands opened before the VM was ready
    bool m_ready = false;
    // Set once the channel's queue passed kMaxChannelBacklog: nothing more is written.
    bool m_overrun = false;
    static constexpr qint64 kMaxChannelBacklog = 64 * 1024 * 1024;
    bool m_stopping = false;
    bool m_restoring = false;
    bool m_restoredReady = false;
    bool m_restarting = false;
    bool m_abandoning = false;
    VmDriver::Command m_coldCommand;
    VmSpec m_coldSpec;
    int m_coldTimeoutMs = 0;
    qint64 m_bootMs = 0;
    qint64 m_stateLoadedMs = -1;
    qint64 m_handshakeDoneMs = -1;
    QString m_failure;
};

} // namespace sandbox
