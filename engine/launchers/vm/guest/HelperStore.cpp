#include "HelperStore.h"

#include "HelperPins.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSaveFile>
#include <QTimer>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::HelperStore", text);
}

const QString kWhere = QStringLiteral("builtin:vm.helpers");
constexpr qint64 kMaxHelperBytes = 64 * 1024 * 1024;
constexpr int kFetchTimeoutMs = 120 * 1000;

QString digestOf(const QByteArray &content)
{
    return QString::fromLatin1(QCryptographicHash::hash(content, QCryptographicHash::Sha256).toHex());
}

} // namespace

HelperStore::HelperStore(QString binDirectory, QUrl source)
    : m_binDirectory(std::move(binDirectory))
    , m_source(std::move(source))
{ }

QString HelperStore::pin(const QString &name)
{
    for (const vm::HelperPin &pin : vm::kHelperPins) {
        if (name == QLatin1String(pin.name))
            return QString::fromLatin1(pin.sha256);
    }
    return {};
}

QStringList HelperStore::pinnedHelpers()
{
    QStringList names;
    for (const vm::HelperPin &pin : vm::kHelperPins)
        names.append(QString::fromLatin1(pin.name));
    return names;
}

Result<QMap<QString, QByteArray>> HelperStore::ensure(const QStringList &names, const Progress &progress)
{
    if (!QDir().mkpath(m_binDirectory))
        return Error{ kWhere, tr("cannot create %1").arg(m_binDirectory), {} };
    QFile::setPermissions(m_binDirectory, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    QMap<QString, QByteArray> verified;
    for (const QString &name : names) {
        const QString expected = pin(name);
        if (expected.isEmpty())
            return Error{ kWhere, tr("this build has no pinned digest for the helper %1").arg(name), {} };
        const QString path = m_binDirectory + QLatin1Char('/') + name;
        QFile present(path);
        if (present.open(QIODevice::ReadOnly)) {
            const QByteArray content = present.read(kMaxHelperBytes + 1);
            present.close();
            if (digestOf(content) == expected) {
                verified.insert(name, content);
                continue;
            }
            // Changed since it was verified: never used, fetched again.
            QFile::remove(path);
            if (progress)
                progress(tr("%1 in %2 no longer matches its pin; fetching it again").arg(name, m_binDirectory));
        }
        Result<QByteArray> fetched = fetch(name, progress);
        if (!fetched.ok())
            return fetched.error();
        const QString actual = digestOf(fetched.value());
        if (actual != expected) {
            return Error{ kWhere,
                          tr("the helper %1 from %2 was refused: its sha256 is %3 but this release pins %4; "
                             "the file was deleted and nothing was run")
                              .arg(name, m_source.toDisplayString(), actual, expected),
                          {} };
        }
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            return Error{ kWhere, tr("cannot write %1: %2").arg(path, file.errorString()), {} };
        file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        file.write(fetched.value());
        if (!file.commit())
            return Error{ kWhere, tr("cannot write %1: %2").arg(path, file.errorString()), {} };
        verified.insert(name, fetched.value());
    }
    return verified;
}

Result<QByteArray> HelperStore::fetch(const QString &name, const Progress &progress)
{
    if (!m_source.isValid() || m_source.isRelative())
        return Error{ kWhere,
                      tr("the helper source \"%1\" is not an absolute URL, so %2 cannot be fetched")
                          .arg(m_source.toString(), name),
                      {} };
    QUrl url = m_source;
    QString base = url.path();
    if (!base.endsWith(QLatin1Char('/')))
        base += QLatin1Char('/');
    url.setPath(base + name);
    ++m_fetches;
    if (progress)
        progress(tr("fetching %1 from %2").arg(name, url.toDisplayString()));

    QNetworkAccessManager network;
    QNetworkRequest request(url);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::NoLessSafeRedirectPolicy);
    QNetworkReply *reply = network.get(request);
    QEventLoop loop;
    QTimer deadline;
    deadline.setSingleShot(true);
    QByteArray content;
    bool tooLarge = false;
    int lastQuarter = 0;
    // Progress from every piece that arrives (QNetworkReply::downloadProgress is throttled and
    // can stay silent through a long stall), once per quarter of the announced size.
    QObject::connect(reply, &QNetworkReply::readyRead, &loop, [&] {
        content += reply->readAll();
        if (content.size() > kMaxHelperBytes) {
            tooLarge = true;
            reply->abort();
            return;
        }
        const qint64 total = reply->header(QNetworkRequest::ContentLengthHeader).toLongLong();
        if (total <= 0 || !progress)
            return;
        const int quarter = int(qMin<qint64>(content.size(), total) * 4 / total);
        if (quarter > lastQuarter) {
            lastQuarter = quarter;
            progress(tr("fetching %1: %2 of %3 bytes").arg(name).arg(content.size()).arg(total));
        }
    });
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QObject::connect(&deadline, &QTimer::timeout, reply, &QNetworkReply::abort);
    deadline.start(kFetchTimeoutMs);
    loop.exec();
    content += reply->readAll();
    const QString failure = reply->error() == QNetworkReply::NoError ? QString() : reply->errorString();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    reply->deleteLater();
    if (tooLarge)
        return Error{ kWhere,
                      tr("the helper %1 from %2 is larger than %3 bytes; refused")
                          .arg(name, url.toDisplayString())
                          .arg(kMaxHelperBytes),
                      {} };
    if (!failure.isEmpty() || (status != 0 && status != 200)) {
        return Error{ kWhere,
                      tr("cannot fetch the helper %1 from %2: %3. The VM backend needs it: check the helper "
                         "source setting, or copy the offline bundle (packages/sandbox-vm) into the bin folder of "
                         "the VM backend's state directory")
                          .arg(name, url.toDisplayString(),
                               failure.isEmpty() ? tr("HTTP status %1").arg(status) : failure),
                      {} };
    }
    return content;
}

} // namespace sandbox
