#pragma once

#include <QCoreApplication>
#include <QString>

#include <memory>

namespace sandbox {

// The lease on one baseline directory: a file "lease" created exclusively (owner-only),
// holding the holder's pid and that process's start time, removed when the lease ends. A
// lease whose holder is alive is respected; one whose holder is gone (or whose pid now
// names another process) is reclaimed.
class BaselineLease final
{
    Q_DECLARE_TR_FUNCTIONS(BaselineLease)

public:
    ~BaselineLease();
    BaselineLease(const BaselineLease &) = delete;
    BaselineLease &operator=(const BaselineLease &) = delete;

    struct Attempt
    {
        std::unique_ptr<BaselineLease> lease; // null when not taken
        qint64 holder = 0; // the live holder's pid when another process holds it
        QString problem; // why not, for the activation's events
    };
    static Attempt acquire(const QString &directory);
    // The pid of the live process holding the directory's lease, 0 when none does.
    static qint64 liveHolder(const QString &directory);

    QString directory() const { return m_directory; }
    // Ends the lease now (the destructor does too).
    void release();

private:
    explicit BaselineLease(QString directory);
    QString m_directory;
    bool m_held = true;
};

} // namespace sandbox
