#pragma once

#include "protocol/Error.h"

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <functional>

namespace sandbox {

// The VM guest helpers in <vmDir>/bin (owner-only), fetched on first use from a source
// URL (http, https or file) and checked against the sha256 pins compiled into this build.
// A helper whose digest does not match is deleted and refused, naming both digests; a
// verified helper already present is not fetched again, and is verified again (from the
// very bytes that are then used) every time.
class HelperStore final
{
public:
    using Progress = std::function<void(const QString &message)>;

    HelperStore(QString binDirectory, QUrl source);

    // The pinned sha256 (hex) of `name`, empty when this build has no such helper.
    static QString pin(const QString &name);
    static QStringList pinnedHelpers();

    // Each helper's verified content, fetching what is missing.
    Result<QMap<QString, QByteArray>> ensure(const QStringList &names, const Progress &progress);
    int fetches() const { return m_fetches; }

private:
    Result<QByteArray> fetch(const QString &name, const Progress &progress);

    QString m_binDirectory;
    QUrl m_source;
    int m_fetches = 0;
};

} // namespace sandbox
