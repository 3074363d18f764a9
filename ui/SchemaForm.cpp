#include "SchemaForm.h"

#include "ByteSizeEdit.h"
#include "SecretField.h"
#include "WheelGuard.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

namespace sandbox {

namespace {

// Set on an editor once it holds a value that belongs in values(): stored or edited.
constexpr const char *kHasValue = "sandboxHasValue";
constexpr double kIntLimit = 2147483647.0;

bool isWhole(const std::optional<double> &number)
{
    return !number || (std::floor(*number) == *number && std::fabs(*number) <= kIntLimit);
}

QString errorStyle()
{
    return QStringLiteral("color: #c62828;");
}

} // namespace

SchemaForm::SchemaForm(QWidget *parent)
    : QWidget(parent)
    , m_empty(new QLabel(this))
    , m_formError(new QLabel(this))
    , m_insecure(new QLabel(this))
    , m_requiredNote(new QLabel(tr("* Required"), this))
{
    setObjectName(QStringLiteral("schemaForm"));
    m_empty->setObjectName(QStringLiteral("schemaFormEmpty"));
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setEnabled(false);
    m_formError->setObjectName(QStringLiteral("schemaFormError"));
    m_formError->setWordWrap(true);
    m_formError->setStyleSheet(errorStyle());
    m_formError->hide();
    m_insecure->setObjectName(QStringLiteral("schemaFormInsecureStorage"));
    m_insecure->setWordWrap(true);
    m_insecure->setText(tr("Secrets of this backend are stored without the system keychain, because plaintext "
                           "storage was turned on."));
    m_insecure->hide();
    m_requiredNote->setObjectName(QStringLiteral("schemaFormRequiredNote"));
    m_requiredNote->setEnabled(false);
    m_requiredNote->hide();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_formError);
    layout->addWidget(m_insecure);
    layout->addWidget(m_empty);
    layout->addWidget(m_requiredNote);
    layout->addStretch(1);
    clear();
}

void SchemaForm::clear()
{
    delete m_fields;
    m_fields = nullptr;
    m_form = nullptr;
    m_rows.clear();
    m_initialValues = {};
    m_hasSchema = false;
    m_empty->setText(tr("Select a backend to see its settings."));
    m_empty->show();
    m_insecure->hide();
    m_requiredNote->hide();
    clearErrors();
}

void SchemaForm::setSchema(const BackendDescriptor &descriptor, const SettingsView &view)
{
    clear();
    m_hasSchema = true;
    if (descriptor.fields.isEmpty()) {
        m_empty->setText(tr("This backend has no settings."));
        return;
    }
    m_empty->hide();

    m_fields = new QWidget(this);
    m_fields->setObjectName(QStringLiteral("schemaFormFields"));
    m_form = new QFormLayout(m_fields);
    m_form->setContentsMargins(0, 0, 0, 0);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    qobject_cast<QVBoxLayout *>(layout())->insertWidget(3, m_fields);

    bool anyRequired = false;
    for (const FieldSpec &spec : descriptor.fields) {
        auto *cell = new QWidget(m_fields);
        auto *cellLayout = new QVBoxLayout(cell);
        cellLayout->setContentsMargins(0, 0, 0, 0);
        cellLayout->setSpacing(2);

        QWidget *editor = createEditor(spec, view);
        editor->setParent(cell);
        editor->setToolTip(spec.description);
        editor->setAccessibleName(spec.label);
        editor->setAccessibleDescription(spec.description);
        cellLayout->addWidget(editor);

        auto *error = new QLabel(cell);
        error->setObjectName(QStringLiteral("field_") + spec.id + QStringLiteral("_error"));
        error->setWordWrap(true);
        error->setStyleSheet(errorStyle());
        error->hide();
        cellLayout->addWidget(error);

        // A check box carries its own label (as in every native settings dialog).
        const QString text = spec.type == FieldSpec::Type::Boolean ? QString()
            : spec.required                                        ? tr("%1 *").arg(spec.label)
                                                                   : spec.label;
        auto *label = new QLabel(text, m_fields);
        label->setObjectName(QStringLiteral("field_") + spec.id + QStringLiteral("_label"));
        label->setBuddy(editor);
        label->setToolTip(
            spec.required ? (spec.description.isEmpty() ? tr("Required") : tr("%1 (required)").arg(spec.description))
                          : spec.description);
        anyRequired = anyRequired || spec.required;
        m_form->addRow(label, cell);
        m_rows.append(Row{ spec, editor, error });
    }
    m_requiredNote->setVisible(anyRequired);
    m_insecure->setVisible(view.insecureStorage && descriptor.hasSecrets());
    m_initialValues = values();
}

QWidget *SchemaForm::createEditor(const FieldSpec &spec, const SettingsView &view)
{
    const QString name = QStringLiteral("field_") + spec.id;
    const QJsonValue stored = view.values.values.value(spec.id);
    const bool hasStored = !stored.isUndefined() && !stored.isNull();
    const QJsonValue initial = hasStored ? stored : spec.defaultValue;
    QWidget *editor = nullptr;

    switch (spec.type) {
    case FieldSpec::Type::String: {
        auto *line = new QLineEdit;
        if (hasStored)
            line->setText(stored.toString());
        if (spec.defaultValue.isString())
            line->setPlaceholderText(spec.defaultValue.toString());
        else if (spec.required)
            line->setPlaceholderText(tr("Required"));
        line->setClearButtonEnabled(true);
        connect(line, &QLineEdit::textChanged, this, [this, line] { onEdited(line); });
        editor = line;
        break;
    }
    case FieldSpec::Type::Number: {
        if (spec.unit == FieldSpec::Unit::Bytes) {
            auto *size = new ByteSizeEdit(name, spec.label, spec.min, spec.max);
            if (initial.isDouble())
                size->setBytes(initial.toDouble());
            size->setToolTip(spec.description);
            connect(size, &ByteSizeEdit::edited, this, [this, size] { onEdited(size); });
            editor = size;
            break;
        }
        if (isWhole(spec.min) && isWhole(spec.max)
            && isWhole(initial.isDouble() ? std::optional(initial.toDouble()) : std::nullopt)) {
            auto *spin = new QSpinBox;
            spin->setRange(spec.min ? int(*spec.min) : -int(kIntLimit), spec.max ? int(*spec.max) : int(kIntLimit));
            if (initial.isDouble())
                spin->setValue(int(initial.toDouble()));
            connect(spin, &QSpinBox::valueChanged, this, [this, spin] { onEdited(spin); });
            editor = spin;
        } else {
            auto *spin = new QDoubleSpinBox;
            spin->setDecimals(3);
            spin->setRange(spec.min.value_or(-1e12), spec.max.value_or(1e12));
            if (initial.isDouble())
                spin->setValue(initial.toDouble());
            connect(spin, &QDoubleSpinBox::valueChanged, this, [this, spin] { onEdited(spin); });
            editor = spin;
        }
        auto *spin = static_cast<QAbstractSpinBox *>(editor);
        spin->setKeyboardTracking(false);
        spin->setCorrectionMode(QAbstractSpinBox::CorrectToNearestValue);
        QStringList range;
        if (spec.min)
            range << tr("minimum %1").arg(*spec.min);
        if (spec.max)
            range << tr("maximum %1").arg(*spec.max);
        if (!range.isEmpty())
            spin->setStatusTip(range.join(QStringLiteral(", ")));
        WheelGuard::install(spin);
        break;
    }
    case FieldSpec::Type::Boolean: {
        auto *check = new QCheckBox;
        check->setText(spec.label);
        check->setChecked(initial.toBool(false));
        connect(check, &QCheckBox::toggled, this, [this, check] { onEdited(check); });
        editor = check;
        break;
    }
    case FieldSpec::Type::Select: {
        auto *combo = new QComboBox;
        for (const SelectOption &option : spec.options)
            combo->addItem(option.label.isEmpty() ? option.value : option.label, option.value);
        combo->setCurrentIndex(initial.isString() ? combo->findData(initial.toString()) : -1);
        if (combo->currentIndex() < 0)
            combo->setPlaceholderText(spec.required ? tr("Choose…") : tr("(not set)"));
        // A long choice must not widen the form past its pane; the popup shows it whole.
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(16);
        connect(combo, &QComboBox::currentIndexChanged, this, [this, combo] { onEdited(combo); });
        WheelGuard::install(combo);
        editor = combo;
        break;
    }
    case FieldSpec::Type::Secret: {
        auto *secret = new SecretField(spec.id, spec.label);
        secret->setConfigured(view.secretsConfigured.value(spec.id, false));
        connect(secret, &SecretField::changed, this, [this, secret] { onEdited(secret); });
        editor = secret;
        break;
    }
    }
    editor->setObjectName(name);
    editor->setProperty(kHasValue, hasStored);
    return editor;
}

void SchemaForm::onEdited(QWidget *editor)
{
    editor->setProperty(kHasValue, true);
    for (const Row &row : std::as_const(m_rows)) {
        if (row.editor == editor) {
            row.error->clear();
            row.error->hide();
        }
    }
    emit changed();
}

QJsonValue SchemaForm::valueOf(const Row &row) const
{
    if (!row.editor->property(kHasValue).toBool())
        return QJsonValue::Undefined;
    switch (row.spec.type) {
    case FieldSpec::Type::String: {
        const QString text = static_cast<QLineEdit *>(row.editor)->text();
        // Empty means "use the default" (or "not set"), never a stored empty string.
        return text.isEmpty() ? QJsonValue(QJsonValue::Undefined) : QJsonValue(text);
    }
    case FieldSpec::Type::Number:
        if (auto *size = qobject_cast<ByteSizeEdit *>(row.editor))
            return size->bytes();
        if (auto *spin = qobject_cast<QSpinBox *>(row.editor))
            return spin->value();
        return static_cast<QDoubleSpinBox *>(row.editor)->value();
    case FieldSpec::Type::Boolean:
        return static_cast<QCheckBox *>(row.editor)->isChecked();
    case FieldSpec::Type::Select: {
        auto *combo = static_cast<QComboBox *>(row.editor);
        return combo->currentIndex() < 0 ? QJsonValue(QJsonValue::Undefined)
                                         : QJsonValue(combo->currentData().toString());
    }
    case FieldSpec::Type::Secret:
        return QJsonValue::Undefined;
    }
    return QJsonValue::Undefined;
}

QStringList SchemaForm::missingRequired() const
{
    QStringList missing;
    const SettingsValues current = values();
    for (const Row &row : m_rows) {
        if (!row.spec.required)
            continue;
        bool present = false;
        if (row.spec.type == FieldSpec::Type::Secret) {
            const auto *secret = static_cast<SecretField *>(row.editor);
            const SecretUpdate update = secret->update();
            present = update.action == SecretUpdate::Action::Replace && !update.value.isEmpty()
                ? true
                : secret->isConfigured() && update.action != SecretUpdate::Action::Remove;
        } else {
            present = current.values.contains(row.spec.id) || !row.spec.defaultValue.isUndefined();
        }
        if (!present)
            missing << row.spec.label;
    }
    return missing;
}

SettingsValues SchemaForm::values() const
{
    SettingsValues result;
    for (const Row &row : m_rows) {
        const QJsonValue value = valueOf(row);
        if (!value.isUndefined())
            result.values.insert(row.spec.id, value);
    }
    return result;
}

QList<SecretUpdate> SchemaForm::secretUpdates() const
{
    QList<SecretUpdate> updates;
    for (const Row &row : m_rows) {
        if (auto *secret = qobject_cast<SecretField *>(row.editor)) {
            SecretUpdate update = secret->update();
            if (update.action != SecretUpdate::Action::Keep)
                updates.append(std::move(update));
        }
    }
    return updates;
}

bool SchemaForm::isDirty() const
{
    return values() != m_initialValues || !secretUpdates().isEmpty();
}

const SchemaForm::Row *SchemaForm::rowForLocation(const QString &where) const
{
    for (const Row &row : m_rows) {
        const QString &id = row.spec.id;
        if (where == id || where.endsWith(QLatin1Char('.') + id))
            return &row;
    }
    return nullptr;
}

bool SchemaForm::showErrors(const Error &error)
{
    clearErrors();
    QStringList unmatched;
    bool matched = false;
    QList<Error> pending{ error };
    while (!pending.isEmpty()) {
        const Error current = pending.takeFirst();
        pending.append(current.details);
        if (const Row *row = rowForLocation(current.where)) {
            const QString previous = row->error->text();
            row->error->setText(previous.isEmpty() ? current.message : previous + QLatin1Char('\n') + current.message);
            row->error->show();
            matched = true;
        } else if (current.details.isEmpty()) {
            unmatched << current.toString();
        }
    }
    if (!unmatched.isEmpty()) {
        m_formError->setText(unmatched.join(QLatin1Char('\n')));
        m_formError->show();
    }
    return matched;
}

void SchemaForm::clearErrors()
{
    m_formError->clear();
    m_formError->hide();
    for (const Row &row : std::as_const(m_rows)) {
        row.error->clear();
        row.error->hide();
    }
}

QString SchemaForm::fieldError(const QString &fieldId) const
{
    for (const Row &row : m_rows) {
        if (row.spec.id == fieldId)
            return row.error->text();
    }
    return {};
}

} // namespace sandbox
