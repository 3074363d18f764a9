#pragma once

#include "protocol/SettingsValues.h"

#include <QWidget>

class QAction;
class QLabel;
class QLineEdit;
class QPushButton;

namespace sandbox {

// A secret setting. It never shows a stored value (the engine never returns one): only
// "Configured" or "Not set", with explicit Replace… and Remove actions. The replacement
// is typed into a masked field with a show/hide toggle; an empty replacement changes
// nothing.
class SecretField final : public QWidget
{
    Q_OBJECT

public:
    SecretField(const QString &fieldId, const QString &label, QWidget *parent = nullptr);

    // Names this field `base` and its parts `base_status`, `base_input` … (by default
    // "field_" + the field id, as the schema form's rows are named).
    void setNameBase(const QString &base);

    void setConfigured(bool configured);
    bool isConfigured() const { return m_configured; }
    // Keep (nothing typed / nothing chosen), Replace with the typed value, or Remove.
    SecretUpdate update() const;
    // Back to "no change"; wipes any typed value.
    void reset();

signals:
    void changed();
    // Enter in the value field: a form that saves each field on its own saves this one.
    void submitted();

private:
    enum class Pending { None, Replace, Remove };
    void setPending(Pending pending);
    void refresh();

    QString m_fieldId;
    bool m_configured = false;
    Pending m_pending = Pending::None;
    QLabel *m_status = nullptr;
    QPushButton *m_replace = nullptr;
    QPushButton *m_remove = nullptr;
    QPushButton *m_cancel = nullptr;
    QLineEdit *m_input = nullptr;
    QAction *m_reveal = nullptr;
};

} // namespace sandbox
