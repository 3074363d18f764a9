#include "PolicyPaths.h"

#include "protocol/Policy.h"

#include <QCoreApplication>
#include <QDir>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::PolicyPaths", text);
}

} // namespace

PolicyPaths::PolicyPaths(QString home, QString workspace)
    : m_home(std::move(home))
    , m_workspace(std::move(workspace))
{ }

Result<QString> PolicyPaths::expand(const QString &raw, const QString &where) const
{
    if (const QString problem = Policy::pathProblem(raw); !problem.isEmpty())
        return Error{ where, tr("'%1' %2").arg(raw, problem), {} };
    QString path = raw;
    if (path == QLatin1String("~") || path.startsWith(QLatin1String("~/")))
        path = m_home + path.mid(1);
    else if (path.startsWith(QLatin1String("${workspace}")))
        path = m_workspace + path.mid(12);
    if (!isAbsolute(path))
        return Error{
            where,
            tr("'%1' does not name an absolute path here (home '%2', workspace '%3')").arg(raw, m_home, m_workspace),
            {}
        };
    return QDir::cleanPath(path);
}

bool PolicyPaths::isAbsolute(const QString &path)
{
    if (path.startsWith(QLatin1Char('/')))
        return true;
    return path.size() >= 3 && path.at(0).isLetter() && path.at(0).unicode() < 0x80 && path.at(1) == QLatin1Char(':')
        && path.at(2) == QLatin1Char('/');
}

} // namespace sandbox
