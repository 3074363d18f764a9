#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>
#include <utility>
#include <variant>

namespace sandbox {
struct Error;
}

// Error contains QList<Error>, and Qt's detection of operator== recurses through the list
// forever when a signal carries an Error (moc registers its metatype). It has one: say so,
// before Error is defined (its defaulted operator== already asks the question).
template <> struct QTypeTraits::has_operator_equal<sandbox::Error> : std::true_type
{
};

namespace sandbox {

// An error a user can act on: where it happened (a field path such as
// "settings.fields[2].defaultValue", a backend ref, a file) and what is wrong.
// `details` carries per-field errors when one operation finds several.
struct Error
{
    QString where;
    QString message;
    QList<Error> details;

    QString toString() const;
    QJsonObject toJson() const;
    static Error fromJson(const QJsonObject &object);

    friend bool operator==(const Error &, const Error &) = default;
};

template <typename T> class Result final
{
public:
    // A default Result is an error; futures need default-constructible results.
    Result()
        : m_value(Error{ QString(), QStringLiteral("no result"), {} })
    { }
    Result(T value)
        : m_value(std::move(value))
    { }
    Result(Error error)
        : m_value(std::move(error))
    { }

    bool ok() const { return std::holds_alternative<T>(m_value); }
    explicit operator bool() const { return ok(); }
    const T &value() const & { return std::get<T>(m_value); }
    T &&value() && { return std::get<T>(std::move(m_value)); }
    const Error &error() const { return std::get<Error>(m_value); }

private:
    std::variant<T, Error> m_value;
};

class Status final
{
public:
    Status() = default;
    Status(Error error)
        : m_error(std::move(error))
    { }
    static Status success() { return {}; }

    bool ok() const { return !m_error.has_value(); }
    explicit operator bool() const { return ok(); }
    const Error &error() const { return *m_error; }

private:
    std::optional<Error> m_error;
};

// The strict decoder of an Error (for messages that carry one): unknown keys and wrong
// types are rejected; details nest at most a few levels. On success fills `decoded`.
// (Not a Result<Error>: that type cannot tell its value from its error.)
Status errorFromJson(const QJsonValue &value, const QString &path, Error &decoded);

} // namespace sandbox
