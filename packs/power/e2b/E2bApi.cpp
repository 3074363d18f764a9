#include "E2bApi.h"

#include <QEventLoop>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

#include <algorithm>

namespace sandbox::power {

QJsonObject E2bApi::Response::json() const
{
    return QJsonDocument::fromJson(body).object();
}

QString E2bApi::Response::message() const
{
    if (status == 0)
        return error;
    const QString text = json().value(QStringLiteral("message")).toString();
    return text.isEmpty() ? tr("HTTP status %1").arg(status) : tr("%1 (HTTP status %2)").arg(text).arg(status);
}

E2bApi::E2bApi(E2bSettings settings)
    : m_settings(std::move(settings))
{ }

QString E2bApi::keyRefused()
{
    return tr("The API key was refused by the E2B API. Set the right key (sandboxctl secret set), then activate "
              "again.");
}

void E2bApi::setKeyRefusedListener(std::function<void()> listener)
{
    m_keyRefused = std::make_shared<std::function<void()>>(std::move(listener));
}

E2bApi::Response E2bApi::request(const QByteArray &method, const QString &path, const QByteArray &body,
                                 int timeoutMs) const
{
    QNetworkAccessManager network;
    QUrl url = m_settings.apiUrl;
    QString base = url.path();
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    const qsizetype query = path.indexOf(QLatin1Char('?'));
    url.setPath(base + path.left(query));
    if (query >= 0)
        url.setQuery(path.mid(query + 1));
    QNetworkRequest request(url);
    request.setRawHeader("X-API-Key", m_settings.apiKey.toUtf8());
    request.setRawHeader("Accept", "application/json");
    if (!body.isNull())
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    request.setTransferTimeout(timeoutMs);
    QNetworkReply *reply = network.sendCustomRequest(request, method, body);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    // The whole call, not only each silence, ends within its deadline.
    QTimer deadline;
    deadline.setSingleShot(true);
    QObject::connect(&deadline, &QTimer::timeout, reply, &QNetworkReply::abort);
    deadline.start(timeoutMs);
    loop.exec();
    Response response;
    response.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    response.body = reply->readAll();
    if (response.status == 0)
        response.error = tr("%1 did not answer: %2").arg(url.host(), reply->errorString());
    delete reply;
    if (response.status == 401 && m_keyRefused && *m_keyRefused)
        (*m_keyRefused)();
    return response;
}

Status E2bApi::checkKey() const
{
    const QString key = QStringLiteral("apiKey");
    if (m_settings.apiKey.isEmpty())
        return Error{ key, tr("No API key is set. Set it with sandboxctl secret set, then activate again."), {} };
    Response listed = request("GET", QStringLiteral("/v2/sandboxes?limit=1"), {});
    if (listed.status == 404 || listed.status == 405)
        listed = request("GET", QStringLiteral("/sandboxes"), {});
    if (listed.status == 401 || listed.status == 403)
        return Error{ key, keyRefused(), {} };
    if (listed.status != 200)
        return Error{ m_settings.apiUrl.toString(),
                      tr("The E2B API at %1 cannot be used: %2").arg(m_settings.apiUrl.toString(), listed.message()),
                      {} };
    return {};
}

Result<E2bSandbox> E2bApi::create(bool internet) const
{
    const QJsonObject body{ { QStringLiteral("templateID"), m_settings.templateId },
                            { QStringLiteral("timeout"), m_settings.timeoutSeconds },
                            { QStringLiteral("secure"), true },
                            { QStringLiteral("allow_internet_access"), internet },
                            { QStringLiteral("metadata"),
                              QJsonObject{ { QStringLiteral("createdBy"), QStringLiteral("sandbox-studio") } } } };
    const Response created
        = request("POST", QStringLiteral("/sandboxes"), QJsonDocument(body).toJson(QJsonDocument::Compact));
    if (created.status == 401 || created.status == 403)
        return Error{ QStringLiteral("apiKey"), keyRefused(), {} };
    if (created.status != 201 && created.status != 200)
        return Error{
            QStringLiteral("template"),
            tr("E2B did not create a sandbox of the template %1: %2").arg(m_settings.templateId, created.message()),
            {}
        };
    const QJsonObject json = created.json();
    E2bSandbox sandbox;
    sandbox.id = json.value(QStringLiteral("sandboxID")).toString();
    sandbox.domain = json.value(QStringLiteral("domain")).toString();
    sandbox.envdAccessToken = json.value(QStringLiteral("envdAccessToken")).toString();
    sandbox.envdVersion = json.value(QStringLiteral("envdVersion")).toString();
    sandbox.internet = internet;
    const bool idIsHostLabel = !sandbox.id.isEmpty() && sandbox.id.size() < 64
        && std::all_of(sandbox.id.cbegin(), sandbox.id.cend(),
                       [](QChar c) { return c.isLetterOrNumber() && c.unicode() < 128; });
    if (!idIsHostLabel)
        return Error{ m_settings.apiUrl.toString(), tr("The E2B API answered without a usable sandbox id."), {} };
    return sandbox;
}

Status E2bApi::refresh(const QString &sandboxId, bool *gone) const
{
    const QJsonObject body{ { QStringLiteral("timeout"), m_settings.timeoutSeconds } };
    const Response refreshed = request("POST", QStringLiteral("/sandboxes/") + sandboxId + QStringLiteral("/timeout"),
                                       QJsonDocument(body).toJson(QJsonDocument::Compact));
    if (gone)
        *gone = refreshed.status == 404;
    if (refreshed.status == 204 || refreshed.status == 200)
        return {};
    if (refreshed.status == 401 || refreshed.status == 403)
        return Error{ sandboxId, keyRefused(), {} };
    return Error{ sandboxId, tr("E2B did not extend the sandbox's timeout: %1").arg(refreshed.message()), {} };
}

Result<bool> E2bApi::exists(const QString &sandboxId) const
{
    const Response found = request("GET", QStringLiteral("/sandboxes/") + sandboxId, {});
    if (found.status == 200)
        return true;
    if (found.status == 404)
        return false;
    return Error{ sandboxId, tr("E2B did not say whether the sandbox still exists: %1").arg(found.message()), {} };
}

Status E2bApi::kill(const QString &sandboxId, int timeoutMs) const
{
    const Response killed = request("DELETE", QStringLiteral("/sandboxes/") + sandboxId, {}, timeoutMs);
    if (killed.status == 204 || killed.status == 200 || killed.status == 404)
        return {};
    return Error{ sandboxId, tr("E2B did not kill the sandbox: %1").arg(killed.message()), {} };
}

} // namespace sandbox::power
