#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sandbox::front {

// A parsed JSON value, for the run front, which links no Qt: exactly what the protocol's
// messages need (RFC 8259, UTF-8 text, nesting bounded so hostile input cannot exhaust the
// stack). Strings hold UTF-8.
class JsonValue final
{
public:
    enum class Type { Null, Bool, Number, String, Array, Object };

    // nullopt for anything that is not one complete JSON text.
    static std::optional<JsonValue> parse(std::string_view text);
    // `text` as a JSON string literal; nullopt when it is not valid UTF-8.
    static std::optional<std::string> quote(std::string_view text);
    // This value as compact JSON text.
    std::string toJson() const;

    Type type() const { return m_type; }
    bool isNull() const { return m_type == Type::Null; }
    bool isBool() const { return m_type == Type::Bool; }
    bool isNumber() const { return m_type == Type::Number; }
    bool isString() const { return m_type == Type::String; }
    bool isArray() const { return m_type == Type::Array; }
    bool isObject() const { return m_type == Type::Object; }

    bool toBool() const { return m_type == Type::Bool && m_bool; }
    double toNumber() const { return m_type == Type::Number ? m_number : 0; }
    const std::string &toString() const { return m_string; }
    const std::vector<JsonValue> &items() const { return m_items; }
    const std::vector<std::pair<std::string, JsonValue>> &members() const { return m_members; }
    // The member `key` of an object, or nullptr (also for a value that is not an object).
    const JsonValue *member(std::string_view key) const;

private:
    class Parser;

    Type m_type = Type::Null;
    bool m_bool = false;
    double m_number = 0;
    std::string m_string;
    std::vector<JsonValue> m_items;
    std::vector<std::pair<std::string, JsonValue>> m_members;
};

// Whether `text` is well-formed UTF-8 (no overlong forms, surrogates or code points past U+10FFFF).
bool isValidUtf8(std::string_view text);

} // namespace sandbox::front
