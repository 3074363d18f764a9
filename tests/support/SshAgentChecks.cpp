#include "SshAgentChecks.h"

#include "client/Client.h"
#include "client/LocalSocketTransport.h"

#include <QDir>
#include <QTest>

namespace sandbox::test {

QString agentSigningScript()
{
    return QStringLiteral(
        "ssh-add -l; echo listed=$?; rm -f data.sig; ssh-keygen -q -Y sign -f listed.pub -n file data; "
        "echo signed=$?; ssh-keygen -q -Y sign -f unlisted.pub -n file data 2>/dev/null; echo unlisted=$?; "
        "echo \"socket=$SSH_AUTH_SOCK\"");
}

void checkListedKeyAloneSigns(const OpenSshRig &rig, const Outcome &ran)
{
    const QByteArray said = ran.out + ran.err;
    QVERIFY2(ran.out.contains(rig.listedFingerprint().toLatin1()), said.constData());
    QVERIFY2(!ran.out.contains(rig.unlistedFingerprint().toLatin1()), said.constData());
    QVERIFY2(ran.out.contains("listed=0\n") && ran.out.contains("signed=0\n"), said.constData());
    QVERIFY2(ran.out.contains("unlisted=") && !ran.out.contains("unlisted=0\n"), said.constData());
}

void checkSignedCommit(const OpenSshRig &rig, const QString &project, const QString &keyFolder,
                       const QString &gitOptions, const std::function<Outcome(const QString &script)> &run)
{
    QVERIFY(QDir().mkpath(project));
    QCOMPARE(OpenSshRig::git({ QStringLiteral("init"), QStringLiteral("-q"), project }).exitCode, 0);
    QVERIFY(OpenSshRig::writeFile(project + QStringLiteral("/file"), "signed content\n"));
    const Outcome ran = run(QStringLiteral("cd %1 && git %3add file && git %3-c user.name=Tester -c "
                                           "user.email=tester@example.org -c gpg.format=ssh -c "
                                           "user.signingkey=%2/listed.pub commit -q -S -m signed && echo committed")
                                .arg(project, keyFolder, gitOptions));
    QVERIFY2(ran.out.contains("committed"), QByteArray(ran.out + ran.err).constData());
    const QString verified = rig.verifyCommit(rig.listedKey(), project);
    QVERIFY2(verified.isEmpty(), qPrintable(verified));
}

void checkConfirmationPerSignature(const QString &engineSocket,
                                   const std::function<void(QProcess &command, const QStringList &shell)> &start,
                                   int timeoutMs)
{
    QString error;
    auto transport = LocalSocketTransport::connectTo(engineSocket, 10000, &error);
    QVERIFY2(transport, qPrintable(error));
    Client presenter(std::move(transport));
    bool accept = false;
    int asked = 0;
    QObject::connect(&presenter, &Client::hostInteractionRequested, &presenter,
                     [&](const HostInteractionRequest &request) {
                         if (request.subject != QStringLiteral("ssh-signature"))
                             return;
                         ++asked;
                         HostInteractionResponse response;
                         response.id = request.id;
                         response.accepted = accept;
                         presenter.answerInteraction(response);
                     });
    const QStringList shell{ QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                             QStringLiteral("for n in 1 2; do ssh-keygen -q -Y sign -f listed.pub -n file data "
                                            "2>/dev/null && rm data.sig && echo signed; done; echo done") };
    for (const bool answer : { false, true }) {
        accept = answer;
        asked = 0;
        QProcess command;
        start(command, shell);
        command.closeWriteChannel();
        QTRY_VERIFY_WITH_TIMEOUT(command.state() == QProcess::NotRunning, timeoutMs);
        const QByteArray out = command.readAllStandardOutput();
        QVERIFY2(out.contains("done"), QByteArray(out + command.readAllStandardError()).constData());
        QCOMPARE(out.count("signed"), answer ? 2 : 0);
        QCOMPARE(asked, 2);
    }
}

} // namespace sandbox::test
