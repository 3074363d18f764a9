// Policy to the plan sandbox-init.exe carries out on Windows: the identity, token and job
// object settings, an ACL change per path (deny wins, repositories' control files stay
// read-only), the network (off, only the proxy's port, or full), what is undone, and the
// plan's text: a round trip, and a parser that refuses anything else naming line and field.
#include "PolicyVariants.h"
#include "core/workspace/RepositoryRules.h"
#include "launchers/auto/windows/WindowsPlanBuilder.h"

#include <QRandomGenerator>
#include <QTest>

using namespace sandbox;
using windows::Plan;

namespace {

const QString kHome = QStringLiteral("C:/Users/tester");
const QString kWorkspace = QStringLiteral("C:/Users/tester/project");
const QString kTemp = QStringLiteral("C:/Users/tester/AppData/Local/Temp");
constexpr quint16 kProxyPort = 41873;

WindowsPlanBuilder::Input input(const Policy &policy, bool expose = false)
{
    WindowsPlanBuilder::Input in;
    in.policy = policy;
    in.home = kHome;
    in.workspace = kWorkspace;
    in.temporaryDirectory = kTemp;
    in.proxyPort = kProxyPort;
    in.exposeHostExecution = expose;
    return in;
}

QString native(const QString &raw)
{
    QString path = raw;
    if (path.startsWith(QLatin1String("~/")))
        path = kHome + path.mid(1);
    else if (path.startsWith(QLatin1String("${workspace}")))
        path = kWorkspace + path.mid(12);
    else if (path == QLatin1String("/"))
        path = kHome;
    else if (path == QLatin1String("/tmp") || path.startsWith(QLatin1String("/tmp/")))
        path = kTemp + path.mid(4);
    else if (path.startsWith(QLatin1Char('/')))
        path = QStringLiteral("C:") + path;
    return path.replace(QLatin1Char('/'), QLatin1Char('\\'));
}

bool has(const Plan &plan, Plan::Access access, const QString &path)
{
    for (const Plan::PathRule &rule : plan.paths) {
        if (rule.access == access && QString::fromStdString(rule.path) == path)
            return true;
    }
    return false;
}

bool hasAny(const Plan &plan, const QString &path)
{
    for (const Plan::PathRule &rule : plan.paths) {
        if (QString::fromStdString(rule.path) == path)
            return true;
    }
    return false;
}

// Whether the plan's firewall rules block `protocol` to `address`:`port`.
bool blocks(const Plan &plan, const std::string &protocol, const std::string &address, int port)
{
    const bool loopback = address == "127.0.0.1" || address == "::1";
    for (const Plan::FirewallRule &rule : plan.blocked) {
        const bool protocolMatches = rule.protocol == "any" || rule.protocol == protocol;
        const bool addressMatches = rule.remoteAddress == "any" || rule.remoteAddress == address
            || (rule.remoteAddress == "non-loopback" && !loopback);
        const bool portMatches
            = (rule.firstPort == 0 && rule.lastPort == 0) || (port >= rule.firstPort && port <= rule.lastPort);
        if (protocolMatches && addressMatches && portMatches)
            return true;
    }
    return false;
}

QString valid()
{
    Policy policy = Policy::defaults();
    policy.network = Policy::NetworkMode::Allowlist;
    policy.allowedDomains = { QStringLiteral("example.com") };
    const Result<Plan> plan = WindowsPlanBuilder::build(input(policy));
    return plan ? QString::fromStdString(plan.value().serialize()) : QString();
}

} // namespace

class TestWindowsPlan final : public QObject
{
    Q_OBJECT

private slots:
    void variants_data();
    void variants();
    void proxyPortIsTheOnlyWayOut_data();
    void proxyPortIsTheOnlyWayOut();
    void deniedWinsOverGrantsInside();
    void accountIdentity();
    void nativePaths();
    void undoSteps();
    void refusesBadInput();
    void parserRefusals_data();
    void parserRefusals();
    void everyPrefixIsRefused();
    void mutationsAreRefusedOrRoundTrip();
    void escapesRoundTrip();
};

void TestWindowsPlan::variants_data()
{
    QTest::addColumn<Policy>("policy");
    QTest::addColumn<bool>("expose");
    for (const PolicyVariant &variant : policyVariants(kProxyPort))
        QTest::addRow("%s", qPrintable(variant.name)) << variant.policy << variant.exposeHostExecution;
}

void TestWindowsPlan::variants()
{
    QFETCH(Policy, policy);
    QFETCH(bool, expose);
    const Result<Plan> built = WindowsPlanBuilder::build(input(policy, expose));
    QVERIFY2(built, built ? "" : qPrintable(built.error().toString()));
    const Plan &plan = built.value();

    const std::string text = plan.serialize();
    const windows::ParsedPlan parsed = Plan::parse(text);
    QVERIFY2(parsed.plan, parsed.error.c_str());
    QVERIFY(*parsed.plan == plan);
    QCOMPARE(parsed.plan->serialize(), text);

    QCOMPARE(plan.identity, Plan::Identity::AppContainer);
    QCOMPARE(QString::fromStdString(plan.identityName), WindowsPlanBuilder::kDefaultAppContainer);
    QVERIFY(plan.restrictedToken);
    QCOMPARE(plan.integrity, std::string("low"));
    QVERIFY(plan.killOnJobClose);
    QVERIFY(!plan.allowBreakaway);
    QCOMPARE(plan.activeProcessLimit, 1024);
    QVERIFY(plan.dieOnUnhandledException);
    QCOMPARE(plan.uiRestrictions, !expose);

    for (const QString &raw : policy.denied)
        QVERIFY2(has(plan, Plan::Access::Deny, native(raw)), qPrintable(native(raw)));
    for (const QString &raw : policy.readOnly)
        QVERIFY2(has(plan, Plan::Access::ReadOnly, native(raw)), qPrintable(native(raw)));
    QVERIFY(has(plan, Plan::Access::Read, kHome.toUpper().left(1) + kHome.mid(1).replace(u'/', u'\\')));
    QVERIFY(has(plan, Plan::Access::Write, native(QStringLiteral("${workspace}"))));
    QVERIFY(has(plan, Plan::Access::Write, native(QStringLiteral("/tmp"))));
    const QString git = native(QStringLiteral("${workspace}/.git"));
    QVERIFY(has(plan, Plan::Access::KeepEntry, git));
    for (const auto *entries : { &repository::controlEntries(), &repository::transientStateEntries() }) {
        for (const std::string &entry : *entries) {
            const QString path = git + QLatin1Char('\\') + QString::fromStdString(entry).replace(u'/', u'\\');
            QVERIFY2(has(plan, Plan::Access::ReadOnly, path), qPrintable(path));
        }
    }
    QVERIFY(!hasAny(plan, git + QStringLiteral("\\objects")));
    QVERIFY(!hasAny(plan, git + QStringLiteral("\\HEAD")));

    switch (policy.network) {
    case Policy::NetworkMode::None:
        QCOMPARE(plan.network, Plan::Network::Off);
        QVERIFY(plan.capabilities.empty());
        QVERIFY(!plan.loopbackExemption);
        QVERIFY(blocks(plan, "tcp", "127.0.0.1", kProxyPort));
        QVERIFY(blocks(plan, "udp", "8.8.8.8", 53));
        break;
    case Policy::NetworkMode::Allowlist:
        QCOMPARE(plan.network, Plan::Network::Proxy);
        QCOMPARE(plan.proxyPort, int(kProxyPort));
        QVERIFY(plan.capabilities.empty());
        QVERIFY(plan.loopbackExemption);
        QVERIFY(!blocks(plan, "tcp", "127.0.0.1", kProxyPort));
        break;
    case Policy::NetworkMode::Full:
        QCOMPARE(plan.network, Plan::Network::Full);
        QCOMPARE(plan.capabilities, (std::vector<std::string>{ "internetClient", "privateNetworkClientServer" }));
        QVERIFY(plan.blocked.empty());
        break;
    }
}

void TestWindowsPlan::proxyPortIsTheOnlyWayOut_data()
{
    QTest::addColumn<int>("port");
    for (int port : { 1, 2, 3128, int(kProxyPort), 65534, 65535 })
        QTest::addRow("%d", port) << port;
}

void TestWindowsPlan::proxyPortIsTheOnlyWayOut()
{
    QFETCH(int, port);
    Policy policy = Policy::defaults();
    policy.network = Policy::NetworkMode::Allowlist;
    policy.allowedDomains = { QStringLiteral("example.com") };
    WindowsPlanBuilder::Input in = input(policy);
    in.proxyPort = quint16(port);
    const Result<Plan> plan = WindowsPlanBuilder::build(in);
    QVERIFY(plan);
    for (int other = 1; other <= 65535; ++other) {
        if (blocks(plan.value(), "tcp", "127.0.0.1", other) != (other != port))
            QFAIL(qPrintable(QStringLiteral("port %1 with the proxy on %2").arg(other).arg(port)));
    }
    QVERIFY(blocks(plan.value(), "udp", "127.0.0.1", port));
    QVERIFY(blocks(plan.value(), "tcp", "::1", port));
    QVERIFY(blocks(plan.value(), "tcp", "93.184.215.14", 443));
    QVERIFY(blocks(plan.value(), "udp", "10.0.0.1", 53));
    const windows::ParsedPlan parsed = Plan::parse(plan.value().serialize());
    QVERIFY2(parsed.plan, parsed.error.c_str());
    QVERIFY(*parsed.plan == plan.value());
}

void TestWindowsPlan::deniedWinsOverGrantsInside()
{
    // An ACE on a path itself comes before inherited ones: a grant inside a denied path
    // would uncover it, so there is none.
    Policy policy = Policy::defaults();
    policy.writable.append(QStringLiteral("~/.aws/cli/cache"));
    policy.readable.append(QStringLiteral("~/.SSH/known_hosts"));
    const Result<Plan> plan = WindowsPlanBuilder::build(input(policy));
    QVERIFY(plan);
    QVERIFY(has(plan.value(), Plan::Access::Deny, native(QStringLiteral("~/.aws"))));
    QVERIFY(!hasAny(plan.value(), native(QStringLiteral("~/.aws/cli/cache"))));
    QVERIFY(!hasAny(plan.value(), native(QStringLiteral("~/.aws/cli/cache/.git"))));
    QVERIFY(!hasAny(plan.value(), native(QStringLiteral("~/.SSH/known_hosts"))));
    Policy snap = Policy::defaults();
    snap.writable.append(QStringLiteral("~/snap/firefox/common/.mozilla/cache"));
    const Result<Plan> wildcard = WindowsPlanBuilder::build(input(snap));
    QVERIFY(wildcard);
    QVERIFY(has(wildcard.value(), Plan::Access::Deny, native(QStringLiteral("~/snap/*/*/.mozilla"))));
    QVERIFY(!hasAny(wildcard.value(), native(QStringLiteral("~/snap/firefox/common/.mozilla/cache"))));
}

void TestWindowsPlan::accountIdentity()
{
    Policy policy = Policy::defaults();
    policy.network = Policy::NetworkMode::Full;
    WindowsPlanBuilder::Input in = input(policy);
    in.identity = Plan::Identity::Account;
    const Result<Plan> plan = WindowsPlanBuilder::build(in);
    QVERIFY(plan);
    QCOMPARE(plan.value().identity, Plan::Identity::Account);
    QCOMPARE(QString::fromStdString(plan.value().identityName), WindowsPlanBuilder::kDefaultAccount);
    QCOMPARE(plan.value().integrity, std::string("medium"));
    QVERIFY(plan.value().capabilities.empty());
    QVERIFY(!plan.value().loopbackExemption);
    const windows::ParsedPlan parsed = Plan::parse(plan.value().serialize());
    QVERIFY2(parsed.plan, parsed.error.c_str());
    QVERIFY(*parsed.plan == plan.value());
}

void TestWindowsPlan::nativePaths()
{
    const WindowsPlanBuilder::Input in = input(Policy::defaults());
    QCOMPARE(WindowsPlanBuilder::nativePath(QStringLiteral("/"), in), QStringLiteral("C:\\Users\\tester"));
    QCOMPARE(WindowsPlanBuilder::nativePath(QStringLiteral("/tmp"), in),
             QStringLiteral("C:\\Users\\tester\\AppData\\Local\\Temp"));
    QCOMPARE(WindowsPlanBuilder::nativePath(QStringLiteral("/tmp/x/y"), in),
             QStringLiteral("C:\\Users\\tester\\AppData\\Local\\Temp\\x\\y"));
    QCOMPARE(WindowsPlanBuilder::nativePath(QStringLiteral("/tmpfoo"), in), QStringLiteral("C:\\tmpfoo"));
    QCOMPARE(WindowsPlanBuilder::nativePath(QStringLiteral("/etc/hosts"), in), QStringLiteral("C:\\etc\\hosts"));
    QCOMPARE(WindowsPlanBuilder::nativePath(QStringLiteral("d:/data"), in), QStringLiteral("D:\\data"));
    QCOMPARE(WindowsPlanBuilder::nativePath(QStringLiteral("D:/"), in), QStringLiteral("D:\\"));
}

void TestWindowsPlan::undoSteps()
{
    Policy policy = Policy::defaults();
    policy.network = Policy::NetworkMode::Allowlist;
    policy.allowedDomains = { QStringLiteral("example.com") };
    const Result<Plan> plan = WindowsPlanBuilder::build(input(policy));
    QVERIFY(plan);
    const std::vector<std::string> steps = plan.value().undoSteps();
    QCOMPARE(steps.size(), plan.value().paths.size() + plan.value().blocked.size() + 2);
    for (size_t i = 0; i < plan.value().paths.size(); ++i)
        QCOMPARE(QString::fromStdString(steps[i]),
                 QStringLiteral("remove-ace\t%1\t%2")
                     .arg(QLatin1String(Plan::accessName(plan.value().paths[i].access)),
                          QString::fromStdString(plan.value().paths[i].path)));
    QCOMPARE(steps[steps.size() - 2], std::string("remove-loopback-exemption\tSandboxStudio.Sandbox"));
    QCOMPARE(steps.back(), std::string("delete-appcontainer-profile\tSandboxStudio.Sandbox"));
}

void TestWindowsPlan::refusesBadInput()
{
    Policy denyingWorkspace = Policy::defaults();
    denyingWorkspace.denied.append(QStringLiteral("~/PROJECT"));
    Result<Plan> plan = WindowsPlanBuilder::build(input(denyingWorkspace));
    QVERIFY(!plan);
    QCOMPARE(plan.error().where, QStringLiteral("spawn.cwd"));

    Policy allowlist = Policy::defaults();
    allowlist.network = Policy::NetworkMode::Allowlist;
    allowlist.allowedDomains = { QStringLiteral("example.com") };
    WindowsPlanBuilder::Input noPort = input(allowlist);
    noPort.proxyPort = 0;
    plan = WindowsPlanBuilder::build(noPort);
    QVERIFY(!plan);
    QCOMPARE(plan.error().where, QStringLiteral("policy.network"));

    WindowsPlanBuilder::Input posixHome = input(Policy::defaults());
    posixHome.home = QStringLiteral("/home/tester");
    plan = WindowsPlanBuilder::build(posixHome);
    QVERIFY(!plan);
    QCOMPARE(plan.error().where, QStringLiteral("spawn.home"));

    WindowsPlanBuilder::Input limit = input(Policy::defaults());
    limit.activeProcessLimit = 0;
    plan = WindowsPlanBuilder::build(limit);
    QVERIFY(!plan);
    QCOMPARE(plan.error().where, QStringLiteral("spawn.activeProcessLimit"));

    Policy control = Policy::defaults();
    control.denied.append(QStringLiteral("~/a\nb"));
    plan = WindowsPlanBuilder::build(input(control));
    QVERIFY(!plan);
    QCOMPARE(plan.error().where, QStringLiteral("policy.filesystem.denied[%1]").arg(control.denied.size() - 1));
}

void TestWindowsPlan::parserRefusals_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("error");
    const QString good = valid();
    QVERIFY(!good.isEmpty());
    auto replaced = [&good](const QString &from, const QString &to) {
        Q_ASSERT(good.contains(from));
        QString text = good;
        return text.replace(from, to);
    };
    QTest::addRow("empty") << QString() << QStringLiteral("line 1: sandbox-windows-plan:");
    QTest::addRow("another file") << QStringLiteral("[Unit]\nend\n") << QStringLiteral("line 1: sandbox-windows-plan:");
    QTest::addRow("version 2") << replaced(QStringLiteral("plan\t1\n"), QStringLiteral("plan\t2\n"))
                               << QStringLiteral("line 1: sandbox-windows-plan: version '2'");
    QTest::addRow("no end") << replaced(QStringLiteral("end\n"), QString())
                            << QStringLiteral(": end: the plan is cut off");
    QTest::addRow("no final line feed") << good.chopped(1) << QStringLiteral(": end: the plan is cut off");
    QTest::addRow("after end") << good + QStringLiteral("network\toff\n")
                               << QStringLiteral(": end: nothing may follow");
    QTest::addRow("unknown line") << replaced(QStringLiteral("network\t"), QStringLiteral("mount\tC:\\\nnetwork\t"))
                                  << QStringLiteral(": mount: unknown line");
    QTest::addRow("blank line") << replaced(QStringLiteral("network\t"), QStringLiteral("\nnetwork\t"))
                                << QStringLiteral(": (key): unknown line");
    QTest::addRow("identity twice") << replaced(QStringLiteral("network\t"),
                                                QStringLiteral("identity\taccount\tother\nnetwork\t"))
                                    << QStringLiteral(": identity: given twice");
    QTest::addRow("identity kind") << replaced(QStringLiteral("identity\tappcontainer"),
                                               QStringLiteral("identity\tuser"))
                                   << QStringLiteral(": identity: 'user'");
    QTest::addRow("identity name") << replaced(QStringLiteral("\tSandboxStudio.Sandbox\n"),
                                               QStringLiteral("\tBad/Name\n"))
                                   << QStringLiteral(": identity: 'Bad/Name'");
    QTest::addRow("identity without name")
        << replaced(QStringLiteral("\tSandboxStudio.Sandbox\n"), QStringLiteral("\n"))
        << QStringLiteral(": identity: expected 2 value(s), found 1");
    QTest::addRow("missing identity") << replaced(QStringLiteral("identity\tappcontainer\tSandboxStudio.Sandbox\n"),
                                                  QString())
                                      << QStringLiteral(": identity: missing");
    QTest::addRow("missing job line") << replaced(QStringLiteral("job\tbreakaway\tno\n"), QString())
                                      << QStringLiteral(": job breakaway: missing");
    QTest::addRow("yes or no") << replaced(QStringLiteral("kill-on-close\tyes"), QStringLiteral("kill-on-close\ttrue"))
                               << QStringLiteral(": job kill-on-close: 'true' is neither yes nor no");
    QTest::addRow("unknown job setting") << replaced(QStringLiteral("job\tbreakaway"),
                                                     QStringLiteral("job\tbreak-away"))
                                         << QStringLiteral(": job break-away: unknown setting");
    QTest::addRow("token twice") << replaced(QStringLiteral("token\tintegrity\tlow\n"),
                                             QStringLiteral("token\tintegrity\tlow\ntoken\tintegrity\tlow\n"))
                                 << QStringLiteral(": token integrity: given twice");
    QTest::addRow("integrity") << replaced(QStringLiteral("integrity\tlow"), QStringLiteral("integrity\thigh"))
                               << QStringLiteral(": token integrity: 'high'");
    for (const char *limit : { "0", "65536", "01", "+5", "-1", "12x", "", "99999999999999999999" })
        QTest::addRow("process limit '%s'", limit)
            << replaced(QStringLiteral("active-processes\t1024"),
                        QStringLiteral("active-processes\t") + QLatin1String(limit))
            << QStringLiteral(": job active-processes: '%1' is not a whole number").arg(QLatin1String(limit));
    const QString deny = QStringLiteral("path\tdeny\t") + native(QStringLiteral("~/.ssh"));
    QVERIFY(good.contains(deny + u'\n'));
    for (const auto &[name, path] : std::initializer_list<std::pair<const char *, QString>>{
             { "relative", QStringLiteral("Users\\x") },
             { "no drive", QStringLiteral("\\Users") },
             { "forward slashes", QStringLiteral("C:/Users") },
             { "dot dot", QStringLiteral("C:\\Users\\..\\Windows") },
             { "empty component", QStringLiteral("C:\\Users\\\\x") },
             { "wildcard in a name", QStringLiteral("C:\\Users\\a*") },
             { "question mark", QStringLiteral("C:\\Users\\a?") },
             { "reserved character", QStringLiteral("C:\\Users\\a|b") },
             { "line feed", QStringLiteral("C:\\Users\\a%0Ab") } })
        QTest::addRow("path %s", name) << replaced(deny + u'\n', QStringLiteral("path\tdeny\t") + path + u'\n')
                                       << QStringLiteral(": path deny: ");
    QTest::addRow("wildcard outside deny")
        << replaced(deny + u'\n', deny + QStringLiteral("\npath\tread\tC:\\Users\\*\n"))
        << QStringLiteral(": path read: ");
    QTest::addRow("access") << replaced(QStringLiteral("path\tdeny\t"), QStringLiteral("path\thide\t"))
                            << QStringLiteral(": path: 'hide'");
    QTest::addRow("bad escape") << replaced(QStringLiteral("path\tdeny\tC:\\"), QStringLiteral("path\tdeny\tC:%41\\"))
                                << QStringLiteral(": path: a '%' not followed");
    QTest::addRow("percent at the end") << replaced(QStringLiteral("network\tproxy"), QStringLiteral("network\tproxy%"))
                                        << QStringLiteral(": network: a '%' not followed");
    QTest::addRow("network") << replaced(QStringLiteral("network\tproxy"), QStringLiteral("network\tsome"))
                             << QStringLiteral(": network: 'some'");
    QTest::addRow("proxy without port") << replaced(QStringLiteral("proxy-port\t%1\n").arg(kProxyPort), QString())
                                        << QStringLiteral(": proxy-port: missing");
    QTest::addRow("port without proxy") << replaced(QStringLiteral("network\tproxy"), QStringLiteral("network\toff"))
                                        << QStringLiteral(": proxy-port: given, but the network is not proxy");
    for (const char *port : { "0", "65536", "http" })
        QTest::addRow("proxy port '%s'", port) << replaced(QStringLiteral("proxy-port\t%1").arg(kProxyPort),
                                                           QStringLiteral("proxy-port\t") + QLatin1String(port))
                                               << QStringLiteral(": proxy-port: '%1'").arg(QLatin1String(port));
    QTest::addRow("block protocol") << replaced(QStringLiteral("block\tudp"), QStringLiteral("block\ticmp"))
                                    << QStringLiteral(": block: protocol 'icmp'");
    QTest::addRow("block address") << replaced(QStringLiteral("block\tudp\t127.0.0.1"),
                                               QStringLiteral("block\tudp\t10.0.0.1"))
                                   << QStringLiteral(": block: address '10.0.0.1'");
    for (const char *ports : { "5-4", "0-5", "1-65536", "7", "a-b", "1--2" })
        QTest::addRow("block ports '%s'", ports)
            << replaced(QStringLiteral("1-%1").arg(kProxyPort - 1), QLatin1String(ports))
            << QStringLiteral(": block: ports '%1'").arg(QLatin1String(ports));
    QTest::addRow("capability of an account")
        << replaced(QStringLiteral("identity\tappcontainer\tSandboxStudio.Sandbox\n"),
                    QStringLiteral("identity\taccount\tsandboxrun\ncapability\tinternetClient\n"))
        << QStringLiteral(": capability: only an AppContainer");
    QTest::addRow("capability name") << replaced(QStringLiteral("token\trestricted"),
                                                 QStringLiteral("capability\tinternet-client\ntoken\trestricted"))
                                     << QStringLiteral(": capability: 'internet-client'");
}

void TestWindowsPlan::parserRefusals()
{
    QFETCH(QString, text);
    QFETCH(QString, error);
    const windows::ParsedPlan parsed = Plan::parse(text.toStdString());
    QVERIFY2(!parsed.plan, qPrintable(text));
    const QString message = QString::fromStdString(parsed.error);
    QVERIFY2(message.startsWith(QLatin1String("line ")), qPrintable(message));
    QVERIFY2(message.contains(error), qPrintable(message + QStringLiteral(" | expected: ") + error));
}

void TestWindowsPlan::everyPrefixIsRefused()
{
    const std::string text = valid().toStdString();
    QVERIFY(Plan::parse(text).plan);
    for (size_t cut = 0; cut < text.size(); ++cut) {
        const windows::ParsedPlan parsed = Plan::parse(std::string_view(text).substr(0, cut));
        if (parsed.plan)
            QFAIL(qPrintable(QStringLiteral("a plan cut at %1 of %2 bytes was accepted").arg(cut).arg(text.size())));
    }
}

void TestWindowsPlan::mutationsAreRefusedOrRoundTrip()
{
    const std::string text = valid().toStdString();
    QRandomGenerator random(29);
    static const char alphabet[] = "\t\n\\% -:.*/01239aznoyesCUP";
    int accepted = 0;
    for (int round = 0; round < 5000; ++round) {
        std::string mutated = text;
        const int edits = 1 + int(random.bounded(3));
        for (int e = 0; e < edits && !mutated.empty(); ++e) {
            const size_t at = random.bounded(quint32(mutated.size()));
            switch (random.bounded(3)) {
            case 0:
                mutated[at] = alphabet[random.bounded(quint32(sizeof alphabet - 1))];
                break;
            case 1:
                mutated.erase(at, 1);
                break;
            default:
                mutated.insert(at, 1, alphabet[random.bounded(quint32(sizeof alphabet - 1))]);
            }
        }
        const windows::ParsedPlan parsed = Plan::parse(mutated);
        if (!parsed.plan) {
            if (parsed.error.rfind("line ", 0) != 0)
                QFAIL(qPrintable(QStringLiteral("an error without its line: ") + QString::fromStdString(parsed.error)));
            continue;
        }
        ++accepted;
        const std::string again = parsed.plan->serialize();
        const windows::ParsedPlan reparsed = Plan::parse(again);
        if (!reparsed.plan || !(*reparsed.plan == *parsed.plan) || reparsed.plan->serialize() != again)
            QFAIL(qPrintable(QStringLiteral("an accepted plan does not round-trip:\n")
                             + QString::fromStdString(mutated)));
    }
    qInfo("%d of 5000 mutated plans were accepted (and round-tripped)", accepted);
}

void TestWindowsPlan::escapesRoundTrip()
{
    Plan plan;
    plan.identityName = "SandboxStudio.Sandbox";
    plan.paths = { { Plan::Access::Deny, "C:\\Users\\tester\\odd % name\\*" },
                   { Plan::Access::Read, "C:\\Users\\tester\\tab\there" },
                   { Plan::Access::Write, "C:\\Users\\tester\\Schlüssel ✓" } };
    const std::string text = plan.serialize();
    QVERIFY(text.find("tab%09here") != std::string::npos);
    QVERIFY(text.find("odd %25 name") != std::string::npos);
    const windows::ParsedPlan parsed = Plan::parse(text);
    // A tab is a control character: written escaped, and refused as a path.
    QVERIFY(!parsed.plan);
    QVERIFY2(parsed.error.find("path read") != std::string::npos, parsed.error.c_str());
    plan.paths.erase(plan.paths.begin() + 1);
    const windows::ParsedPlan good = Plan::parse(plan.serialize());
    QVERIFY2(good.plan, good.error.c_str());
    QVERIFY(*good.plan == plan);
}

QTEST_GUILESS_MAIN(TestWindowsPlan)
#include "tst_windowsplan.moc"
