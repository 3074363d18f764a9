// What the filtering SSH agent and the connect() supervision it brings cost, side by side:
// SSH signatures (`ssh-keygen -Y sign` against Debian's ssh-agent) straight to the user's
// agent, through the engine's filter, and inside both tiers of the auto launcher; and TCP
// connects on loopback natively and in both tiers, without and with an agent in the policy
// (with one, sandbox-init makes every connect() on the command's own socket). Each figure is
// the median of 5 runs of a loop timed by the command itself, per operation, in microseconds.
// Measures only; never fails on a figure.
#include "LauncherRun.h"
#include "OpenSshRig.h"
#include "net/SshAgentFilter.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

using namespace sandbox;
using namespace sandbox::test;

namespace {

// Each run's figure is already a mean over its signatures or connects: a median of three is enough.
constexpr int kRuns = 3;
constexpr int kSignatures = 20;
constexpr int kConnects = 1000;

// The loop prints its own time per operation in microseconds ("per-op N").
const char *const kSignLoop = "for i in $(seq %1); do ssh-keygen -q -Y sign -f listed.pub -n file data && rm data.sig "
                              "|| exit 1; done";
const char *const kConnectScript
    = "import socket,threading,time\n"
      "srv=socket.socket(); srv.bind(('127.0.0.1',0)); srv.listen(512); addr=srv.getsockname()\n"
      "def serve():\n"
      " while True:\n"
      "  c,_=srv.accept(); c.close()\n"
      "threading.Thread(target=serve, daemon=True).start()\n"
      "n=int(__import__('sys').argv[1]); start=time.perf_counter_ns()\n"
      "for i in range(n):\n"
      " s=socket.socket(); s.connect(addr); s.close()\n"
      "print('per-op', (time.perf_counter_ns()-start)//n//1000)\n";

QString timed(const QString &loop, int count)
{
    return QStringLiteral("start=$(date +%s%N); %1; end=$(date +%s%N); echo per-op $(( (end - start) / %2 / 1000 ))")
        .arg(loop.arg(count))
        .arg(count);
}

double perOp(const QByteArray &out)
{
    const int at = out.lastIndexOf("per-op ");
    if (at < 0)
        return -1;
    return out.mid(at + 7).trimmed().split('\n').first().toDouble();
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? -1 : values[values.size() / 2];
}

void printRow(const char *name, double figure)
{
    if (figure < 0)
        std::printf("| %-52s | %10s |\n", name, "—");
    else
        std::printf("| %-52s | %10.0f |\n", name, figure);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    OpenSshRig rig;
    if (const QString problem = rig.start(); !problem.isEmpty()) {
        std::fprintf(stderr, "bench_sshagent: %s\n", qPrintable(problem));
        return 1;
    }
    QTemporaryDir state(QStringLiteral("/var/tmp/bench-agent-state-XXXXXX"));
    QTemporaryDir workspace(QStringLiteral("/var/tmp/bench-agent-XXXXXX"));
    if (!state.isValid() || !workspace.isValid()
        || !QFile::copy(rig.listedKey(), workspace.filePath(QStringLiteral("listed.pub")))
        || !OpenSshRig::writeFile(workspace.filePath(QStringLiteral("data")), "to be signed\n")
        || !OpenSshRig::writeFile(workspace.filePath(QStringLiteral("connect.py")), kConnectScript)) {
        std::fprintf(stderr, "bench_sshagent: cannot prepare the workspace\n");
        return 1;
    }
    qputenv("SSH_AUTH_SOCK", QFile::encodeName(rig.agentSocket()));

    PolicySshAgent agent;
    agent.keys = { rig.listedFingerprint() };
    agent.confirm = PolicySshAgent::Confirm::Never;
    auto sandboxed = [&](int tier, bool withAgent, const QStringList &command) {
        FixedAnswerHost host(true, state.path());
        auto launcher = preparedLauncher(tier == 1 ? QStringLiteral("strongest") : QStringLiteral("landlock-seccomp"));
        if (!launcher)
            return -1.0;
        launcher->attach(&host);
        Policy policy = Policy::defaults();
        policy.network = Policy::NetworkMode::Full;
        if (withAgent)
            policy.sshAgent = agent;
        const RunResult run = runIn(*launcher, command, policy, workspace.path());
        return run.status.exitCode == 0 ? perOp(run.out) : -1.0;
    };
    auto native = [&](const QStringList &command, const QString &authSocket) {
        // The rig waits with the event loop running, so that a filter on this thread answers.
        const OpenSshRig::Run run = rig.run(command.first(), command.mid(1), authSocket, {}, workspace.path());
        return run.exitCode == 0 ? perOp(run.out) : -1.0;
    };
    auto repeated = [](const std::function<double()> &once) {
        std::vector<double> figures;
        for (int i = 0; i < kRuns; ++i) {
            const double figure = once();
            if (figure < 0)
                return -1.0;
            figures.push_back(figure);
        }
        return median(figures);
    };

    const QStringList sign{ QStringLiteral("sh"), QStringLiteral("-c"),
                            timed(QString::fromLatin1(kSignLoop), kSignatures) };
    SshAgentFilter filter(agent, rig.agentSocket());
    const QString filterSocket = state.filePath(QStringLiteral("filter/agent.sock"));
    const bool filtering = filter.listen(filterSocket).ok();

    std::printf("\nSSH signatures (ssh-keygen -Y sign, one process each), %d per run, %d runs: median µs per "
                "signature\n\n",
                kSignatures, kRuns);
    std::printf("| %-52s | %10s |\n|%s|%s|\n", "path", "µs", std::string(54, '-').c_str(),
                std::string(12, '-').c_str());
    printRow("the user's agent, directly", repeated([&] { return native(sign, rig.agentSocket()); }));
    printRow("through the engine's filter", filtering ? repeated([&] { return native(sign, filterSocket); }) : -1.0);
    printRow("auto tier 1, the command's own filter", repeated([&] { return sandboxed(1, true, sign); }));
    printRow("auto tier 2, the command's own filter", repeated([&] { return sandboxed(2, true, sign); }));

    const QStringList connects{ QStringLiteral("python3"), QStringLiteral("connect.py"), QString::number(kConnects) };
    std::printf("\nTCP connects on loopback (connect and close), %d per run, %d runs: median µs per connect\n\n",
                kConnects, kRuns);
    std::printf("| %-52s | %10s |\n|%s|%s|\n", "path", "µs", std::string(54, '-').c_str(),
                std::string(12, '-').c_str());
    printRow("native", repeated([&] { return native(connects, QString()); }));
    printRow("auto tier 1, no agent", repeated([&] { return sandboxed(1, false, connects); }));
    printRow("auto tier 1, with an agent (connect() supervised)",
             repeated([&] { return sandboxed(1, true, connects); }));
    printRow("auto tier 2, no agent", repeated([&] { return sandboxed(2, false, connects); }));
    printRow("auto tier 2, with an agent (connect() supervised)",
             repeated([&] { return sandboxed(2, true, connects); }));
    std::printf("\n");
    return 0;
}
