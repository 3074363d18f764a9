#include "core/secrets/KeychainJob.h"

#include <QCoreApplication>

#ifdef SANDBOX_KEYCHAIN_LIBRARY
#include <dlfcn.h>
#endif

namespace sandbox {

void KeychainJob::run(KeychainJob &job, int timeoutMs)
{
#ifdef SANDBOX_KEYCHAIN_LIBRARY
    using Entry = void (*)(KeychainJob *, int);
    struct Loaded
    {
        Entry entry = nullptr;
        QString error;
    };
    // Found through the program's run path, like libsandbox-launcher-api; never unloaded.
    static const Loaded loaded = [] {
        Loaded result;
        void *library = ::dlopen(SANDBOX_KEYCHAIN_LIBRARY, RTLD_NOW | RTLD_LOCAL);
        if (library)
            result.entry = reinterpret_cast<Entry>(::dlsym(library, "sandbox_run_keychain_job"));
        if (!result.entry)
            result.error = QCoreApplication::translate("sandbox::KeychainJob", "cannot load %1: %2")
                               .arg(QStringLiteral(SANDBOX_KEYCHAIN_LIBRARY), QString::fromLocal8Bit(::dlerror()));
        return result;
    }();
    if (!loaded.entry) {
        job.outcome = Outcome::Failed;
        job.errorString = loaded.error;
        return;
    }
    loaded.entry(&job, timeoutMs);
#else
    sandbox_run_keychain_job(&job, timeoutMs);
#endif
}

} // namespace sandbox
