#pragma once

#include "protocol/BackendDescriptor.h"
#include "protocol/Error.h"
#include "protocol/SettingsValues.h"

#include <QList>
#include <QStringList>
#include <QWidget>

class QFormLayout;
class QLabel;

namespace sandbox {

// The one generic settings form: renders any backend's descriptor fields with native
// widgets (string, number, boolean, select, secret) and knows nothing about any backend.
// Editors are named "field_<id>", their error labels "field_<id>_error".
class SchemaForm final : public QWidget
{
    Q_OBJECT

public:
    explicit SchemaForm(QWidget *parent = nullptr);

    // Rebuilds the form for a backend with its stored values.
    void setSchema(const BackendDescriptor &descriptor, const SettingsView &view);
    // No backend selected.
    void clear();

    // A backend's schema is shown (possibly one without fields).
    bool hasSchema() const { return m_hasSchema; }
    bool hasFields() const { return !m_rows.isEmpty(); }
    // Ordinary values the user set or that were stored; untouched defaults are left out.
    SettingsValues values() const;
    // Only explicit Replace/Remove actions.
    QList<SecretUpdate> secretUpdates() const;
    bool isDirty() const;
    // Labels of required fields that have no value now (none typed, stored or defaulted;
    // a secret neither configured nor being set), in the schema's order.
    QStringList missingRequired() const;

    // Puts each error (and its details) whose `where` names a field next to that field;
    // the rest appear above the form. Returns true when at least one field matched.
    bool showErrors(const Error &error);
    void clearErrors();
    QString fieldError(const QString &fieldId) const;

signals:
    void changed();

private:
    struct Row
    {
        FieldSpec spec;
        QWidget *editor = nullptr;
        QLabel *error = nullptr;
    };

    QWidget *createEditor(const FieldSpec &spec, const SettingsView &view);
    QJsonValue valueOf(const Row &row) const;
    const Row *rowForLocation(const QString &where) const;
    void onEdited(QWidget *editor);

    QList<Row> m_rows;
    QWidget *m_fields = nullptr;
    QFormLayout *m_form = nullptr;
    QLabel *m_empty = nullptr;
    QLabel *m_formError = nullptr;
    QLabel *m_insecure = nullptr;
    QLabel *m_requiredNote = nullptr;
    SettingsValues m_initialValues;
    bool m_hasSchema = false;
};

} // namespace sandbox
