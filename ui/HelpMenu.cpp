#include "HelpMenu.h"

#include "StudioLog.h"

#include <QAction>
#include <QApplication>
#include <QDesktopServices>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace sandbox {

namespace {

QDialog *textDialog(QWidget *window, const QString &name, const QString &title, const QString &intro)
{
    auto *dialog = new QDialog(window);
    dialog->setObjectName(name);
    dialog->setWindowTitle(title);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    auto *label = new QLabel(intro, dialog);
    label->setObjectName(name + QStringLiteral("Intro"));
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    buttons->setObjectName(name + QStringLiteral("Buttons"));
    buttons->button(QDialogButtonBox::Close)->setObjectName(name + QStringLiteral("Close"));
    buttons->button(QDialogButtonBox::Close)->setAccessibleName(HelpMenu::tr("Close %1").arg(title));
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(label);
    layout->addWidget(buttons);
    return dialog;
}

} // namespace

HelpMenu::HelpMenu(QMenu *menu, QWidget *window)
    : QObject(menu)
    , m_window(window)
{
    QAction *docs = menu->addAction(tr("&Documentation"), this, &HelpMenu::openDocumentation);
    docs->setObjectName(QStringLiteral("documentationAction"));
    docs->setShortcut(QKeySequence::HelpContents);
    QAction *cli = menu->addAction(tr("&Command-Line Help"), this, &HelpMenu::showCommandLineHelp);
    cli->setObjectName(QStringLiteral("commandLineHelpAction"));
    QAction *log = menu->addAction(tr("&Log Location"), this, &HelpMenu::showLogLocation);
    log->setObjectName(QStringLiteral("logLocationAction"));
    QAction *licences = menu->addAction(tr("L&icences"), this, &HelpMenu::showLicences);
    licences->setObjectName(QStringLiteral("licencesAction"));
    menu->addSeparator();
    QAction *about = menu->addAction(tr("&About Sandbox Studio"), this, &HelpMenu::showAbout);
    about->setObjectName(QStringLiteral("aboutAction"));
}

QString HelpMenu::documentationPath()
{
    const QString bin = QCoreApplication::applicationDirPath();
    const QStringList candidates{
        QDir::cleanPath(bin + QStringLiteral("/../share/doc/sandbox-studio/README.md")),
        QStringLiteral(SANDBOX_SOURCE_DIR "/README.md"),
    };
    for (const QString &candidate : candidates) {
        if (QFileInfo(candidate).isFile())
            return candidate;
    }
    return {};
}

void HelpMenu::openDocumentation()
{
    const QString path = documentationPath();
    if (!path.isEmpty() && QDesktopServices::openUrl(QUrl::fromLocalFile(path)))
        return;
    QFile file(path);
    if (path.isEmpty() || !file.open(QIODevice::ReadOnly)) {
        auto *box
            = new QMessageBox(QMessageBox::Information, tr("Documentation"),
                              tr("The documentation is not installed on this computer."), QMessageBox::Close, m_window);
        box->setObjectName(QStringLiteral("documentationDialog"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        return;
    }
    // No program opens it: shown here, so F1 always shows the documentation.
    QDialog *dialog = textDialog(m_window, QStringLiteral("documentationDialog"), tr("Documentation"),
                                 tr("No program is set up to open %1, so it is shown here.").arg(path));
    auto *text = new QTextBrowser(dialog);
    text->setObjectName(QStringLiteral("documentationText"));
    text->setAccessibleName(tr("Documentation"));
    text->setOpenExternalLinks(true);
    text->setMarkdown(QString::fromUtf8(file.readAll()));
    text->setMinimumSize(640, 420);
    qobject_cast<QVBoxLayout *>(dialog->layout())->insertWidget(1, text, 1);
    dialog->open();
}

void HelpMenu::showCommandLineHelp()
{
    QDialog *dialog = textDialog(m_window, QStringLiteral("commandLineHelpDialog"), tr("Command-Line Help"),
                                 tr("Agents and scripts use the same engine through <b>sandboxctl</b>. Its help:"));
    auto *text = new QPlainTextEdit(dialog);
    text->setObjectName(QStringLiteral("commandLineHelpText"));
    text->setAccessibleName(tr("sandboxctl help"));
    text->setReadOnly(true);
    text->setLineWrapMode(QPlainTextEdit::NoWrap);
    text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    text->setMinimumSize(560, 320);
    qobject_cast<QVBoxLayout *>(dialog->layout())->insertWidget(1, text, 1);

    // The installed sandboxctl says what it can do; nothing here repeats it.
    auto *process = new QProcess(dialog);
    const QString program = QCoreApplication::applicationDirPath() + QStringLiteral("/sandboxctl");
    connect(process, &QProcess::finished, text, [process, text] {
        text->setPlainText(QString::fromUtf8(process->readAllStandardOutput() + process->readAllStandardError()));
    });
    connect(process, &QProcess::errorOccurred, text, [text, program](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            text->setPlainText(tr("sandboxctl was not found at %1.").arg(program));
    });
    process->start(program, { QStringLiteral("--help") });
    dialog->open();
}

void HelpMenu::showLogLocation()
{
    const QString path = StudioLog::path();
    QDialog *dialog = textDialog(m_window, QStringLiteral("logLocationDialog"), tr("Log Location"),
                                 tr("Sandbox Studio writes its log to:"));
    auto *where = new QLabel(QDir::toNativeSeparators(path), dialog);
    where->setObjectName(QStringLiteral("logLocationPath"));
    where->setTextInteractionFlags(Qt::TextSelectableByMouse);
    where->setWordWrap(true);
    auto *note = new QLabel(tr("It is also written to standard error. The previous log is kept as %1.")
                                .arg(QFileInfo(path).fileName() + QStringLiteral(".1")),
                            dialog);
    note->setObjectName(QStringLiteral("logLocationNote"));
    note->setWordWrap(true);
    auto *layout = qobject_cast<QVBoxLayout *>(dialog->layout());
    layout->insertWidget(1, where);
    layout->insertWidget(2, note);
    auto *buttons = dialog->findChild<QDialogButtonBox *>();
    QPushButton *open = buttons->addButton(tr("Open Folder"), QDialogButtonBox::ActionRole);
    open->setObjectName(QStringLiteral("logLocationOpenFolder"));
    open->setAccessibleName(tr("Open the folder that holds the log"));
    connect(open, &QPushButton::clicked, dialog,
            [path] { QDesktopServices::openUrl(QUrl::fromLocalFile(QFileInfo(path).absolutePath())); });
    dialog->open();
}

void HelpMenu::showLicences()
{
    QDialog *dialog = textDialog(
        m_window, QStringLiteral("licencesDialog"), tr("Licences"),
        tr("<p><b>Sandbox Studio</b> %1 is distributed under its own licence terms, as stated in its package.</p>"
           "<p>It is built with these components, each under its own licence:</p>"
           "<ul><li>Qt %2 — GNU LGPL version 3</li>"
           "<li>QtKeychain — BSD 3-Clause licence</li>"
           "<li>libseccomp — GNU LGPL version 2.1</li>"
           "<li>OpenSSL — Apache License 2.0</li></ul>")
            .arg(QCoreApplication::applicationVersion(), QString::fromLatin1(qVersion())));
    auto *buttons = dialog->findChild<QDialogButtonBox *>();
    QPushButton *qt = buttons->addButton(tr("About Qt"), QDialogButtonBox::HelpRole);
    qt->setObjectName(QStringLiteral("licencesAboutQt"));
    qt->setAccessibleName(tr("About Qt"));
    connect(qt, &QPushButton::clicked, dialog, [dialog] { QMessageBox::aboutQt(dialog); });
    dialog->open();
}

void HelpMenu::showAbout()
{
    auto *box = new QMessageBox(QMessageBox::Information, tr("About Sandbox Studio"),
                                tr("<b>Sandbox Studio</b> %1<br>Decides how every command an AI coding agent runs "
                                   "is confined.")
                                    .arg(QCoreApplication::applicationVersion()),
                                QMessageBox::Close, m_window);
    box->setObjectName(QStringLiteral("aboutDialog"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace sandbox
