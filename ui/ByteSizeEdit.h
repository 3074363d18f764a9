#pragma once

#include <QWidget>

#include <optional>

class QComboBox;
class QDoubleSpinBox;

namespace sandbox {

// A number field whose schema says its unit is bytes: an amount and a binary unit
// (bytes, KiB, MiB, GiB, TiB), shown as a person reads it ("4 GiB", whole amounts of the
// largest unit that fits); the value is always plain bytes. Children are named "<name>_amount" and "<name>_unit".
class ByteSizeEdit final : public QWidget
{
    Q_OBJECT

public:
    ByteSizeEdit(const QString &name, const QString &label, std::optional<double> minimum,
                 std::optional<double> maximum, QWidget *parent = nullptr);

    double bytes() const;
    void setBytes(double bytes);

signals:
    void edited();

private:
    void updateRange();

    QDoubleSpinBox *m_amount = nullptr;
    QComboBox *m_unit = nullptr;
    double m_minimum = 0;
    double m_maximum = 0;
};

} // namespace sandbox
