// Policy to macOS Seatbelt profile: the text parses as balanced s-expressions, every
// denied path is denied by a rule after every allow that covers it, paths are matched by
// literal, subpath or an escaped regex, /tmp, /var and /etc are covered under /private
// too, the repositories' control files stay read-only (as RepositoryRules defines them),
// the network and host-execution modes allow exactly what they say, and no path can add
// a rule of its own.
#include "PolicyVariants.h"
#include "SbplReader.h"
#include "core/workspace/RepositoryRules.h"
#include "launchers/auto/macos/SeatbeltProfile.h"

#include <QTest>

using namespace sandbox;

namespace {

const QString kHome = QStringLiteral("/Users/tester");
const QString kWorkspace = QStringLiteral("/Users/tester/project");
constexpr quint16 kProxyPort = 41873;

SeatbeltProfile::Input input(const Policy &policy, const QString &workspace = kWorkspace, bool expose = false)
{
    SeatbeltProfile::Input in;
    in.policy = policy;
    in.home = kHome;
    in.workspace = workspace;
    in.proxyPort = kProxyPort;
    in.exposeHostExecution = expose;
    return in;
}

sbpl::Profile compiled(const SeatbeltProfile::Input &in)
{
    const Result<QString> text = SeatbeltProfile::build(in);
    if (!text) {
        sbpl::Profile failed;
        failed.error = QStringLiteral("build failed: ") + text.error().toString();
        return failed;
    }
    return sbpl::read(text.value());
}

// A policy path as the profile names it; a "*" component as one sample name.
QString expanded(const QString &raw, const QString &workspace)
{
    QString path = raw;
    if (path.startsWith(QLatin1String("~/")))
        path = kHome + path.mid(1);
    else if (path.startsWith(QLatin1String("${workspace}")))
        path = workspace + path.mid(12);
    return path.replace(QStringLiteral("/*/"), QStringLiteral("/sample/"));
}

QStringList privateAliases(const QString &path)
{
    for (const char *name : { "/tmp", "/var", "/etc" }) {
        const QString linked = QLatin1String(name);
        if (path == linked || path.startsWith(linked + QLatin1Char('/')))
            return { path, QStringLiteral("/private") + path };
    }
    return { path };
}

QStringList rulesNaming(const sbpl::Profile &profile, const QString &operation)
{
    QStringList out;
    for (const sbpl::Rule &rule : profile.rules) {
        if (!rule.operations.contains(operation))
            continue;
        QStringList filters;
        for (const sbpl::Node &filter : rule.filters)
            filters.append(sbpl::filterText(filter));
        out.append(rule.action + QLatin1Char(' ') + filters.join(QLatin1Char(' ')));
    }
    return out;
}

QStringList filtersOf(const sbpl::Profile &profile, const QString &action, const QString &operations)
{
    QStringList out;
    for (const sbpl::Rule &rule : profile.rules) {
        if (rule.action == action && rule.operations.join(QLatin1Char(' ')) == operations) {
            for (const sbpl::Node &filter : rule.filters)
                out.append(sbpl::filterText(filter));
        }
    }
    return out;
}

bool anyAllowOf(const sbpl::Profile &profile, const QString &prefix)
{
    for (const sbpl::Rule &rule : profile.rules) {
        if (rule.action != QLatin1String("allow"))
            continue;
        for (const QString &operation : rule.operations) {
            if (operation.startsWith(prefix))
                return true;
        }
    }
    return false;
}

} // namespace

class TestSeatbeltProfile final : public QObject
{
    Q_OBJECT

private slots:
    void variants_data();
    void variants();
    void pathsAreMatchedByLiteralSubpathOrRegex();
    void privateAliasesAreCovered();
    void repositoryControlFilesStayReadOnly();
    void networkModes_data();
    void networkModes();
    void hostExecution();
    void processRules();
    void pathsCannotAddRules_data();
    void pathsCannotAddRules();
    void controlCharactersAreRefused();
    void wildcardRegexIsEscaped();
    void refusals();
};

void TestSeatbeltProfile::variants_data()
{
    QTest::addColumn<Policy>("policy");
    QTest::addColumn<bool>("expose");
    QTest::addColumn<QString>("workspace");
    for (const QString &workspace : { kWorkspace, QStringLiteral("/tmp/ws") }) {
        for (const PolicyVariant &variant : policyVariants(kProxyPort))
            QTest::addRow("%s in %s", qPrintable(variant.name), qPrintable(workspace))
                << variant.policy << variant.exposeHostExecution << workspace;
    }
}

void TestSeatbeltProfile::variants()
{
    QFETCH(Policy, policy);
    QFETCH(bool, expose);
    QFETCH(QString, workspace);
    const sbpl::Profile profile = compiled(input(policy, workspace, expose));
    QVERIFY2(profile.error.isEmpty(), qPrintable(profile.error));
    QVERIFY(profile.rules.size() > 2);
    QCOMPARE(sbpl::filterText(profile.forms[0]), QStringLiteral("(version 1)"));
    QCOMPARE(sbpl::filterText(profile.forms[1]), QStringLiteral("(deny default)"));

    for (const QString &raw : policy.denied) {
        for (const QString &path : privateAliases(expanded(raw, workspace))) {
            for (const QString &probe : QStringList{ path, path + QStringLiteral("/inner") }) {
                for (const QString &operation :
                     { QStringLiteral("file-read-data"), QStringLiteral("file-write-create") }) {
                    const int deciding = sbpl::decidingRule(profile, operation, probe);
                    QVERIFY2(
                        deciding >= 0 && profile.rules[deciding].action == QLatin1String("deny")
                            && !profile.rules[deciding].filters.isEmpty(),
                        qPrintable(QStringLiteral("%1 %2 is not denied by a rule naming it").arg(operation, probe)));
                    for (const sbpl::Rule &rule : profile.rules) {
                        if (rule.action == QLatin1String("allow") && sbpl::applies(rule, operation, probe))
                            QVERIFY2(rule.index < deciding,
                                     qPrintable(QStringLiteral("allow rule %1 for %2 comes after its deny rule")
                                                    .arg(rule.index)
                                                    .arg(probe)));
                    }
                }
            }
        }
    }
    for (const QString &raw : policy.readOnly) {
        for (const QString &path : privateAliases(expanded(raw, workspace)))
            QVERIFY2(!sbpl::allowed(profile, QStringLiteral("file-write-data"), path + QStringLiteral("/x")),
                     qPrintable(path));
    }
    for (const QString &raw : policy.writable) {
        const QString path = expanded(raw, workspace);
        bool inDenied = false;
        for (const QString &denied : policy.denied)
            inDenied = inDenied || Policy::isInside(path, expanded(denied, workspace));
        for (const QString &alias : privateAliases(path))
            QCOMPARE(sbpl::allowed(profile, QStringLiteral("file-write-create"), alias + QStringLiteral("/new.txt")),
                     !inDenied);
    }
    QVERIFY(sbpl::allowed(profile, QStringLiteral("file-read-data"), QStringLiteral("/usr/bin/env")));
    QVERIFY(!sbpl::allowed(profile, QStringLiteral("file-write-create"), QStringLiteral("/usr/local/bin/tool")));
    QVERIFY(!sbpl::allowed(profile, QStringLiteral("file-write-data"), kHome + QStringLiteral("/.zshrc")));
}

void TestSeatbeltProfile::pathsAreMatchedByLiteralSubpathOrRegex()
{
    const sbpl::Profile profile = compiled(input(Policy::defaults()));
    QVERIFY2(profile.error.isEmpty(), qPrintable(profile.error));
    // The directories above granted paths: their metadata only, each by its exact name.
    const QStringList metadata = filtersOf(profile, QStringLiteral("allow"), QStringLiteral("file-read-metadata"));
    for (const QString &directory : { QStringLiteral("/"), QStringLiteral("/Users"), kHome })
        QVERIFY2(metadata.contains(QStringLiteral("(literal \"%1\")").arg(directory)), qPrintable(metadata.join(u' ')));
    for (const QString &filter : metadata)
        QVERIFY2(filter.startsWith(QLatin1String("(literal ")), qPrintable(filter));
    // Policy paths and everything below them: subpath; "*" components: a regex.
    QVERIFY(filtersOf(profile, QStringLiteral("allow"), QStringLiteral("file-read*"))
                .contains(QStringLiteral("(subpath \"/\")")));
    QVERIFY(filtersOf(profile, QStringLiteral("allow"), QStringLiteral("file-read* file-write*"))
                .contains(QStringLiteral("(subpath \"%1\")").arg(kWorkspace)));
    const QStringList denied = filtersOf(profile, QStringLiteral("deny"), QStringLiteral("file-read* file-write*"));
    QVERIFY(denied.contains(QStringLiteral("(subpath \"%1/.ssh\")").arg(kHome)));
    QVERIFY(denied.contains(QStringLiteral("(subpath \"%1/.config/Bitwarden CLI\")").arg(kHome)));
    QVERIFY(denied.contains(QStringLiteral("(regex \"%1\")")
                                .arg(SeatbeltProfile::pathRegex(kHome + QStringLiteral("/snap/*/*/.mozilla")))));
    for (const QString &filter : denied)
        QVERIFY2(!filter.contains(QLatin1Char('*')) || filter.startsWith(QLatin1String("(regex")), qPrintable(filter));
    // A subpath is a whole name: ~/.ssh does not reach ~/.sshfoo.
    QVERIFY(!sbpl::allowed(profile, QStringLiteral("file-read-data"), kHome + QStringLiteral("/.ssh/id_ed25519")));
    QVERIFY(sbpl::allowed(profile, QStringLiteral("file-read-data"), kHome + QStringLiteral("/.sshfoo")));
    QVERIFY(!sbpl::allowed(profile, QStringLiteral("file-read-data"), kHome + QStringLiteral("/.SSH/id_ed25519")));
    QVERIFY(
        !sbpl::allowed(profile, QStringLiteral("file-read-data"), QStringLiteral("/users/TESTER/.Aws/credentials")));
    QVERIFY(!sbpl::allowed(profile, QStringLiteral("file-read-data"),
                           kHome + QStringLiteral("/snap/firefox/common/.mozilla/firefox/profiles.ini")));
    QVERIFY(sbpl::allowed(profile, QStringLiteral("file-read-data"), kHome + QStringLiteral("/snap/firefox/.mozilla")));
}

void TestSeatbeltProfile::privateAliasesAreCovered()
{
    Policy policy = Policy::defaults();
    policy.denied += { QStringLiteral("/etc/ssl/private"), QStringLiteral("/private/var/db/sudo") };
    const sbpl::Profile profile = compiled(input(policy, QStringLiteral("/tmp/ws")));
    QVERIFY2(profile.error.isEmpty(), qPrintable(profile.error));
    const QStringList writable = filtersOf(profile, QStringLiteral("allow"), QStringLiteral("file-read* file-write*"));
    for (const QString &path : { QStringLiteral("/tmp"), QStringLiteral("/private/tmp"), QStringLiteral("/tmp/ws"),
                                 QStringLiteral("/private/tmp/ws") })
        QVERIFY2(writable.contains(QStringLiteral("(subpath \"%1\")").arg(path)), qPrintable(path));
    for (const QString &path :
         { QStringLiteral("/etc/ssl/private/key.pem"), QStringLiteral("/private/etc/ssl/private/key.pem"),
           QStringLiteral("/var/db/sudo/ts"), QStringLiteral("/private/var/db/sudo/ts") })
        QVERIFY2(!sbpl::allowed(profile, QStringLiteral("file-read-data"), path), qPrintable(path));
    for (const QString &path :
         { QStringLiteral("/tmp/ws/.git/config"), QStringLiteral("/private/tmp/ws/.git/config"),
           QStringLiteral("/tmp/ws/.git/hooks/pre-commit"), QStringLiteral("/private/tmp/ws/.git/hooks/pre-commit") })
        QVERIFY2(!sbpl::allowed(profile, QStringLiteral("file-write-data"), path), qPrintable(path));
    // The links themselves can be read on the way in.
    const QStringList metadata = filtersOf(profile, QStringLiteral("allow"), QStringLiteral("file-read-metadata"));
    QVERIFY(metadata.contains(QStringLiteral("(literal \"/tmp\")")));
    QVERIFY(metadata.contains(QStringLiteral("(literal \"/private/tmp\")")));
}

void TestSeatbeltProfile::repositoryControlFilesStayReadOnly()
{
    const sbpl::Profile profile = compiled(input(Policy::defaults()));
    QVERIFY2(profile.error.isEmpty(), qPrintable(profile.error));
    auto writableAt = [&](const QString &relative) {
        return sbpl::allowed(profile, QStringLiteral("file-write-create"), kWorkspace + QLatin1Char('/') + relative);
    };
    // RepositoryRules' verdict, with .git, .git/modules/<name> and .git/worktrees/<name>
    // as the git directories and no in-progress state of the command's own.
    const repository::DirectoryTest gitDirectories = [](const std::string &directory) {
        const std::vector<std::string> parts = repository::components(directory);
        if (!parts.empty() && parts.back() == ".git")
            return repository::DirectoryKind::GitDirectory;
        if (parts.size() >= 3 && parts[parts.size() - 3] == ".git"
            && (parts[parts.size() - 2] == "modules" || parts[parts.size() - 2] == "worktrees"))
            return repository::DirectoryKind::GitDirectory;
        return repository::DirectoryKind::Ordinary;
    };
    auto refused = [&](const QString &relative) {
        return !repository::refusal(kWorkspace.toStdString(), relative.toStdString(), gitDirectories,
                                    [](const std::string &, const std::string &) { return false; })
                    .empty();
    };
    QStringList protectedPaths{ QStringLiteral(".git"), QStringLiteral("sub/.git"), QStringLiteral("HEAD"),
                                QStringLiteral("docs/HEAD") };
    for (const QString &gitDirectory : { QStringLiteral(".git"), QStringLiteral("sub/.git"),
                                         QStringLiteral(".git/modules/lib"), QStringLiteral(".git/worktrees/wt") }) {
        for (const auto *entries : { &repository::controlEntries(), &repository::transientStateEntries() }) {
            for (const std::string &entry : *entries) {
                const QString path = gitDirectory + QLatin1Char('/') + QString::fromStdString(entry);
                protectedPaths.append(path);
                // What lies inside a control entry (a hook in hooks/) is one too.
                QVERIFY2(!writableAt(path + QStringLiteral("/inner")),
                         qPrintable(QStringLiteral("the profile lets %1/inner be written").arg(path)));
            }
        }
    }
    for (const QString &path : protectedPaths) {
        QVERIFY2(refused(path), qPrintable(QStringLiteral("RepositoryRules allows %1").arg(path)));
        QVERIFY2(!writableAt(path), qPrintable(QStringLiteral("the profile lets %1 be written").arg(path)));
    }
    const QStringList workPaths{ QStringLiteral(".git/objects/ab/cdef0123"),
                                 QStringLiteral(".git/refs/heads/main"),
                                 QStringLiteral(".git/HEAD"),
                                 QStringLiteral(".git/index"),
                                 QStringLiteral(".git/index.lock"),
                                 QStringLiteral(".git/logs/HEAD"),
                                 QStringLiteral(".git/packed-refs"),
                                 QStringLiteral(".git/FETCH_HEAD"),
                                 QStringLiteral(".git/modules/lib/HEAD"),
                                 QStringLiteral("sub/.git/index"),
                                 QStringLiteral("src/main.c"),
                                 QStringLiteral(".github/workflows/ci.yml"),
                                 QStringLiteral(".gitignore"),
                                 QStringLiteral("config/app.json"),
                                 QStringLiteral("hooks/setup.sh") };
    for (const QString &path : workPaths) {
        QVERIFY2(!refused(path), qPrintable(QStringLiteral("RepositoryRules refuses %1").arg(path)));
        QVERIFY2(writableAt(path), qPrintable(QStringLiteral("the profile keeps %1 from being written").arg(path)));
    }
    // Stricter than RepositoryRules' verdict on each single write (the Linux write gate
    // also judges renames, which a profile cannot): no HEAD where git keeps none, so no
    // repository is built inside .git and moved out.
    for (const QString &path : { QStringLiteral(".git/objects/evil/HEAD"), QStringLiteral(".git/refs/evil/HEAD"),
                                 QStringLiteral(".git/logs/evil/HEAD") })
        QVERIFY2(!writableAt(path), qPrintable(QStringLiteral("the profile lets %1 be written").arg(path)));
    for (const QString &path :
         { QStringLiteral(".git/refs/remotes/origin/HEAD"), QStringLiteral(".git/logs/refs/remotes/origin/HEAD"),
           QStringLiteral(".git/worktrees/wt/logs/HEAD"), QStringLiteral("sub/.git/logs/HEAD") })
        QVERIFY2(writableAt(path), qPrintable(QStringLiteral("the profile keeps %1 from being written").arg(path)));
    // In any letter case: the volume opens .GIT/config as .git/config.
    for (const QString &path : { QStringLiteral(".GIT/config"), QStringLiteral(".Git/HOOKS/pre-commit"),
                                 QStringLiteral("sub/.GIT"), QStringLiteral("head") })
        QVERIFY2(!writableAt(path), qPrintable(QStringLiteral("the profile lets %1 be written").arg(path)));
    // Reading stays as the policy says.
    QVERIFY(sbpl::allowed(profile, QStringLiteral("file-read-data"), kWorkspace + QStringLiteral("/.git/config")));
}

void TestSeatbeltProfile::networkModes_data()
{
    QTest::addColumn<int>("mode");
    QTest::addColumn<bool>("expose");
    QTest::addRow("none") << int(Policy::NetworkMode::None) << false;
    QTest::addRow("allowlist") << int(Policy::NetworkMode::Allowlist) << false;
    QTest::addRow("full") << int(Policy::NetworkMode::Full) << false;
    QTest::addRow("full, host execution exposed") << int(Policy::NetworkMode::Full) << true;
}

void TestSeatbeltProfile::networkModes()
{
    QFETCH(int, mode);
    QFETCH(bool, expose);
    Policy policy = Policy::defaults();
    policy.network = Policy::NetworkMode(mode);
    if (policy.network == Policy::NetworkMode::Allowlist)
        policy.allowedDomains = { QStringLiteral("example.com") };
    const sbpl::Profile profile = compiled(input(policy, kWorkspace, expose));
    QVERIFY2(profile.error.isEmpty(), qPrintable(profile.error));
    QStringList outbound = rulesNaming(profile, QStringLiteral("network-outbound"));
    const QStringList inbound = rulesNaming(profile, QStringLiteral("network-bind"));
    for (const QString &rule : rulesNaming(profile, QStringLiteral("network*")))
        QFAIL(qPrintable(QStringLiteral("a rule for every network operation: ") + rule));
    switch (policy.network) {
    case Policy::NetworkMode::None:
        QCOMPARE(outbound, QStringList());
        QCOMPARE(inbound, QStringList());
        break;
    case Policy::NetworkMode::Allowlist:
        QCOMPARE(outbound, QStringList{ QStringLiteral("allow (remote tcp \"localhost:%1\")").arg(kProxyPort) });
        QCOMPARE(inbound, QStringList());
        break;
    case Policy::NetworkMode::Full:
        QVERIFY(outbound.contains(QStringLiteral("allow (remote ip)")));
        QVERIFY(inbound.contains(QStringLiteral("allow (local ip)")));
        if (expose) {
            QVERIFY(outbound.contains(QStringLiteral("allow (remote unix-socket)")));
        } else {
            // Name resolution, and no other unix socket.
            for (const QString &rule : outbound) {
                if (rule.contains(QLatin1String("unix-socket")))
                    QCOMPARE(
                        rule,
                        QStringLiteral("allow (remote unix-socket (path-literal \"/private/var/run/mDNSResponder\"))"));
            }
            QVERIFY(filtersOf(profile, QStringLiteral("allow"), QStringLiteral("mach-lookup"))
                        .contains(QStringLiteral("(global-name \"com.apple.dnssd.service\")")));
        }
        break;
    }
}

void TestSeatbeltProfile::hostExecution()
{
    for (const PolicyVariant &variant : policyVariants(kProxyPort)) {
        const sbpl::Profile profile = compiled(input(variant.policy, kWorkspace, variant.exposeHostExecution));
        QVERIFY2(profile.error.isEmpty(), qPrintable(profile.error));
        const QStringList lookups = rulesNaming(profile, QStringLiteral("mach-lookup"));
        QCOMPARE(lookups.size(), 1);
        if (variant.exposeHostExecution) {
            QCOMPARE(lookups.first(), QStringLiteral("allow "));
            QVERIFY(anyAllowOf(profile, QStringLiteral("appleevent-send")));
            QVERIFY(anyAllowOf(profile, QStringLiteral("lsopen")));
            continue;
        }
        QStringList expected;
        for (const QString &service : SeatbeltProfile::baseMachServices())
            expected.append(QStringLiteral("(global-name \"%1\")").arg(service));
        if (variant.policy.network == Policy::NetworkMode::Full)
            expected.append(QStringLiteral("(global-name \"com.apple.dnssd.service\")"));
        QCOMPARE(filtersOf(profile, QStringLiteral("allow"), QStringLiteral("mach-lookup")), expected);
        QVERIFY2(!anyAllowOf(profile, QStringLiteral("appleevent-send")), qPrintable(variant.name));
        QVERIFY2(!anyAllowOf(profile, QStringLiteral("lsopen")), qPrintable(variant.name));
        QVERIFY2(!anyAllowOf(profile, QStringLiteral("mach-register")), qPrintable(variant.name));
        QVERIFY(!expected.join(u' ').contains(QLatin1String("SecurityServer")));
        for (const QString &rule : rulesNaming(profile, QStringLiteral("network-outbound"))
                 + rulesNaming(profile, QStringLiteral("network-bind")))
            QVERIFY2(!rule.contains(QLatin1String("(remote unix-socket)"))
                         && !rule.contains(QLatin1String("(local unix-socket)")),
                     qPrintable(rule));
    }
}

void TestSeatbeltProfile::processRules()
{
    const sbpl::Profile isolated = compiled(input(Policy::defaults()));
    QVERIFY2(isolated.error.isEmpty(), qPrintable(isolated.error));
    QCOMPARE(rulesNaming(isolated, QStringLiteral("process-fork")), QStringList{ QStringLiteral("allow ") });
    QCOMPARE(rulesNaming(isolated, QStringLiteral("process-exec")), QStringList{ QStringLiteral("allow ") });
    QCOMPARE(rulesNaming(isolated, QStringLiteral("signal")),
             QStringList{ QStringLiteral("allow (target same-sandbox)") });
    QCOMPARE(rulesNaming(isolated, QStringLiteral("process-info*")),
             QStringList{ QStringLiteral("allow (target same-sandbox)") });
    Policy policy = Policy::defaults();
    policy.processes = Policy::ProcessConfinement::Shared;
    const sbpl::Profile shared = compiled(input(policy));
    QCOMPARE(rulesNaming(shared, QStringLiteral("signal")), QStringList{ QStringLiteral("allow ") });
}

void TestSeatbeltProfile::pathsCannotAddRules_data()
{
    QTest::addColumn<QString>("name");
    QTest::addRow("quote") << QStringLiteral("a\"b");
    QTest::addRow("closing parenthesis") << QStringLiteral("a)b");
    QTest::addRow("backslash") << QStringLiteral("a\\b");
    QTest::addRow("backslash before quote") << QStringLiteral("a\\\"b");
    QTest::addRow("trailing backslash") << QStringLiteral("ab\\");
    QTest::addRow("a rule of its own") << QStringLiteral("x\")) (allow default) (allow file-read* (subpath \"");
    QTest::addRow("comment") << QStringLiteral("x\" ; (allow default)");
    QTest::addRow("regex-like") << QStringLiteral("#\"^.*\"");
    QTest::addRow("not ASCII") << QStringLiteral("Schlüssel ✓");
}

void TestSeatbeltProfile::pathsCannotAddRules()
{
    QFETCH(QString, name);
    const QString path = kHome + QLatin1Char('/') + name;
    Policy plain = Policy::defaults();
    plain.denied += { QStringLiteral("~/plain"), QStringLiteral("~/plain/*/x") };
    plain.writable.append(QStringLiteral("~/plainw"));
    const sbpl::Profile baseline = compiled(input(plain));
    QVERIFY2(baseline.error.isEmpty(), qPrintable(baseline.error));
    Policy policy = Policy::defaults();
    policy.denied += { QStringLiteral("~/") + name, QStringLiteral("~/") + name + QStringLiteral("/*/x") };
    policy.writable.append(QStringLiteral("~/") + name + QStringLiteral("w"));
    const sbpl::Profile profile = compiled(input(policy));
    QVERIFY2(profile.error.isEmpty(), qPrintable(profile.error));
    QCOMPARE(profile.rules.size(), baseline.rules.size());
    for (qsizetype i = 0; i < profile.rules.size(); ++i) {
        QCOMPARE(profile.rules[i].action, baseline.rules[i].action);
        QCOMPARE(profile.rules[i].operations, baseline.rules[i].operations);
        QCOMPARE(profile.rules[i].filters.size(), baseline.rules[i].filters.size());
    }
    QVERIFY(filtersOf(profile, QStringLiteral("deny"), QStringLiteral("file-read* file-write*"))
                .contains(QStringLiteral("(subpath \"%1\")").arg(path)));
    QVERIFY(!sbpl::allowed(profile, QStringLiteral("file-read-data"), path));
    QVERIFY(!sbpl::allowed(profile, QStringLiteral("file-read-data"), path + QStringLiteral("/one/x/key")));
    QVERIFY(sbpl::allowed(profile, QStringLiteral("file-read-data"), kHome + QStringLiteral("/other")));
    QVERIFY(sbpl::allowed(profile, QStringLiteral("file-write-create"), path + QStringLiteral("w/new")));
}

void TestSeatbeltProfile::controlCharactersAreRefused()
{
    for (const QString &bad : QStringList{ QStringLiteral("~/a\nb"), QStringLiteral("~/a\rb"), QStringLiteral("~/a\tb"),
                                           QStringLiteral("~/a") + QChar(0) + QStringLiteral("b") }) {
        Policy policy = Policy::defaults();
        policy.denied.append(bad);
        const Result<QString> profile = SeatbeltProfile::build(input(policy));
        QVERIFY(!profile);
        QVERIFY2(profile.error().toString().contains(QStringLiteral("denied[%1]").arg(policy.denied.size() - 1)),
                 qPrintable(profile.error().toString()));
    }
}

void TestSeatbeltProfile::wildcardRegexIsEscaped()
{
    const QString pattern = SeatbeltProfile::pathRegex(QStringLiteral("/Users/tester/a.b/*/c+d(1)[x]{2}|^$?"));
    const QRegularExpression regex(pattern);
    QVERIFY2(regex.isValid(), qPrintable(pattern));
    QVERIFY(regex.match(QStringLiteral("/Users/tester/a.b/one/c+d(1)[x]{2}|^$?")).hasMatch());
    QVERIFY(regex.match(QStringLiteral("/Users/tester/a.b/one/c+d(1)[x]{2}|^$?/inner")).hasMatch());
    QVERIFY(!regex.match(QStringLiteral("/Users/tester/aXb/one/c+d(1)[x]{2}|^$?")).hasMatch());
    QVERIFY(!regex.match(QStringLiteral("/Users/tester/a.b/one/ccd(1)[x]{2}|^$?")).hasMatch());
    QVERIFY(!regex.match(QStringLiteral("/Users/tester/a.b/one/two/c+d(1)[x]{2}|^$?")).hasMatch());
    QVERIFY(!regex.match(QStringLiteral("/Users/tester/a.b//c+d(1)[x]{2}|^$?")).hasMatch());
    QVERIFY(!regex.match(QStringLiteral("/Users/tester/a.b/one/c+d(1)[x]{2}|^$?x")).hasMatch());
    QVERIFY(!regex.match(QStringLiteral("/elsewhere/Users/tester/a.b/one/c+d(1)[x]{2}|^$?")).hasMatch());
    // Any letter case: the volume opens /users/TESTER as /Users/tester.
    QVERIFY(regex.match(QStringLiteral("/users/TESTER/A.B/one/C+D(1)[X]{2}|^$?")).hasMatch());
}

void TestSeatbeltProfile::refusals()
{
    Policy denyingWorkspace = Policy::defaults();
    denyingWorkspace.denied.append(QStringLiteral("~/project"));
    Result<QString> profile = SeatbeltProfile::build(input(denyingWorkspace));
    QVERIFY(!profile);
    QCOMPARE(profile.error().where, QStringLiteral("spawn.cwd"));
    denyingWorkspace.denied.last() = QStringLiteral("~/*");
    profile = SeatbeltProfile::build(input(denyingWorkspace));
    QVERIFY(!profile);
    QCOMPARE(profile.error().where, QStringLiteral("spawn.cwd"));

    Policy allowlist = Policy::defaults();
    allowlist.network = Policy::NetworkMode::Allowlist;
    allowlist.allowedDomains = { QStringLiteral("example.com") };
    SeatbeltProfile::Input noProxy = input(allowlist);
    noProxy.proxyPort = 0;
    profile = SeatbeltProfile::build(noProxy);
    QVERIFY(!profile);
    QCOMPARE(profile.error().where, QStringLiteral("policy.network"));

    SeatbeltProfile::Input relativeHome = input(Policy::defaults());
    relativeHome.home = QStringLiteral("Users/tester");
    profile = SeatbeltProfile::build(relativeHome);
    QVERIFY(!profile);
    QCOMPARE(profile.error().where, QStringLiteral("spawn.home"));

    Policy relative = Policy::defaults();
    relative.writable.append(QStringLiteral("project/out"));
    profile = SeatbeltProfile::build(input(relative));
    QVERIFY(!profile);
    QVERIFY2(profile.error().toString().contains(QLatin1String("writable")), qPrintable(profile.error().toString()));
}

QTEST_GUILESS_MAIN(TestSeatbeltProfile)
#include "tst_seatbeltprofile.moc"
