#pragma once

#include "E2bSettings.h"
#include "protocol/Error.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QJsonObject>
#include <QString>

#include <functional>
#include <memory>

namespace sandbox::power {

// A sandbox the control plane created: its id, where envd is reached, and envd's token.
struct E2bSandbox
{
    QString id;
    QString domain;
    QString envdAccessToken;
    QString envdVersion;
    bool internet = false;
};

// E2B's REST control plane. Every call blocks the calling thread (a worker thread, never
// one serving an event loop of its own), honours its deadline, and sends the API key only
// in X-API-Key. Nothing here logs a request. Thread-safe (holds only settings and the
// listener a refused key is reported to).
class E2bApi final
{
    Q_DECLARE_TR_FUNCTIONS(E2bApi)

public:
    static constexpr int requestTimeoutMs = 30000;

    struct Response
    {
        int status = 0; // 0: no HTTP answer (then `error` says why)
        QByteArray body;
        QString error;
        QJsonObject json() const;
        // The service's own explanation ({"message": ...}) or the transport error.
        QString message() const;
    };

    explicit E2bApi(E2bSettings settings);

    const E2bSettings &settings() const { return m_settings; }

    // Called (on the calling thread) whenever a call is answered 401: the key was refused.
    void setKeyRefusedListener(std::function<void()> listener);

    // Checks the key by listing sandboxes (GET /v2/sandboxes, or /sandboxes where the API
    // has no v2 listing): success when accepted, otherwise why not. The error names the
    // apiKey setting only when the key is missing or refused; an API that cannot be reached
    // (a name that does not resolve, no connection) is named by its URL.
    Status checkKey() const;
    // POST /sandboxes: a sandbox of the template with the timeout and internet access.
    Result<E2bSandbox> create(bool internet) const;
    // POST /sandboxes/<id>/timeout: the sandbox lives `timeoutSeconds` from now. `gone`
    // (when given) says whether E2B answered that there is no such sandbox.
    Status refresh(const QString &sandboxId, bool *gone = nullptr) const;
    // GET /sandboxes/<id>: false when E2B says there is no such sandbox (it ended).
    Result<bool> exists(const QString &sandboxId) const;
    // DELETE /sandboxes/<id> within `timeoutMs`; a sandbox already gone is not an error.
    Status kill(const QString &sandboxId, int timeoutMs = requestTimeoutMs) const;

    // The explanation of a refused key, the one availability reason for it.
    static QString keyRefused();

private:
    Response request(const QByteArray &method, const QString &path, const QByteArray &body,
                     int timeoutMs = requestTimeoutMs) const;

    E2bSettings m_settings;
    std::shared_ptr<std::function<void()>> m_keyRefused;
};

} // namespace sandbox::power
