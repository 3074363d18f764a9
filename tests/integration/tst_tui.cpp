// `sandboxctl tui` in a real terminal: tmux runs it in a pseudo-terminal, keys go in with
// send-keys and the screen comes back with capture-pane, exactly as a user sees it.
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

class TestTui final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void showsBackendsAndActivatesWithProgress();
    void switchesViewsAndFitsAResizedTerminal();
    void editsSettingsWithSecretsMasked();
    void activatesWithTheFormsSettings();
    void answersQuestionsWithTypedText();
    void quitsCleanlyOnTermination();
    void questionAnsweredInOneTerminalLeavesTheOther();
    void engineGoingAwayIsSaid();
    void narrowTerminalShowsTheSelectedBackendsWholeState();
    void setsAndRemovesCredentialValuesAndFollowsOthers();

private:
    QString tmux(const QStringList &args);
    QString screen()
    {
        return tmux({ QStringLiteral("capture-pane"), QStringLiteral("-p"), QStringLiteral("-t"), m_pane });
    }
    void keys(const QStringList &keys);
    void type(const QString &text);
    QString sandboxctl(const QStringList &args, const QByteArray &input = {});
    void openSettingsOf(const QString &ref);
    void select(const QString &ref);
    QString exitStatus(const QString &file = QStringLiteral("exit-status"));
    // The pane's command: sandboxctl [hostOption] tui on the test's engine socket, its exit
    // status written to `statusFile` in the test's folder, then `after` (shell text).
    QString tuiCommand(const QString &hostOption, const QString &statusFile, const QString &after = {}) const;
    QString tuiPid();
    // A second sandboxctl tui, in window 1 of the session, using the engine the first hosts;
    // its shell stays, so what it said last can still be read once it ended.
    void startSecondTui();
    QString screenOf(const QString &pane)
    {
        return tmux({ QStringLiteral("capture-pane"), QStringLiteral("-p"), QStringLiteral("-t"), pane });
    }

    std::unique_ptr<QTemporaryDir> m_root;
    QString m_server;
    QString m_pane = QStringLiteral("tui:0.0");
};

QString TestTui::tmux(const QStringList &args)
{
    QProcess process;
    process.start(QStringLiteral("tmux"), QStringList{ QStringLiteral("-L"), m_server } + args);
    if (!process.waitForFinished(20000))
        return {};
    return QString::fromUtf8(process.readAllStandardOutput());
}

void TestTui::keys(const QStringList &keys)
{
    tmux(QStringList{ QStringLiteral("send-keys"), QStringLiteral("-t"), m_pane } + keys);
}

// Typed text, character by character as keys (never read as key names).
void TestTui::type(const QString &text)
{
    tmux({ QStringLiteral("send-keys"), QStringLiteral("-t"), m_pane, QStringLiteral("-l"), text });
}

// Another sandboxctl, on the engine the terminal UI hosts; its output, or its error.
QString TestTui::sandboxctl(const QStringList &args, const QByteArray &input)
{
    QProcess process;
    process.start(QCoreApplication::applicationDirPath() + QStringLiteral("/sandboxctl"),
                  QStringList{ QStringLiteral("--socket"), m_root->filePath(QStringLiteral("run/engine.sock")) }
                      + args);
    process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(30000))
        return QStringLiteral("sandboxctl did not finish");
    return QString::fromUtf8(process.readAllStandardOutput() + process.readAllStandardError());
}

// Opens the settings of `ref`.
void TestTui::openSettingsOf(const QString &ref)
{
    select(ref);
    keys({ QStringLiteral("s") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("SETTINGS  ") + ref), 30000);
}

// Selects `ref` in the backend list.
void TestTui::select(const QString &ref)
{
    keys({ QStringLiteral("b") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(ref), 30000);
    const QStringList rows = screen().split(QLatin1Char('\n'));
    const qsizetype first = rows.indexOf(QStringLiteral("BACKENDS")) + 1;
    qsizetype index = first;
    while (index < rows.size() && !rows.at(index).contains(ref))
        ++index;
    QVERIFY(first > 0 && index < rows.size());
    for (qsizetype i = 0; i < rows.size(); ++i)
        keys({ QStringLiteral("Up") });
    for (qsizetype i = first; i < index; ++i)
        keys({ QStringLiteral("Down") });
}

// How sandboxctl ended, as the shell around it saw it: tmux may mark a pane dead before it
// has collected the exit status, so the status is written by that shell instead.
QString TestTui::exitStatus(const QString &name)
{
    QFile file(m_root->filePath(name));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).trimmed();
}

// The pid of sandboxctl itself: the only child of the shell that runs it in the pane.
QString TestTui::tuiPid()
{
    const QString shell = tmux({ QStringLiteral("display-message"), QStringLiteral("-p"), QStringLiteral("-t"), m_pane,
                                 QStringLiteral("#{pane_pid}") })
                              .trimmed();
    QFile children(QStringLiteral("/proc/%1/task/%1/children").arg(shell));
    if (shell.isEmpty() || !children.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(children.readAll()).trimmed();
}

void TestTui::init()
{
    m_root = std::make_unique<QTemporaryDir>();
    QVERIFY(m_root->isValid());
    QVERIFY(QDir(m_root->path()).mkpath(QStringLiteral("run")));
    QVERIFY(QFile::setPermissions(m_root->filePath(QStringLiteral("run")),
                                  QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
    // A tmux server of its own for every test function: the previous one may still be going
    // away after kill-server, and a new session must never land on it.
    static int serial = 0;
    m_server = QStringLiteral("sandbox-tui-test-%1-%2").arg(QCoreApplication::applicationPid()).arg(++serial);
    const QString command = tuiCommand(QStringLiteral("--embedded"), QStringLiteral("exit-status"));
    tmux({ QStringLiteral("new-session"), QStringLiteral("-d"), QStringLiteral("-s"), QStringLiteral("tui"),
           QStringLiteral("-x"), QStringLiteral("120"), QStringLiteral("-y"), QStringLiteral("40"),
           QStringLiteral("sleep 3600") });
    tmux({ QStringLiteral("set-option"), QStringLiteral("-t"), QStringLiteral("tui"), QStringLiteral("remain-on-exit"),
           QStringLiteral("on") });
    tmux({ QStringLiteral("respawn-pane"), QStringLiteral("-k"), QStringLiteral("-t"), m_pane, command });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("BACKENDS")), 30000);
}

void TestTui::cleanup()
{
    if (QTest::currentTestFailed())
        qWarning().noquote() << "screen:\n" << screen();
    tmux({ QStringLiteral("kill-server") });
    m_root.reset();
}

void TestTui::showsBackendsAndActivatesWithProgress()
{
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("builtin:auto")), 30000);
    QVERIFY(screen().contains(QStringLiteral("builtin:vm")));
    QVERIFY(screen().contains(QStringLiteral("unavailable")));

    // The unavailable VM backend: the steps run, the failure is shown, auto stays active.
    keys({ QStringLiteral("Down"), QStringLiteral("Enter") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("activating builtin:vm failed")), 60000);
    QVERIFY(screen().contains(QStringLiteral("validate")));
    QVERIFY(screen().contains(QStringLiteral("failed")));
    QVERIFY(screen().contains(QStringLiteral("* builtin:auto")));

    keys({ QStringLiteral("Up"), QStringLiteral("Enter") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("builtin:auto is active")), 60000);
    const QString shown = screen();
    for (const QString &step : { QStringLiteral("validate"), QStringLiteral("prepare"), QStringLiteral("probe"),
                                 QStringLiteral("swap"), QStringLiteral("persist"), QStringLiteral("cleanup") })
        QVERIFY2(shown.contains(step), qPrintable(step));

    keys({ QStringLiteral("q") });
    QTRY_COMPARE_WITH_TIMEOUT(exitStatus(), QStringLiteral("0"), 30000);
}

void TestTui::switchesViewsAndFitsAResizedTerminal()
{
    keys({ QStringLiteral("p") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("host execution:  deny")), 30000);
    QVERIFY(screen().contains(QStringLiteral("~/.ssh")));
    keys({ QStringLiteral("r") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("PROCESSES")), 30000);

    tmux({ QStringLiteral("resize-window"), QStringLiteral("-t"), QStringLiteral("tui"), QStringLiteral("-x"),
           QStringLiteral("50"), QStringLiteral("-y"), QStringLiteral("15") });
    keys({ QStringLiteral("b") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("BACKENDS")), 30000);
    const QStringList rows = screen().split(QLatin1Char('\n'));
    for (const QString &row : rows)
        QVERIFY2(row.size() <= 50, qPrintable(row));
    // A row cut at the width, never wrapped onto the next.
    QVERIFY(!screen().contains(QStringLiteral("\nis build yet")));
}

void TestTui::editsSettingsWithSecretsMasked()
{
    const QString ref = QStringLiteral("atom-pack:test-secrets:keyed");
    const QString secret = QStringLiteral("s3cr3t-%1").arg(QCoreApplication::applicationPid());
    // The keychain outlives this test's configuration: a key another test stored is removed first.
    sandboxctl({ QStringLiteral("secret"), QStringLiteral("remove"), ref, QStringLiteral("apiKey") });
    QVERIFY(sandboxctl({ QStringLiteral("settings"), QStringLiteral("get"), ref })
                .contains(QStringLiteral("apiKey = (secret, not configured)")));
    openSettingsOf(ref);
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("(not configured)")), 30000);
    QVERIFY(screen().contains(QStringLiteral("us-east")));

    // The plain setting: typed over its value. The secret: typed, and shown only as stars.
    keys({ QStringLiteral("Enter") });
    for (int i = 0; i < 8; ++i)
        keys({ QStringLiteral("BSpace") });
    type(QStringLiteral("eu-west"));
    keys({ QStringLiteral("Enter"), QStringLiteral("Down"), QStringLiteral("Enter") });
    type(secret);
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QString(secret.size(), QLatin1Char('*')) + QLatin1Char('_')), 30000);
    QVERIFY(!screen().contains(secret));
    keys({ QStringLiteral("Enter"), QStringLiteral("w") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("settings of %1 saved").arg(ref)), 30000);
    QVERIFY(!screen().contains(secret));

    QString shown = sandboxctl({ QStringLiteral("settings"), QStringLiteral("get"), ref });
    QVERIFY2(shown.contains(QStringLiteral("region = eu-west")), qPrintable(shown));
    QVERIFY2(shown.contains(QStringLiteral("apiKey = (secret, configured)")), qPrintable(shown));
    // The secret went to the keychain, never into the configuration on disk.
    const QString grep = QStringLiteral("grep -rq -- '%1' '%2'").arg(secret, m_root->path());
    QCOMPARE(QProcess::execute(QStringLiteral("sh"), { QStringLiteral("-c"), grep }), 1);

    // Empty input leaves the stored secret alone.
    openSettingsOf(ref);
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("(configured)")), 30000);
    keys({ QStringLiteral("Down"), QStringLiteral("Enter"), QStringLiteral("Enter"), QStringLiteral("w") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("settings of %1 saved").arg(ref)), 30000);
    shown = sandboxctl({ QStringLiteral("settings"), QStringLiteral("get"), ref });
    QVERIFY2(shown.contains(QStringLiteral("apiKey = (secret, configured)")), qPrintable(shown));

    // A value the field refuses is not saved, and the error names the field.
    openSettingsOf(QStringLiteral("builtin:vm"));
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("Virtual CPUs")), 30000);
    const QStringList rows = screen().split(QLatin1Char('\n'));
    qsizetype cpus = 0;
    while (cpus < rows.size() && !rows.at(cpus).contains(QStringLiteral("Virtual CPUs")))
        ++cpus;
    const qsizetype firstField = rows.indexOf(QStringLiteral("SETTINGS  builtin:vm")) + 1;
    for (qsizetype i = firstField; i < cpus; ++i)
        keys({ QStringLiteral("Down") });
    keys({ QStringLiteral("Enter"), QStringLiteral("BSpace"), QStringLiteral("BSpace") });
    type(QStringLiteral("many"));
    keys({ QStringLiteral("Enter"), QStringLiteral("w") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("not saved: builtin:vm.")), 30000);
    QVERIFY(screen().contains(QStringLiteral("expected a number")));
    keys({ QStringLiteral("b") });

    // An explicit remove takes the secret away.
    openSettingsOf(ref);
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("(configured)")), 30000);
    keys({ QStringLiteral("Down"), QStringLiteral("x") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("(removed on save)")), 30000);
    keys({ QStringLiteral("w") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("settings of %1 saved").arg(ref)), 30000);
    shown = sandboxctl({ QStringLiteral("settings"), QStringLiteral("get"), ref });
    QVERIFY2(shown.contains(QStringLiteral("apiKey = (secret, not configured)")), qPrintable(shown));
    QVERIFY2(shown.contains(QStringLiteral("region = eu-west")), qPrintable(shown));
}

void TestTui::activatesWithTheFormsSettings()
{
    const QString ref = QStringLiteral("atom-pack:test-secrets:keyed");
    sandboxctl({ QStringLiteral("secret"), QStringLiteral("remove"), ref, QStringLiteral("apiKey") });

    // Without its required key the backend does not activate, and auto stays active.
    openSettingsOf(ref);
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("(not configured)")), 30000);
    keys({ QStringLiteral("a") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("activating %1 failed").arg(ref)), 60000);
    QVERIFY(screen().contains(QStringLiteral("* builtin:auto")));

    // With the key typed in the form it does, and the key is kept.
    openSettingsOf(ref);
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("API key")), 30000);
    keys({ QStringLiteral("Down"), QStringLiteral("Enter") });
    type(QStringLiteral("activation-key"));
    keys({ QStringLiteral("Enter"), QStringLiteral("a") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("%1 is active").arg(ref)), 60000);
    QVERIFY(screen().contains(QStringLiteral("* ") + ref));
    QVERIFY(!screen().contains(QStringLiteral("activation-key")));
    QVERIFY(sandboxctl({ QStringLiteral("settings"), QStringLiteral("get"), ref })
                .contains(QStringLiteral("apiKey = (secret, configured)")));

    // Back to auto, and the key removed, as this test found it.
    select(QStringLiteral("builtin:auto"));
    keys({ QStringLiteral("Enter") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("builtin:auto is active")), 60000);
    sandboxctl({ QStringLiteral("secret"), QStringLiteral("remove"), ref, QStringLiteral("apiKey") });
    QVERIFY(sandboxctl({ QStringLiteral("settings"), QStringLiteral("get"), ref })
                .contains(QStringLiteral("apiKey = (secret, not configured)")));
}

void TestTui::answersQuestionsWithTypedText()
{
    const QString ref = QStringLiteral("atom-pack:test-secrets:naming");
    select(ref);
    keys({ QStringLiteral("Enter") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("QUESTION: Name the naming backend")), 60000);
    QVERIFY(screen().contains(QStringLiteral("(empty: ok-default)")));
    // Esc refuses the question, and the activation fails for want of the answer.
    keys({ QStringLiteral("Escape") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("activating %1 failed").arg(ref)), 60000);
    QVERIFY(screen().contains(QStringLiteral("no name was given")));

    // Typed text, 'q' and 'n' included, is the answer the engine gets.
    keys({ QStringLiteral("Enter") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("QUESTION: Name the naming backend")), 60000);
    type(QStringLiteral("ok-quinn"));
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("answer: ok-quinn_")), 30000);
    keys({ QStringLiteral("Enter") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("%1 is active").arg(ref)), 60000);
    QVERIFY(!screen().contains(QStringLiteral("QUESTION")));
}

void TestTui::quitsCleanlyOnTermination()
{
    const QString pid = tuiPid();
    QVERIFY(!pid.isEmpty() && !pid.contains(QLatin1Char(' ')));
    QProcess::execute(QStringLiteral("kill"), { QStringLiteral("-TERM"), pid });
    QTRY_COMPARE_WITH_TIMEOUT(exitStatus(), QString::number(128 + 15), 30000);
}

QString TestTui::tuiCommand(const QString &hostOption, const QString &statusFile, const QString &after) const
{
    return QStringLiteral("exec sh -c 'env SANDBOX_CONFIG_DIR=\"$1/config\" SANDBOX_STATE_DIR=\"$1/state\" "
                          "SANDBOX_PACK_PATH=\"$3\" TERM=xterm \"$2\" %4 --socket \"$1/run/engine.sock\" tui; "
                          "echo $? > \"$1/%5\"%6' sh '%1' '%2' '%3'")
        .arg(m_root->path(), QCoreApplication::applicationDirPath() + QStringLiteral("/sandboxctl"),
             QStringLiteral(SANDBOX_TEST_PACK_DIR), hostOption, statusFile, after);
}

void TestTui::startSecondTui()
{
    const QString command = tuiCommand({}, QStringLiteral("second-exit-status"), QStringLiteral("; exec sleep 3600"));
    tmux(
        { QStringLiteral("new-window"), QStringLiteral("-d"), QStringLiteral("-t"), QStringLiteral("tui:1"), command });
    QTRY_VERIFY_WITH_TIMEOUT(screenOf(QStringLiteral("tui:1.0")).contains(QStringLiteral("BACKENDS")), 30000);
}

// A question both terminals show, answered in one, goes from the other too.
void TestTui::questionAnsweredInOneTerminalLeavesTheOther()
{
    startSecondTui();
    const QString second = QStringLiteral("tui:1.0");
    select(QStringLiteral("atom-pack:test-secrets:naming"));
    keys({ QStringLiteral("Enter") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("QUESTION: Name the naming backend")), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(screenOf(second).contains(QStringLiteral("QUESTION: Name the naming backend")), 30000);
    tmux({ QStringLiteral("send-keys"), QStringLiteral("-t"), second, QStringLiteral("-l"), QStringLiteral("other") });
    tmux({ QStringLiteral("send-keys"), QStringLiteral("-t"), second, QStringLiteral("Enter") });
    QTRY_VERIFY_WITH_TIMEOUT(!screenOf(second).contains(QStringLiteral("QUESTION:")), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!screen().contains(QStringLiteral("QUESTION:")), 30000);
}

// The engine the terminal UI uses goes away (here: the terminal UI hosting it quits): the
// other one ends with status 1 and says why and what to do, readable after the screen.
void TestTui::engineGoingAwayIsSaid()
{
    startSecondTui();
    keys({ QStringLiteral("q") });
    QTRY_COMPARE_WITH_TIMEOUT(exitStatus(), QStringLiteral("0"), 30000);
    QTRY_COMPARE_WITH_TIMEOUT(exitStatus(QStringLiteral("second-exit-status")), QStringLiteral("1"), 30000);
    const QString last = screenOf(QStringLiteral("tui:1.0"));
    QVERIFY2(last.contains(QStringLiteral("the engine went away")), qPrintable(last));
}

// At 80 columns the list cuts a long state; the selected backend's shows whole below it.
void TestTui::narrowTerminalShowsTheSelectedBackendsWholeState()
{
    tmux({ QStringLiteral("resize-window"), QStringLiteral("-t"), QStringLiteral("tui"), QStringLiteral("-x"),
           QStringLiteral("80"), QStringLiteral("-y"), QStringLiteral("24") });
    select(QStringLiteral("builtin:vm"));
    const QString reason = QStringLiteral("the VM backend has not been prepared");
    QTRY_VERIFY_WITH_TIMEOUT(screen().simplified().contains(reason), 30000);
    const QStringList rows = screen().split(QLatin1Char('\n'));
    for (const QString &row : rows)
        QVERIFY2(row.size() <= 80, qPrintable(row));
}

// The policy view lists the policy's credentials with whether each has a value; 'v' takes a
// value typed without echo, 'x' removes one after asking; what another client changes shows.
void TestTui::setsAndRemovesCredentialValuesAndFollowsOthers()
{
    const QString name = QStringLiteral("tuitoken%1").arg(QCoreApplication::applicationPid());
    const QString value = QStringLiteral("tui-secret-%1").arg(QCoreApplication::applicationPid());
    // The keychain outlives this test's configuration: a value another run stored goes first.
    sandboxctl({ QStringLiteral("credential"), QStringLiteral("remove"), name });
    QJsonObject policy
        = QJsonDocument::fromJson(
              sandboxctl({ QStringLiteral("policy"), QStringLiteral("show"), QStringLiteral("--json") }).toUtf8())
              .object();
    QVERIFY(!policy.isEmpty());
    policy.insert(
        QStringLiteral("credentials"),
        QJsonArray{ QJsonObject{ { QStringLiteral("name"), name },
                                 { QStringLiteral("env"), QStringLiteral("TUI_TOKEN") },
                                 { QStringLiteral("hosts"), QJsonArray{ QStringLiteral("git.example.com") } } } });
    QJsonObject network = policy.value(QStringLiteral("network")).toObject();
    network.insert(QStringLiteral("mode"), QStringLiteral("allowlist"));
    network.insert(QStringLiteral("allowedDomains"), QJsonArray{ QStringLiteral("git.example.com") });
    policy.insert(QStringLiteral("network"), network);
    QFile file(m_root->filePath(QStringLiteral("policy.json")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(policy).toJson());
    file.close();
    const QString set = sandboxctl({ QStringLiteral("policy"), QStringLiteral("set"), file.fileName() });
    QVERIFY2(set.contains(QStringLiteral("policy updated")), qPrintable(set));

    keys({ QStringLiteral("p") });
    const QRegularExpression unset(
        QStringLiteral("%1 +no value +git\\.example\\.com  \\(commands see TUI_TOKEN\\)").arg(name));
    const QRegularExpression stored(QStringLiteral("%1 +value stored +git\\.example\\.com").arg(name));
    QTRY_VERIFY_WITH_TIMEOUT(unset.match(screen()).hasMatch(), 30000);

    // A value typed after 'v' is never drawn, not even as marks; Enter stores it.
    keys({ QStringLiteral("v") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("new value of %1 (typing is not shown)").arg(name)),
                             30000);
    type(value);
    QVERIFY(!screen().contains(value));
    QVERIFY(!screen().contains(QStringLiteral("****")));
    keys({ QStringLiteral("Enter") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("the value of %1 was stored").arg(name)), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(stored.match(screen()).hasMatch(), 30000);
    QVERIFY(!screen().contains(value));
    QString listed = sandboxctl({ QStringLiteral("credential"), QStringLiteral("list") });
    QVERIFY2(listed.contains(QStringLiteral("%1  value stored").arg(name)), qPrintable(listed));
    const QString grep = QStringLiteral("grep -rq -- '%1' '%2'").arg(value, m_root->path());
    QCOMPARE(QProcess::execute(QStringLiteral("sh"), { QStringLiteral("-c"), grep }), 1);

    // Esc after 'v' changes nothing.
    keys({ QStringLiteral("v") });
    type(QStringLiteral("abandoned"));
    keys({ QStringLiteral("Escape") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("nothing changed")), 30000);
    QVERIFY(stored.match(screen()).hasMatch());

    // Another client removes the value, then stores one: the view follows.
    listed = sandboxctl({ QStringLiteral("credential"), QStringLiteral("remove"), name });
    QVERIFY2(listed.contains(QStringLiteral("removed")), qPrintable(listed));
    QTRY_VERIFY_WITH_TIMEOUT(unset.match(screen()).hasMatch(), 30000);
    listed = sandboxctl({ QStringLiteral("credential"), QStringLiteral("set"), name }, value.toUtf8());
    QVERIFY2(listed.contains(QStringLiteral("stored")), qPrintable(listed));
    QTRY_VERIFY_WITH_TIMEOUT(stored.match(screen()).hasMatch(), 30000);

    // A locked keychain refuses the value: the status line says so and what to do, nothing
    // is stored; unlocked, the same keys store it.
    const QString keyring = QStringLiteral(SANDBOX_SOURCE_DIR "/tests/keyring-lock.py");
    QVERIFY(sandboxctl({ QStringLiteral("credential"), QStringLiteral("remove"), name })
                .contains(QStringLiteral("removed")));
    QTRY_VERIFY_WITH_TIMEOUT(unset.match(screen()).hasMatch(), 30000);
    QCOMPARE(QProcess::execute(keyring, { QStringLiteral("lock") }), 0);
    keys({ QStringLiteral("v") });
    type(value);
    keys({ QStringLiteral("Enter") });
    const bool refused = QTest::qWaitFor(
        [this, &name] { return screen().contains(QStringLiteral("the value of %1 was not stored").arg(name)); }, 30000);
    const QString said = screen();
    QCOMPARE(QProcess::execute(keyring, { QStringLiteral("unlock") }), 0);
    QVERIFY2(refused, qPrintable(said));
    QVERIFY2(said.simplified().contains(QStringLiteral("Unlock it and try again")), qPrintable(said));
    QVERIFY(!said.contains(value));
    QVERIFY(unset.match(said).hasMatch());
    QVERIFY(sandboxctl({ QStringLiteral("credential"), QStringLiteral("list") })
                .contains(QStringLiteral("%1  no value stored").arg(name)));
    keys({ QStringLiteral("v") });
    type(value);
    keys({ QStringLiteral("Enter") });
    QTRY_VERIFY_WITH_TIMEOUT(stored.match(screen()).hasMatch(), 30000);

    // 'x' asks first; 'n' keeps the value, 'y' removes it.
    keys({ QStringLiteral("x") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("remove the stored value of %1?").arg(name)), 30000);
    keys({ QStringLiteral("n") });
    QTRY_VERIFY_WITH_TIMEOUT(!screen().contains(QStringLiteral("remove the stored value")), 30000);
    QVERIFY(stored.match(screen()).hasMatch());
    QVERIFY(sandboxctl({ QStringLiteral("credential"), QStringLiteral("list") })
                .contains(QStringLiteral("%1  value stored").arg(name)));
    keys({ QStringLiteral("x") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("remove the stored value of %1?").arg(name)), 30000);
    keys({ QStringLiteral("y") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("the value of %1 was removed").arg(name)), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(unset.match(screen()).hasMatch(), 30000);
    listed = sandboxctl({ QStringLiteral("credential"), QStringLiteral("list") });
    QVERIFY2(listed.contains(QStringLiteral("%1  no value stored").arg(name)), qPrintable(listed));
}

QTEST_GUILESS_MAIN(TestTui)
#include "tst_tui.moc"
