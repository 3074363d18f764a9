#pragma once

#include "BackendRef.h"
#include "Error.h"

#include <QJsonObject>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>

namespace sandbox {

// Something the sandbox refused, as it happened: which command, what was refused and the
// rule that refused it. The engine publishes every refusal it learns of (its filtering
// proxy, its own refusals, a backend's observer) as one of these.
//
// JSON: { id, timeMs, kind: "path"|"syscall"|"network"|"host-socket"|"credential"|"engine", what, rule,
//         processId?, command?, ref?, backendName? }
// id counts the engine's refusals from 1; timeMs is milliseconds since the epoch (UTC);
// processId and command name the command when the refusal can be tied to one (absent when
// it cannot: a proxy channel shared by a backend's commands, a peer refused at the engine's
// socket); ref and backendName the backend that served it. Text fields are plain text
// without control characters; paths and domains may hold any other character.
struct Refusal
{
    // Credential: a credential's placeholder sent where it is not replaced (an exfiltration
    // attempt, or a policy that does not fit), or a credential without a value.
    enum class Kind { Path, Syscall, Network, HostSocket, Credential, Engine };

    quint64 id = 0;
    qint64 timeMs = 0;
    Kind kind = Kind::Engine;
    QString what; // "example.org:80", "ptrace", "/home/user/.ssh/id_ed25519"
    QString rule; // "network: example.org:80 is not in the policy's allowed domains"
    quint64 processId = 0; // 0: not tied to one command
    QString command; // the command's short command line
    BackendRef ref; // invalid: no backend involved
    QString backendName;

    static constexpr qsizetype maxWhatLength = 4096;
    static constexpr qsizetype maxRuleLength = 2048;
    static constexpr qsizetype maxCommandLength = 512;
    static constexpr qsizetype maxNameLength = 200;

    static QString kindName(Kind kind);
    static std::optional<Kind> kindFromName(const QString &name);
    static QList<Kind> allKinds();
    // The short command line shown for `argv`: arguments quoted where needed, cut to
    // maxCommandLength, control characters replaced.
    static QString shortCommand(const QStringList &argv);
    // `text` as a refusal may carry it: control characters and bidirectional overrides
    // replaced by U+FFFD, cut to `maxLength` characters (with an ellipsis).
    static QString cleanText(const QString &text, qsizetype maxLength);

    QJsonObject toJson() const;
    static Result<Refusal> fromJson(const QJsonValue &value, const QString &path = QStringLiteral("refusal"));
    friend bool operator==(const Refusal &, const Refusal &) = default;
};

} // namespace sandbox

Q_DECLARE_METATYPE(sandbox::Refusal)
