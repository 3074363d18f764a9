#include "ByteSizeEdit.h"

#include "WheelGuard.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>

#include <algorithm>
#include <cmath>

namespace sandbox {

namespace {

constexpr int kUnits = 5; // bytes, KiB, MiB, GiB, TiB

double unitSize(int unit)
{
    return std::pow(1024.0, unit);
}

// The largest unit in which `bytes` is a whole number.
int bestUnit(double bytes)
{
    for (int unit = kUnits - 1; unit > 0; --unit) {
        const double amount = bytes / unitSize(unit);
        if (std::abs(amount) >= 1 && std::abs(amount - std::round(amount)) < 1e-9)
            return unit;
    }
    return 0;
}

} // namespace

ByteSizeEdit::ByteSizeEdit(const QString &name, const QString &label, std::optional<double> minimum,
                           std::optional<double> maximum, QWidget *parent)
    : QWidget(parent)
    , m_amount(new QDoubleSpinBox(this))
    , m_unit(new QComboBox(this))
    , m_minimum(minimum.value_or(0))
    , m_maximum(maximum.value_or(std::pow(1024.0, 6)))
{
    setObjectName(name);
    m_amount->setObjectName(name + QStringLiteral("_amount"));
    m_amount->setKeyboardTracking(false);
    m_amount->setCorrectionMode(QAbstractSpinBox::CorrectToNearestValue);
    // Whole amounts of the chosen unit: 1.5 GiB is entered as 1536 MiB.
    m_amount->setDecimals(0);
    m_amount->setAccessibleName(label);
    m_unit->setObjectName(name + QStringLiteral("_unit"));
    m_unit->setAccessibleName(tr("Unit of %1").arg(label));
    m_unit->addItems({ tr("bytes"), tr("KiB"), tr("MiB"), tr("GiB"), tr("TiB") });
    WheelGuard::install(m_amount);
    WheelGuard::install(m_unit);
    setFocusProxy(m_amount);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_amount, 1);
    layout->addWidget(m_unit);

    connect(m_amount, &QDoubleSpinBox::valueChanged, this, &ByteSizeEdit::edited);
    connect(m_unit, &QComboBox::currentIndexChanged, this, [this] {
        updateRange();
        emit edited();
    });
    setBytes(m_minimum);
}

double ByteSizeEdit::bytes() const
{
    return std::round(m_amount->value() * unitSize(m_unit->currentIndex()));
}

void ByteSizeEdit::setBytes(double bytes)
{
    const QSignalBlocker amountBlocker(m_amount);
    const QSignalBlocker unitBlocker(m_unit);
    const int unit = bestUnit(bytes);
    m_unit->setCurrentIndex(unit);
    updateRange();
    m_amount->setValue(bytes / unitSize(unit));
}

void ByteSizeEdit::updateRange()
{
    const double size = unitSize(m_unit->currentIndex());
    m_amount->setRange(std::ceil(m_minimum / size),
                       std::max(std::ceil(m_minimum / size), std::floor(m_maximum / size)));
}

} // namespace sandbox
