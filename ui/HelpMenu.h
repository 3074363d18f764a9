#pragma once

#include <QObject>

class QMenu;
class QWidget;

namespace sandbox {

// The Help menu: the documentation, sandboxctl's command-line help, where the log is,
// the licences, and About. Dialogs are named "commandLineHelpDialog", "logLocationDialog"
// and "licencesDialog".
class HelpMenu final : public QObject
{
    Q_OBJECT

public:
    HelpMenu(QMenu *menu, QWidget *window);

    // The README this installation ships (installed docs, else the source tree it was
    // built from); empty when none is found.
    static QString documentationPath();

private:
    void openDocumentation();
    void showCommandLineHelp();
    void showLogLocation();
    void showLicences();
    void showAbout();

    QWidget *m_window = nullptr;
};

} // namespace sandbox
