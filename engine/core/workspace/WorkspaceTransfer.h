#pragma once

#include <QByteArray>
#include <QString>

#include <functional>

namespace sandbox {

// How a remote backend moves a workspace archive to and from its copy of the workspace (a
// file API, a container engine's archive endpoint, ...). WorkspaceSync decides what goes
// and what comes back; a transfer only carries bytes. Callbacks run in the thread of the
// WorkspaceSync that called, each exactly once per call, unless abort() came first.
class WorkspaceTransfer
{
public:
    // Empty when the step succeeded; otherwise what failed, for the user.
    using Done = std::function<void(const QString &error)>;
    // Bytes of the archive sent so far.
    using Progress = std::function<void(qint64 sent)>;
    // Takes the next bytes of the archive coming back; false stops the transfer (too large).
    using Sink = std::function<bool(const QByteArray &chunk)>;

    virtual ~WorkspaceTransfer() = default;

    // Unpacks the tar archive at `archive` (members "./..." relative to the workspace) into
    // the remote copy of the workspace.
    virtual void send(const QString &archive, Progress progress, Done done) = 0;
    // A tar archive of the remote copy (members relative to its root), chunk by chunk.
    virtual void fetch(Sink sink, Done done) = 0;
};

} // namespace sandbox
