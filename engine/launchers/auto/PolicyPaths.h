#pragma once

#include "protocol/Error.h"

#include <QString>

namespace sandbox {

// The paths of a policy as one platform's sandbox names them, without looking at the disk
// (the macOS and Windows policy compilers are pure functions of what they are given).
class PolicyPaths final
{
public:
    // `home` and `workspace`: absolute, "/"-separated ("C:/Users/..." on Windows), already
    // resolved by the caller.
    PolicyPaths(QString home, QString workspace);

    // `raw` with a leading "~" or "${workspace}" replaced and "." and duplicate "/"
    // removed; an error naming `where` for a path that is not absolute, contains ".." or a
    // control character.
    Result<QString> expand(const QString &raw, const QString &where) const;

    // "/..." or, for Windows, a drive letter followed by ":/".
    static bool isAbsolute(const QString &path);

private:
    QString m_home;
    QString m_workspace;
};

} // namespace sandbox
