#pragma once

#include <QByteArray>
#include <QStringList>

#include <vector>

namespace sandbox::power {

// The NULL-terminated argv posix_spawn takes, for `arguments` (the program first), in the
// local 8-bit encoding; its strings live as long as this object.
class ArgumentVector final
{
public:
    explicit ArgumentVector(const QStringList &arguments)
    {
        for (const QString &argument : arguments)
            m_storage.push_back(argument.toLocal8Bit());
        for (QByteArray &argument : m_storage)
            m_argv.push_back(argument.data());
        m_argv.push_back(nullptr);
    }

    char *const *argv() { return m_argv.data(); }
    const char *program() const { return m_argv.front(); }

private:
    std::vector<QByteArray> m_storage;
    std::vector<char *> m_argv;
};

} // namespace sandbox::power
