#pragma once

#include "protocol/Error.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

namespace sandbox {

// pack.json, the manifest every atom pack carries beside its plugin:
//   { "id": "power-pack", "publisher": "Sandbox Studio", "version": "1.0.0",
//     "name": "Power Pack", "description": "...", "engineApi": 1,
//     "kinds": ["cloud"], "plugin": "libpower-pack.so" }
// Data only, read as strictly as a descriptor: unknown keys, wrong types, markup and
// control characters are refused with the field named.
struct PackManifest
{
    Q_DECLARE_TR_FUNCTIONS(PackManifest)

public:
    // The launcher API this engine offers packs (AtomPack, Launcher, SandboxProcess).
    static constexpr int engineApiVersion = 1;
    static constexpr qsizetype maxManifestSize = 64 * 1024;

    QString id;
    QString publisher;
    QString version;
    QString name;
    QString description;
    int engineApi = 0;
    QStringList kinds;
    QString plugin; // file name of the Qt plugin, inside the pack's folder

    // Why `kind` may not come from a pack (it is a built-in one), or empty.
    static QString builtinKindProblem(const QString &kind);

    static Result<PackManifest> fromJson(const QByteArray &text, const QString &where);
};

} // namespace sandbox
