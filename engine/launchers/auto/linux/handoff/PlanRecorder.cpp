#include "PlanRecorder.h"

#include "InitConfigFormat.h"
#include "RecordedEntry.h"
#include "Sha256.h"
#include "core/EngineFiles.h"
#include "core/settings/SettingsDocument.h"
#include "protocol/BackendRef.h"
#include "protocol/JsonReader.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMutex>
#include <QUuid>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <link.h>
#include <string>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <vector>

namespace sandbox {

namespace {

struct Start
{
    timespec clock{};
    QByteArray environmentDigest;
    bool captured = false;
    std::atomic<bool> spoke{ false };
};

Start &start()
{
    static Start instance;
    return instance;
}

// The digests a record names its inputs by are the run front's (Sha256, plain C++), which
// checks them: one implementation for the record's writer and its reader.
QByteArray sha256Hex(const QByteArray &data)
{
    return QByteArray::fromStdString(Sha256::hexOf(std::string_view(data.constData(), size_t(data.size()))));
}

// What the record says of the entry at `path` (RecordedEntry, as the run front reads it
// again). `changed` is set when the entry's status changed at or after `since` (a
// directory, link or other entry: the build read it after then) or after the process
// started (a regular file: a binary of this process or the probe cache it read at start-up).
QByteArray identity(const QByteArray &path, const timespec &since, bool *changed)
{
    struct stat st = {};
    const std::string text = RecordedEntry::identity(path.toStdString(), &st);
    if (st.st_mode != 0) {
        const timespec &t0 = S_ISREG(st.st_mode) ? start().clock : since;
        if (st.st_ctim.tv_sec > t0.tv_sec || (st.st_ctim.tv_sec == t0.tv_sec && st.st_ctim.tv_nsec >= t0.tv_nsec))
            *changed = true;
    }
    return QByteArray::fromStdString(text);
}

// The bytes of a small file (at most 8 MiB): empty with `absent` set when there is none,
// `ok` false when it cannot be read.
QByteArray readAll(const QString &path, bool *absent, bool *ok)
{
    *absent = false;
    *ok = true;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Unbuffered)) {
        *absent = !QFileInfo::exists(path) && !QFileInfo(path).isSymLink();
        *ok = *absent;
        return {};
    }
    QByteArray bytes;
    for (;;) {
        const QByteArray piece = file.read(1 << 16);
        if (piece.isEmpty())
            break;
        bytes += piece;
        if (bytes.size() > (8 << 20)) {
            *ok = false;
            return {};
        }
    }
    return bytes;
}

class Writer
{
public:
    void token(const QByteArray &text)
    {
        m_out += text;
        m_out += '\0';
    }
    void item(const char *tag, std::initializer_list<QByteArray> fields)
    {
        token(tag);
        for (const QByteArray &field : fields)
            token(field);
    }
    void blob(const char *tag, const QByteArray &bytes)
    {
        token(tag);
        token(QByteArray::number(bytes.size()));
        token(bytes);
    }
    const QByteArray &bytes() const { return m_out; }

private:
    QByteArray m_out;
};

// The loaded objects (the program's libraries), as the dynamic loader names them.
int collectObject(dl_phdr_info *info, size_t, void *data)
{
    const char *name = info->dlpi_name;
    if (name && name[0] == '/')
        static_cast<QStringList *>(data)->append(QFile::decodeName(name));
    return 0;
}

} // namespace

void PlanRecorder::captureStart()
{
    Start &state = start();
    ::clock_gettime(CLOCK_REALTIME_COARSE, &state.clock);
    state.environmentDigest = QByteArray::fromStdString(RecordedEntry::environment());
    state.captured = true;
}

void PlanRecorder::noteMessage()
{
    start().spoke.store(true);
}

bool PlanRecorder::startCaptured()
{
    return start().captured;
}

void PlanRecording::install(std::shared_ptr<PlanRecorder> recorder)
{
    QMutexLocker lock(&m_mutex);
    m_recorder = std::move(recorder);
}

std::shared_ptr<PlanRecorder> PlanRecording::recorder() const
{
    QMutexLocker lock(&m_mutex);
    return PlanRecorder::startCaptured() ? m_recorder : nullptr;
}

PlanRecorder::PlanRecorder(QString configDirectory, QString stateDirectory, QString policyArgument,
                           QByteArray policyBytes, StartUp startUp)
    : m_configDirectory(std::move(configDirectory))
    , m_stateDirectory(std::move(stateDirectory))
    , m_policyArgument(std::move(policyArgument))
    , m_policyBytes(std::move(policyBytes))
    , m_startUp(std::move(startUp))
{ }

QString PlanRecorder::recordName(const QString &cwd, const QString &policyArgument)
{
    return QString::fromStdString(RecordedEntry::recordName(QFile::encodeName(cwd).toStdString(),
                                                            QFile::encodeName(policyArgument).toStdString()));
}

bool PlanRecorder::policyMatches(const Policy &policy, const QString &cwd, QByteArray *bytes, QString *path,
                                 bool *absent) const
{
    // The launcher was given the policy as the engine enforces it (EngineFiles): so is the
    // policy read here before they are compared.
    const auto enforced = [&](Policy read) {
        EngineFiles::keepReadOnly(
            read, cwd, QStringList{ m_configDirectory, m_stateDirectory } + EngineFiles::gitUserConfiguration());
        EngineFiles::keepUnreadable(read, m_stateDirectory, m_configDirectory);
        return read;
    };
    *absent = false;
    if (!m_policyArgument.isEmpty()) {
        *path = m_policyArgument;
        *bytes = m_policyBytes;
    } else {
        *path = QDir(m_configDirectory).filePath(QStringLiteral("policy.json"));
        bool ok = false;
        *bytes = readAll(*path, absent, &ok);
        if (!ok)
            return false;
        if (*absent)
            return policy == enforced(Policy::defaults());
    }
    const Result<QJsonObject> json = parseJsonObject(*bytes, *path);
    if (!json.ok())
        return false;
    const Result<Policy> parsed = Policy::fromJson(json.value(), *path);
    return parsed.ok() && enforced(parsed.value()) == policy;
}

bool PlanRecorder::settingsMatch(bool landlockSeccompSelected, QByteArray *bytes, bool *absent) const
{
    const QString path = QDir(m_configDirectory).filePath(QStringLiteral("settings.json"));
    bool ok = false;
    *bytes = readAll(path, absent, &ok);
    if (!ok)
        return false;
    if (*absent)
        return !landlockSeccompSelected; // no selection: builtin:auto, strongest tier
    const Result<QJsonObject> json = parseJsonObject(*bytes, path);
    if (!json.ok())
        return false;
    QStringList notices;
    const Result<SettingsDocument> document = SettingsDocument::fromJson(json.value(), path, &notices);
    if (!document.ok() || !notices.isEmpty())
        return false;
    const BackendRef autoRef = BackendRef::builtin(QStringLiteral("auto"));
    if (document.value().active && *document.value().active != autoRef)
        return false;
    const QJsonObject values = document.value().backends.value(autoRef.toString());
    for (auto it = values.begin(); it != values.end(); ++it) {
        if (it.key() != QLatin1String("tier"))
            return false;
    }
    const QString tier = values.value(QStringLiteral("tier")).toString(QStringLiteral("strongest"));
    return tier == (landlockSeccompSelected ? QStringLiteral("landlock-seccomp") : QStringLiteral("strongest"));
}

void PlanRecorder::record(Evidence evidence) const
{
    const Start &state = start();
    const QString cwd = evidence.input.request.cwd;
    const QString home = qEnvironmentVariable("HOME");
    // A record is found by its cwd alone, so a command whose workspace is not its cwd leaves none.
    if (!state.captured || state.spoke.load() || home.isEmpty() || !evidence.input.homePath.isEmpty()
        || evidence.serialized.isEmpty() || !evidence.input.request.workspace.isEmpty())
        return;
    QByteArray policyBytes;
    QString policyPath;
    bool policyAbsent = false;
    QByteArray settingsBytes;
    bool settingsAbsent = false;
    if (!policyMatches(evidence.requestedPolicy, cwd, &policyBytes, &policyPath, &policyAbsent)
        || !settingsMatch(evidence.landlockSeccompSelected, &settingsBytes, &settingsAbsent))
        return;

    // The plan without its command: sandbox-init's configuration is head, one "arg" record
    // per argument, tail (SandboxPlan::serialize() writes the arguments right after the tier).
    std::string argumentRecords;
    for (const QString &arg : evidence.input.request.argv)
        init::appendRecord(argumentRecords, init::key::kArg, { QFile::encodeName(arg).toStdString() });
    const QByteArray arguments = QByteArray::fromStdString(argumentRecords);
    std::string firstArgument(1, '\0');
    init::appendRecord(firstArgument, init::key::kArg, {});
    const qsizetype at = evidence.serialized.indexOf(QByteArray::fromStdString(firstArgument));
    if (at < 0 || evidence.serialized.mid(at + 1, arguments.size()) != arguments)
        return;
    const QByteArray head = evidence.serialized.left(at + 1);
    const QByteArray tail = evidence.serialized.mid(at + 1 + arguments.size());

    Writer out;
    out.item("sandbox-run-plan", { "1" });
    out.item("uid", { QByteArray::number(::geteuid()) });
    out.item("cwd", { QFile::encodeName(cwd) });
    out.item("policy", { QFile::encodeName(m_policyArgument) });
    out.item("env", { state.environmentDigest });
    out.item("full", { QFile::encodeName(QCoreApplication::applicationFilePath()) });
    out.item("init", { QFile::encodeName(evidence.initPath) });
    out.item("spawnms", { QByteArray::number(evidence.spawnBoundMs) });
    out.item("content", { QFile::encodeName(policyPath), policyAbsent ? QByteArray("-") : sha256Hex(policyBytes) });
    out.item("content",
             { QFile::encodeName(QDir(m_configDirectory).filePath(QStringLiteral("settings.json"))),
               settingsAbsent ? QByteArray("-") : sha256Hex(settingsBytes) });

    // The kernel: what KernelProbe::conditions() compares, read now; the launcher checked
    // that the probe cache answers with the tier this plan has under them.
    struct utsname kernel = {};
    if (::uname(&kernel) != 0)
        return;
    out.item("uname", { QByteArray(kernel.release), QByteArray(kernel.version) });
    QStringList kernelFiles{ QStringLiteral("/proc/sys/kernel/random/boot_id"),
                             QStringLiteral("/proc/sys/kernel/apparmor_restrict_unprivileged_userns"),
                             QStringLiteral("/proc/sys/kernel/unprivileged_userns_clone"),
                             QStringLiteral("/proc/sys/user/max_user_namespaces"),
                             QStringLiteral("/proc/sys/user/max_mnt_namespaces"),
                             QStringLiteral("/proc/sys/user/max_pid_namespaces"),
                             QStringLiteral("/proc/sys/user/max_net_namespaces"),
                             QStringLiteral("/proc/sys/user/max_ipc_namespaces"),
                             QStringLiteral("/proc/sys/user/max_uts_namespaces"),
                             QStringLiteral("/proc/sys/user/max_cgroup_namespaces") };
    {
        bool absent = false;
        bool ok = false;
        const QByteArray restricted = readAll(kernelFiles[1], &absent, &ok);
        if (!ok)
            return;
        if (restricted.trimmed() == "1")
            kernelFiles.append(QStringLiteral("/sys/kernel/security/apparmor/profiles"));
    }
    for (const QString &file : kernelFiles) {
        bool absent = false;
        bool ok = false;
        const QByteArray bytes = readAll(file, &absent, &ok);
        if (!ok)
            return;
        out.item("content", { QFile::encodeName(file), absent ? QByteArray("-") : sha256Hex(bytes) });
    }
    bool absent = false;
    bool ok = false;
    const QByteArray mounts = readAll(QStringLiteral("/proc/self/mountinfo"), &absent, &ok);
    if (!ok || absent || mounts != evidence.mountsBefore)
        return;
    out.item("content", { "/proc/self/mountinfo", sha256Hex(mounts) });

    // The binaries and the probe cache, found as the plan's paths are.
    FilesystemReads &reads = evidence.reads;
    QStringList binaries{ evidence.initPath, QCoreApplication::applicationFilePath(),
                          QCoreApplication::applicationDirPath() + QStringLiteral("/sandboxctl"),
                          evidence.probeCacheFile };
    dl_iterate_phdr(collectObject, &binaries);
    for (const QString &binary : std::as_const(binaries))
        reads.resolved(binary);
    for (const QString &path : m_startUp.paths)
        reads.resolved(path);
    for (const QString &directory : m_startUp.directories)
        reads.listed(directory);
    if (reads.unrepeatable())
        return;
    bool changed = false;
    for (auto it = reads.directories().cbegin(); it != reads.directories().cend(); ++it) {
        const QByteArray directory = QFile::encodeName(it.key());
        if (!FilesystemReads::onLocalFilesystem(directory))
            return; // a network or FUSE filesystem may change without a new status change time
        const QByteArray self = identity(directory, evidence.buildStart, &changed);
        if (self.isEmpty())
            return;
        out.item("entry", { directory, self });
        const QByteArray prefix = directory == "/" ? QByteArray("/") : directory + '/';
        QList<QString> names(it.value().names.cbegin(), it.value().names.cend());
        std::sort(names.begin(), names.end());
        for (const QString &name : std::as_const(names)) {
            const QByteArray path = prefix + QFile::encodeName(name);
            const QByteArray entry = identity(path, evidence.buildStart, &changed);
            if (entry.isEmpty())
                return;
            out.item("entry", { path, entry });
        }
        if (it.value().listed) {
            const QByteArray digest = QByteArray::fromStdString(RecordedEntry::listing(directory.toStdString()));
            if (digest.isEmpty())
                return;
            out.item("list", { directory, digest });
        }
    }
    if (changed)
        return; // something the build read changed while it ran: the next full run records
    out.blob("plan-head", head);
    out.blob("plan-tail", tail);
    out.item("end", {});

    // Owner-only, in a directory every plan of builtin:auto denies (AutoLauncher::spawn).
    const QByteArray directory = QFile::encodeName(evidence.recordDirectory);
    struct stat dirStat = {};
    if (::lstat(directory.constData(), &dirStat) != 0 || !S_ISDIR(dirStat.st_mode) || dirStat.st_uid != ::geteuid()
        || (dirStat.st_mode & 077) != 0)
        return;
    const QByteArray name = recordName(cwd, m_policyArgument).toLatin1();
    const QByteArray temporary = directory + "/.new-" + QUuid::createUuid().toString(QUuid::Id128).toLatin1();
    const int fd = ::open(temporary.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    const QByteArray &bytes = out.bytes();
    qsizetype done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.constData() + done, size_t(bytes.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += n;
    }
    const bool written = done == bytes.size() && ::fchmod(fd, 0600) == 0;
    ::close(fd);
    const QByteArray target = directory + '/' + name;
    if (!written || ::rename(temporary.constData(), target.constData()) != 0) {
        ::unlink(temporary.constData());
        return;
    }
    // Bounded: the least recently written go first.
    QFileInfoList records
        = QDir(evidence.recordDirectory).entryInfoList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Time);
    for (qsizetype i = kMaxRecords; i < records.size(); ++i)
        QFile::remove(records[i].absoluteFilePath());
}

} // namespace sandbox
