#pragma once

#include "protocol/Error.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QString>

namespace sandbox {

// A blocking client of a QEMU Machine Protocol socket (unix stream): the greeting, the
// capabilities negotiation, then one command at a time, each optionally carrying a file
// descriptor (SCM_RIGHTS) for `getfd`. Asynchronous events are skipped. Every call has a
// deadline; nothing waits forever on a QEMU that stopped answering.
class QmpClient final
{
    Q_DECLARE_TR_FUNCTIONS(QmpClient)

public:
    explicit QmpClient(QString socketPath);
    ~QmpClient();
    QmpClient(const QmpClient &) = delete;
    QmpClient &operator=(const QmpClient &) = delete;

    // Connects (the socket may not exist yet), reads the greeting, negotiates capabilities.
    Status open(int timeoutMs);
    // Runs `command` and returns its "return" value; an "error" answer becomes an Error.
    Result<QJsonObject> execute(const QString &command, const QJsonObject &arguments = {}, int passFd = -1,
                                int timeoutMs = 10000);

private:
    Status sendLine(const QByteArray &line, int passFd, const QElapsedTimer &clock, int timeoutMs);
    Result<QJsonObject> readMessage(const QElapsedTimer &clock, int timeoutMs);
    Error failure(const QString &message) const;

    QString m_socketPath;
    int m_fd = -1;
    QByteArray m_input;
};

} // namespace sandbox
