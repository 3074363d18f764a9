#pragma once

#include "protocol/BackendRef.h"
#include "protocol/FieldSpec.h"
#include "protocol/SettingsValues.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QList>
#include <QMap>
#include <QString>

#include <optional>

namespace sandbox {

// One backend's settings as an editable form for the terminal UI, built only from the
// descriptor's fields (the schema Studio's form renders): no backend-specific code. Keys
// select, edit, toggle and mark; secrets are typed masked and become explicit
// SecretUpdates (typed = replace, empty = no change, 'x' = remove). No ncurses drawing
// here: the UI draws rows().
class SettingsForm
{
    Q_DECLARE_TR_FUNCTIONS(SettingsForm)

public:
    enum class Action { None, Save, Activate, Close };

    struct Row
    {
        QString text;
        bool selected = false;
    };

    SettingsForm(const BackendRef &ref, const QList<FieldSpec> &fields, const SettingsView &view);

    const BackendRef &ref() const { return m_ref; }
    // Takes one key (a curses key code or a byte of typed text).
    Action handleKey(int key);
    QList<Row> rows() const;
    // What Save sends, or the error naming the field that does not parse or validate.
    Result<SettingsValues> values() const;
    QList<SecretUpdate> secretUpdates() const;
    bool isEditing() const { return m_editing; }
    QString hint() const;

private:
    void startEditing();
    void finishEditing();
    void cycle(int step);
    QString shown(const FieldSpec &field) const;

    BackendRef m_ref;
    QList<FieldSpec> m_fields;
    SettingsValues m_values;
    QMap<QString, bool> m_secretsConfigured;
    bool m_secretsUnknown = false; // the keychain could not be read
    QMap<QString, QString> m_texts; // typed number and string values not yet checked, by field id
    QMap<QString, SecretUpdate> m_secretUpdates; // by field id
    qsizetype m_selected = 0;
    bool m_editing = false;
    QByteArray m_typed; // the line being typed (UTF-8)
};

} // namespace sandbox
