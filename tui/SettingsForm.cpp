#include "SettingsForm.h"

#include <cmath>
#include <curses.h>

namespace sandbox {

namespace {

const QList<std::pair<QString, double>> byteUnits{
    { QStringLiteral("TiB"), 1024.0 * 1024 * 1024 * 1024 },
    { QStringLiteral("GiB"), 1024.0 * 1024 * 1024 },
    { QStringLiteral("MiB"), 1024.0 * 1024 },
    { QStringLiteral("KiB"), 1024.0 },
};

QString byteSize(double bytes)
{
    for (const auto &[unit, size] : byteUnits) {
        if (bytes >= size && std::fmod(bytes, size) == 0)
            return QStringLiteral("%1 %2").arg(QString::number(bytes / size, 'g', 15), unit);
    }
    return SettingsForm::tr("%1 bytes").arg(QString::number(bytes, 'g', 15));
}

} // namespace

SettingsForm::SettingsForm(const BackendRef &ref, const QList<FieldSpec> &fields, const SettingsView &view)
    : m_ref(ref)
    , m_fields(fields)
    , m_values(view.values)
    , m_secretsConfigured(view.secretsConfigured)
    , m_secretsUnknown(!view.secretsUnknown.isEmpty())
{ }

SettingsForm::Action SettingsForm::handleKey(int key)
{
    if (m_editing) {
        if (key == '\n' || key == '\r' || key == KEY_ENTER) {
            finishEditing();
        } else if (key == 27) {
            m_editing = false;
            m_typed.clear();
        } else if (key == KEY_BACKSPACE || key == 127 || key == 8) {
            // Removes one whole character, however many UTF-8 bytes it took.
            while (!m_typed.isEmpty()) {
                const char last = m_typed.back();
                m_typed.chop(1);
                if ((last & 0xC0) != 0x80)
                    break;
            }
        } else if (key >= 32 && key < 256 && key != 127) {
            m_typed.append(char(key));
        }
        return Action::None;
    }
    switch (key) {
    case KEY_UP:
    case 'k':
        m_selected = qMax<qsizetype>(0, m_selected - 1);
        break;
    case KEY_DOWN:
    case 'j':
        m_selected = qMin<qsizetype>(qMax<qsizetype>(0, m_fields.size() - 1), m_selected + 1);
        break;
    case '\n':
    case '\r':
    case KEY_ENTER:
    case 'e':
        startEditing();
        break;
    case ' ':
    case KEY_RIGHT:
        cycle(1);
        break;
    case KEY_LEFT:
        cycle(-1);
        break;
    case 'x':
        if (m_selected < m_fields.size()) {
            const FieldSpec &field = m_fields.at(m_selected);
            if (field.type == FieldSpec::Type::Secret)
                m_secretUpdates.insert(field.id, SecretUpdate{ field.id, SecretUpdate::Action::Remove, QString() });
            else {
                m_values.values.remove(field.id); // back to the default
                m_texts.remove(field.id);
            }
        }
        break;
    case 'w':
        return Action::Save;
    case 'a':
        return Action::Activate;
    case 27:
    case 'b':
        return Action::Close;
    default:
        break;
    }
    return Action::None;
}

void SettingsForm::startEditing()
{
    if (m_selected >= m_fields.size())
        return;
    const FieldSpec &field = m_fields.at(m_selected);
    if (field.type == FieldSpec::Type::Boolean || field.type == FieldSpec::Type::Select) {
        cycle(1);
        return;
    }
    m_editing = true;
    m_typed.clear();
    if (field.type == FieldSpec::Type::Secret)
        return; // a secret is never shown, so it is always typed anew
    if (m_texts.contains(field.id))
        m_typed = m_texts.value(field.id).toUtf8();
    else if (m_values.values.contains(field.id)) {
        const QJsonValue value = m_values.values.value(field.id);
        m_typed = (value.isDouble() ? QString::number(value.toDouble(), 'g', 17) : value.toString()).toUtf8();
    }
}

void SettingsForm::finishEditing()
{
    m_editing = false;
    const FieldSpec &field = m_fields.at(m_selected);
    const QString text = QString::fromUtf8(m_typed);
    m_typed.fill('\0');
    m_typed.clear();
    if (field.type == FieldSpec::Type::Secret) {
        // Empty input changes nothing; typed input replaces the stored secret.
        if (text.isEmpty())
            m_secretUpdates.remove(field.id);
        else
            m_secretUpdates.insert(field.id, SecretUpdate{ field.id, SecretUpdate::Action::Replace, text });
        return;
    }
    if (text.isEmpty()) {
        m_texts.remove(field.id);
        m_values.values.remove(field.id);
        return;
    }
    m_texts.insert(field.id, text);
}

void SettingsForm::cycle(int step)
{
    if (m_selected >= m_fields.size())
        return;
    const FieldSpec &field = m_fields.at(m_selected);
    const QJsonValue current
        = m_values.values.contains(field.id) ? m_values.values.value(field.id) : field.defaultValue;
    if (field.type == FieldSpec::Type::Boolean) {
        m_values.values.insert(field.id, !current.toBool(false));
    } else if (field.type == FieldSpec::Type::Select && !field.options.isEmpty()) {
        qsizetype index = -1;
        for (qsizetype i = 0; i < field.options.size(); ++i) {
            if (field.options.at(i).value == current.toString())
                index = i;
        }
        const qsizetype count = field.options.size();
        index = index < 0 ? 0 : ((index + step) % count + count) % count;
        m_values.values.insert(field.id, field.options.at(index).value);
    }
}

QString SettingsForm::shown(const FieldSpec &field) const
{
    if (field.type == FieldSpec::Type::Secret) {
        const SecretUpdate update = m_secretUpdates.value(field.id);
        if (update.action == SecretUpdate::Action::Replace)
            return tr("%1 (replaces the stored secret on save)").arg(QString(update.value.size(), QLatin1Char('*')));
        if (update.action == SecretUpdate::Action::Remove)
            return tr("(removed on save)");
        if (m_secretsUnknown)
            return tr("(unknown: the keychain cannot be read)");
        return m_secretsConfigured.value(field.id) ? tr("(configured)") : tr("(not configured)");
    }
    if (m_texts.contains(field.id))
        return m_texts.value(field.id);
    const bool set = m_values.values.contains(field.id);
    const QJsonValue value = set ? m_values.values.value(field.id) : field.defaultValue;
    QString text;
    if (value.isUndefined() || value.isNull())
        text = tr("(not set)");
    else if (value.isBool())
        text = value.toBool() ? tr("yes") : tr("no");
    else if (value.isDouble())
        text = field.unit == FieldSpec::Unit::Bytes ? byteSize(value.toDouble())
                                                    : QString::number(value.toDouble(), 'g', 15);
    else if (field.type == FieldSpec::Type::Select) {
        text = value.toString();
        for (const SelectOption &option : field.options) {
            if (option.value == value.toString())
                text = option.label;
        }
    } else
        text = value.toString();
    return set ? text : tr("%1 (default)").arg(text);
}

QList<SettingsForm::Row> SettingsForm::rows() const
{
    QList<Row> rows;
    if (m_fields.isEmpty())
        rows.append(Row{ tr("  (this backend has no settings)"), false });
    for (qsizetype i = 0; i < m_fields.size(); ++i) {
        const FieldSpec &field = m_fields.at(i);
        const QString label = field.required ? field.label + QStringLiteral(" *") : field.label;
        QString value = shown(field);
        if (m_editing && i == m_selected) {
            const QString typed = QString::fromUtf8(m_typed);
            value = (field.type == FieldSpec::Type::Secret ? QString(typed.size(), QLatin1Char('*')) : typed)
                + QLatin1Char('_');
        }
        rows.append(Row{ QStringLiteral("  %1 %2").arg(label, -28).arg(value), i == m_selected });
    }
    return rows;
}

QString SettingsForm::hint() const
{
    if (m_editing) {
        const bool secret = m_fields.at(m_selected).type == FieldSpec::Type::Secret;
        return secret ? tr("type the secret (hidden); Enter keeps it for saving, empty = no change, Esc cancels")
                      : tr("type the value; Enter keeps it, empty = the default, Esc cancels");
    }
    if (m_selected < m_fields.size() && !m_fields.at(m_selected).description.isEmpty())
        return m_fields.at(m_selected).description;
    return tr("Up/Down select, Enter edits, Space toggles or picks, x clears or removes a secret, "
              "w saves, a activates with these settings, b goes back without saving");
}

Result<SettingsValues> SettingsForm::values() const
{
    SettingsValues values = m_values;
    for (const FieldSpec &field : m_fields) {
        const QString where = m_ref.toString() + QLatin1Char('.') + field.id;
        if (m_texts.contains(field.id)) {
            const Result<QJsonValue> value = field.parseText(m_texts.value(field.id), where);
            if (!value.ok())
                return value.error();
            values.values.insert(field.id, value.value());
        } else if (values.values.contains(field.id)) {
            if (const Status valid = field.validateValue(values.values.value(field.id), where); !valid.ok())
                return valid.error();
        }
    }
    return values;
}

QList<SecretUpdate> SettingsForm::secretUpdates() const
{
    return m_secretUpdates.values();
}

} // namespace sandbox
