#pragma once

#include <QString>

namespace sandbox {

// One QtKeychain job, run to completion on the calling thread (a local event loop). On
// Linux it lives in a library of its own, libsandbox-keychain, loaded the first time a
// secret is touched: QtKeychain brings D-Bus, libsecret's and systemd's libraries, which
// every sandboxctl start would otherwise load.
struct KeychainJob
{
    enum class Operation { Read, Write, Remove };
    enum class Outcome { Done, NotFound, AccessDenied, TimedOut, Failed };

    Operation operation = Operation::Read;
    QString service;
    QString key;
    QString value; // written by Write, read back by Read
    Outcome outcome = Outcome::Failed;
    QString errorString;

    // Runs `job` through the keychain library (loading it on first use); a library that
    // cannot be loaded is a Failed outcome saying why.
    static void run(KeychainJob &job, int timeoutMs);
};

} // namespace sandbox

// The library's entry point (C linkage, so it can be looked up by name).
extern "C" void sandbox_run_keychain_job(sandbox::KeychainJob *job, int timeoutMs);
