#include "EngineRuntime.h"

#include "ContainerSpec.h"
#include "RemoteDockerProcess.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QUuid>

namespace sandbox::power {

namespace {

// The text of a container's log stream: frames of [stream, 0, 0, 0, size (big-endian)] and
// size bytes; anything that is not framed so is taken as it is.
QString demultiplexed(const QByteArray &body)
{
    QByteArray text;
    qsizetype at = 0;
    while (at + 8 <= body.size()) {
        const auto *header = reinterpret_cast<const uchar *>(body.constData() + at);
        if (header[0] > 2 || header[1] || header[2] || header[3])
            return QString::fromUtf8(body).trimmed();
        const quint32 size
            = (quint32(header[4]) << 24) | (quint32(header[5]) << 16) | (quint32(header[6]) << 8) | quint32(header[7]);
        text += body.mid(at + 8, size);
        at += 8 + qsizetype(size);
    }
    return QString::fromUtf8(text).trimmed();
}

} // namespace

Result<EngineRuntime::Offer> EngineRuntime::read(const DockerApi &api, int timeoutMs)
{
    Result<DockerApi::Response> info = api.get(QStringLiteral("/info"), timeoutMs);
    if (!info.ok())
        return info.error();
    if (info.value().status != 200)
        return Error{
            api.socketPath(),
            tr("The runtime did not say which OCI runtimes it offers (GET /info: %1).").arg(info.value().message()),
            {}
        };
    const QJsonObject json = info.value().json();
    Offer offer;
    const QJsonObject runtimes = json.value(QStringLiteral("Runtimes")).toObject();
    for (auto it = runtimes.begin(); it != runtimes.end(); ++it) {
        offer.names.append(it.key());
        offer.paths.insert(it.key(), it.value().toObject().value(QStringLiteral("path")).toString());
    }
    offer.names.sort();
    offer.defaultRuntime = json.value(QStringLiteral("DefaultRuntime")).toString();
    offer.kernelVersion = json.value(QStringLiteral("KernelVersion")).toString();
    return offer;
}

Result<EngineRuntime> EngineRuntime::choose(const Offer &offer, const QString &setting, const QString &endpoint)
{
    const QString offered = offer.names.isEmpty() ? tr("none") : offer.names.join(QStringLiteral(", "));
    if (!setting.isEmpty() && !offer.names.contains(setting))
        return Error{ QStringLiteral("runtime"),
                      tr("The runtime at %1 has no OCI runtime \"%2\". It offers: %3 (default: %4). Set the runtime "
                         "to one of them, or leave it empty for the default.")
                          .arg(endpoint, setting, offered,
                               offer.defaultRuntime.isEmpty() ? tr("not said") : offer.defaultRuntime),
                      {} };
    EngineRuntime runtime;
    runtime.m_requested = setting;
    runtime.m_name = setting.isEmpty() ? offer.defaultRuntime : setting;
    runtime.m_paths = offer.paths;
    runtime.m_path = offer.paths.value(runtime.m_name);
    runtime.m_kernelVersion = offer.kernelVersion;
    return runtime;
}

Status EngineRuntime::probe(const DockerApi &api, const QString &image, const QString &helperProgram,
                            const QString &user, const QString &offered, int timeoutMs, Helper placement)
{
    const QString helper = QString::fromLatin1(ContainerSpec::helperTarget);
    // As every command's container is made, with the gate guarding the container's /tmp.
    QJsonObject host{ { QStringLiteral("Tmpfs"),
                        QJsonObject{ { QStringLiteral("/tmp"), QStringLiteral("rw,nosuid,nodev,mode=1777") } } },
                      { QStringLiteral("ReadonlyRootfs"), true },
                      { QStringLiteral("CapDrop"), QJsonArray{ QStringLiteral("ALL") } },
                      { QStringLiteral("SecurityOpt"), QJsonArray{ QStringLiteral("no-new-privileges") } },
                      { QStringLiteral("NetworkMode"), QStringLiteral("none") } };
    if (placement == Helper::Mounted)
        host.insert(QStringLiteral("Binds"),
                    QJsonArray{ QString(helperProgram + QLatin1Char(':') + helper + QStringLiteral(":ro")) });
    else
        host.insert(QStringLiteral("Mounts"),
                    QJsonArray{ QJsonObject{
                        { QStringLiteral("Type"), QStringLiteral("volume") },
                        { QStringLiteral("Target"), QString::fromLatin1(ContainerSpec::remoteFolder) } } });
    if (!m_requested.isEmpty())
        host.insert(QStringLiteral("Runtime"), m_requested);
    const QJsonObject labels{ { QStringLiteral("dev.sandbox-studio.probe"), QStringLiteral("gate") } };
    const QJsonObject body{ { QStringLiteral("Image"), image },
                            { QStringLiteral("Entrypoint"), QJsonArray{ helper } },
                            { QStringLiteral("Cmd"),
                              QJsonArray{ QStringLiteral("--gate"), QStringLiteral("--guard"), QStringLiteral("/tmp"),
                                          QStringLiteral("--"), helper, QStringLiteral("--probe") } },
                            { QStringLiteral("User"), user },
                            { QStringLiteral("WorkingDir"), QStringLiteral("/tmp") },
                            { QStringLiteral("NetworkDisabled"), true },
                            { QStringLiteral("Labels"), labels },
                            { QStringLiteral("HostConfig"), host } };
    const auto runtimeName = [this] { return m_name.isEmpty() ? tr("the engine's default runtime") : m_name; };
    const QString choose = tr("Choose another runtime (offered: %1), or leave the runtime empty.").arg(offered);
    auto failed = [&runtimeName, &choose](const QString &what) {
        return Error{
            QStringLiteral("runtime"),
            tr("The OCI runtime %1 cannot run this backend's containers: %2. %3").arg(runtimeName(), what, choose),
            {}
        };
    };
    const QString name = QStringLiteral("sandbox-studio-probe-") + QUuid::createUuid().toString(QUuid::Id128).left(16);
    Result<DockerApi::Response> created = api.post(QStringLiteral("/containers/create?name=") + name, body, timeoutMs);
    if (!created.ok())
        return created.error();
    if (created.value().status != 201)
        return failed(tr("the runtime could not create a container under it (%1)").arg(created.value().message()));
    const QString id = created.value().json().value(QStringLiteral("Id")).toString();
    auto removed = [&api, &id, timeoutMs](const Status &status) {
        api.remove(QStringLiteral("/containers/") + id + QStringLiteral("?force=true&v=true"), timeoutMs);
        return status;
    };
    if (placement == Helper::Copied) {
        const QStringList ids = user.split(QLatin1Char(':'));
        if (const QString why = RemoteDockerProcess::putHelper(api, id, helperProgram, QStringLiteral("probe"),
                                                               ids.value(0).toUInt(), ids.value(1).toUInt(), timeoutMs);
            !why.isEmpty())
            return removed(Error{ QStringLiteral("endpoint"), why, {} });
    }
    const QString used = runtimeOf(api, id, timeoutMs);
    if (!m_requested.isEmpty() && used != m_requested)
        return removed(
            Error{ QStringLiteral("runtime"),
                   tr("The runtime at %1 was asked for the OCI runtime %2 but made the container under %3, "
                      "so nothing runs under this setting (Podman 4.3, for one, ignores the runtime a request "
                      "names: make %2 its default runtime instead, [engine] runtime in containers.conf, and "
                      "leave this setting empty).")
                       .arg(api.socketPath(), m_requested, used.isEmpty() ? tr("one it does not name") : used),
                   {} });
    if (!used.isEmpty() && used != m_name) {
        m_name = used;
        m_path = m_paths.value(used);
    }
    Result<DockerApi::Response> started
        = api.post(QStringLiteral("/containers/") + id + QStringLiteral("/start"), {}, timeoutMs);
    if (!started.ok() || (started.value().status != 204 && started.value().status != 304))
        return removed(failed(tr("it could not start a container (%1)")
                                  .arg(started.ok() ? started.value().message() : started.error().message)));
    Result<DockerApi::Response> waited
        = api.post(QStringLiteral("/containers/") + id + QStringLiteral("/wait"), {}, timeoutMs);
    if (!waited.ok() || waited.value().status != 200)
        return removed(failed(tr("the container of the probe did not end (%1)")
                                  .arg(waited.ok() ? waited.value().message() : waited.error().message)));
    const int exitCode = waited.value().json().value(QStringLiteral("StatusCode")).toInt(-1);
    if (exitCode == 0)
        return removed(Status());
    Result<DockerApi::Response> logs
        = api.get(QStringLiteral("/containers/") + id + QStringLiteral("/logs?stdout=1&stderr=1"), timeoutMs);
    const QString said = logs.ok() ? demultiplexed(logs.value().body) : QString();
    const QString gvisor = isGvisor() && said.contains(QLatin1String("seccomp"))
        ? tr(" gVisor's kernel (the Sentry) offers no seccomp user notification (it refuses "
             "SECCOMP_FILTER_FLAG_NEW_LISTENER), which the gate needs to judge writes and connections.")
        : QString();
    return removed(Error{ QStringLiteral("runtime"),
                          tr("Commands cannot run confined under the OCI runtime %1, so this backend runs none there: "
                             "sandbox-init's write gate, which every command runs under, ended with status %2 "
                             "there: %3.%4 %5")
                              .arg(runtimeName())
                              .arg(exitCode)
                              .arg(said.isEmpty() ? tr("(it said nothing)") : said.left(500), gvisor, choose),
                          {} });
}

QString EngineRuntime::runtimeOf(const DockerApi &api, const QString &containerId, int timeoutMs)
{
    // Docker Engine says it in HostConfig.Runtime; Podman, whose HostConfig.Runtime reads
    // "oci", in its own inspection's OCIRuntime.
    Result<DockerApi::Response> inspected
        = api.get(QStringLiteral("/containers/") + containerId + QStringLiteral("/json"), timeoutMs);
    QString used = inspected.ok() && inspected.value().status == 200 ? inspected.value()
                                                                           .json()
                                                                           .value(QStringLiteral("HostConfig"))
                                                                           .toObject()
                                                                           .value(QStringLiteral("Runtime"))
                                                                           .toString()
                                                                     : QString();
    if (!used.isEmpty() && used != QLatin1String("oci"))
        return used;
    Result<DockerApi::Response> podman
        = api.get(QStringLiteral("/libpod/containers/") + containerId + QStringLiteral("/json"), timeoutMs);
    return podman.ok() && podman.value().status == 200
        ? podman.value().json().value(QStringLiteral("OCIRuntime")).toString()
        : QString();
}

bool EngineRuntime::isGvisor() const
{
    return m_name == QLatin1String("runsc") || QFileInfo(m_path).fileName() == QLatin1String("runsc");
}

bool EngineRuntime::isLinuxRuntime() const
{
    for (const char *known : { "runc", "crun" }) {
        if (m_name == QLatin1String(known) || QFileInfo(m_path).fileName() == QLatin1String(known))
            return true;
    }
    return false;
}

QString EngineRuntime::kernelClaim() const
{
    const QString name = m_name.isEmpty() ? tr("the engine's default runtime") : m_name;
    if (isGvisor())
        return tr("The container runs under the OCI runtime %1, gVisor: its user-space kernel, the Sentry, serves "
                  "the commands' system calls and enforces the namespaces, mounts, capabilities and sandbox-init's "
                  "seccomp filters above (the runtime's default seccomp profile only where runsc runs with "
                  "--oci-seccomp); the host's Linux kernel serves only the Sentry's own calls.")
            .arg(name);
    if (isLinuxRuntime())
        return tr("The container runs under the OCI runtime %1: the host's Linux kernel%2 enforces the namespaces, "
                  "mounts, capabilities and seccomp filters above.")
            .arg(name, m_kernelVersion.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(m_kernelVersion));
    return tr("The container runs under the OCI runtime %1, which this backend does not know: which kernel enforces "
              "the namespaces, mounts, capabilities and seccomp filters above is that runtime's (the host's Linux "
              "kernel under runc and crun, gVisor's Sentry under runsc).")
        .arg(name);
}

} // namespace sandbox::power
