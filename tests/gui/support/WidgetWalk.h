#pragma once

#include <QString>
#include <QStringList>

class QWidget;

namespace sandbox::test {

// Looks at widgets the way a user (or a screen reader) does.
class WidgetWalk final
{
public:
    // Every text a widget tree shows or exposes: texts, placeholders, tooltips, status
    // tips, accessible names and descriptions, list, tree, combo and tab items, group
    // titles, actions (menu entries), window titles.
    static QStringList texts(QWidget *root);
    // Interactive widgets (buttons, inputs, lists ...) below root that lack an objectName
    // or an accessibleName, described for a failure message. Qt's internal sub-widgets
    // (a spin box's line edit, a line edit's clear button ...) are not counted.
    static QStringList unnamedInteractiveWidgets(QWidget *root);
    // Saves root->grab() as <build>/artifacts/<name>.png; returns the path.
    static QString saveScreenshot(QWidget *root, const QString &name);
};

} // namespace sandbox::test
