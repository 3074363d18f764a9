#include "JsonValue.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace sandbox::front {

namespace {

constexpr int maxDepth = 64;

void appendUtf8(std::string &out, std::uint32_t codePoint)
{
    if (codePoint < 0x80) {
        out += char(codePoint);
    } else if (codePoint < 0x800) {
        out += char(0xC0 | (codePoint >> 6));
        out += char(0x80 | (codePoint & 0x3F));
    } else if (codePoint < 0x10000) {
        out += char(0xE0 | (codePoint >> 12));
        out += char(0x80 | ((codePoint >> 6) & 0x3F));
        out += char(0x80 | (codePoint & 0x3F));
    } else {
        out += char(0xF0 | (codePoint >> 18));
        out += char(0x80 | ((codePoint >> 12) & 0x3F));
        out += char(0x80 | ((codePoint >> 6) & 0x3F));
        out += char(0x80 | (codePoint & 0x3F));
    }
}

} // namespace

bool isValidUtf8(std::string_view text)
{
    size_t i = 0;
    while (i < text.size()) {
        const auto lead = static_cast<unsigned char>(text[i]);
        if (lead < 0x80) {
            ++i;
            continue;
        }
        size_t length = 0;
        std::uint32_t codePoint = 0;
        if ((lead & 0xE0) == 0xC0) {
            length = 2;
            codePoint = lead & 0x1F;
        } else if ((lead & 0xF0) == 0xE0) {
            length = 3;
            codePoint = lead & 0x0F;
        } else if ((lead & 0xF8) == 0xF0) {
            length = 4;
            codePoint = lead & 0x07;
        } else {
            return false;
        }
        if (text.size() - i < length)
            return false;
        for (size_t k = 1; k < length; ++k) {
            const auto next = static_cast<unsigned char>(text[i + k]);
            if ((next & 0xC0) != 0x80)
                return false;
            codePoint = (codePoint << 6) | (next & 0x3F);
        }
        const std::uint32_t smallest = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000;
        if (codePoint < smallest || codePoint > 0x10FFFF || (codePoint >= 0xD800 && codePoint <= 0xDFFF))
            return false;
        i += length;
    }
    return true;
}

class JsonValue::Parser
{
public:
    explicit Parser(std::string_view text)
        : m_text(text)
    { }

    std::optional<JsonValue> document()
    {
        JsonValue value;
        if (!parseValue(value, 0))
            return std::nullopt;
        skipSpace();
        if (m_pos != m_text.size())
            return std::nullopt;
        return value;
    }

private:
    void skipSpace()
    {
        while (m_pos < m_text.size()
               && (m_text[m_pos] == ' ' || m_text[m_pos] == '\t' || m_text[m_pos] == '\n' || m_text[m_pos] == '\r'))
            ++m_pos;
    }

    bool literal(std::string_view word)
    {
        if (m_text.substr(m_pos, word.size()) != word)
            return false;
        m_pos += word.size();
        return true;
    }

    bool parseValue(JsonValue &value, int depth)
    {
        if (depth > maxDepth)
            return false;
        skipSpace();
        if (m_pos >= m_text.size())
            return false;
        switch (m_text[m_pos]) {
        case 'n':
            value.m_type = Type::Null;
            return literal("null");
        case 't':
            value.m_type = Type::Bool;
            value.m_bool = true;
            return literal("true");
        case 'f':
            value.m_type = Type::Bool;
            value.m_bool = false;
            return literal("false");
        case '"':
            value.m_type = Type::String;
            return parseString(value.m_string);
        case '[':
            value.m_type = Type::Array;
            return parseArray(value, depth);
        case '{':
            value.m_type = Type::Object;
            return parseObject(value, depth);
        default:
            value.m_type = Type::Number;
            return parseNumber(value.m_number);
        }
    }

    bool parseArray(JsonValue &value, int depth)
    {
        ++m_pos; // [
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == ']') {
            ++m_pos;
            return true;
        }
        for (;;) {
            JsonValue item;
            if (!parseValue(item, depth + 1))
                return false;
            value.m_items.push_back(std::move(item));
            skipSpace();
            if (m_pos >= m_text.size())
                return false;
            const char c = m_text[m_pos++];
            if (c == ']')
                return true;
            if (c != ',')
                return false;
        }
    }

    bool parseObject(JsonValue &value, int depth)
    {
        ++m_pos; // {
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == '}') {
            ++m_pos;
            return true;
        }
        for (;;) {
            skipSpace();
            std::string key;
            if (m_pos >= m_text.size() || m_text[m_pos] != '"' || !parseString(key))
                return false;
            skipSpace();
            if (m_pos >= m_text.size() || m_text[m_pos++] != ':')
                return false;
            JsonValue member;
            if (!parseValue(member, depth + 1))
                return false;
            value.m_members.emplace_back(std::move(key), std::move(member));
            skipSpace();
            if (m_pos >= m_text.size())
                return false;
            const char c = m_text[m_pos++];
            if (c == '}')
                return true;
            if (c != ',')
                return false;
        }
    }

    bool hex4(std::uint32_t &out)
    {
        if (m_text.size() - m_pos < 4)
            return false;
        out = 0;
        for (int k = 0; k < 4; ++k) {
            const char c = m_text[m_pos++];
            out <<= 4;
            if (c >= '0' && c <= '9')
                out |= std::uint32_t(c - '0');
            else if (c >= 'a' && c <= 'f')
                out |= std::uint32_t(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                out |= std::uint32_t(c - 'A' + 10);
            else
                return false;
        }
        return true;
    }

    bool parseString(std::string &out)
    {
        ++m_pos; // opening quote
        for (;;) {
            if (m_pos >= m_text.size())
                return false;
            const auto c = static_cast<unsigned char>(m_text[m_pos]);
            if (c == '"') {
                ++m_pos;
                break;
            }
            if (c < 0x20)
                return false;
            if (c != '\\') {
                out += char(c);
                ++m_pos;
                continue;
            }
            if (++m_pos >= m_text.size())
                return false;
            const char escape = m_text[m_pos++];
            switch (escape) {
            case '"':
                out += '"';
                break;
            case '\\':
                out += '\\';
                break;
            case '/':
                out += '/';
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            case 'u': {
                std::uint32_t unit = 0;
                if (!hex4(unit))
                    return false;
                if (unit >= 0xDC00 && unit <= 0xDFFF)
                    return false;
                if (unit >= 0xD800 && unit <= 0xDBFF) {
                    std::uint32_t low = 0;
                    if (!literal("\\u") || !hex4(low) || low < 0xDC00 || low > 0xDFFF)
                        return false;
                    unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                }
                appendUtf8(out, unit);
                break;
            }
            default:
                return false;
            }
        }
        return isValidUtf8(out);
    }

    bool parseNumber(double &out)
    {
        const size_t start = m_pos;
        auto digits = [this] {
            const size_t from = m_pos;
            while (m_pos < m_text.size() && m_text[m_pos] >= '0' && m_text[m_pos] <= '9')
                ++m_pos;
            return m_pos > from;
        };
        if (m_pos < m_text.size() && m_text[m_pos] == '-')
            ++m_pos;
        if (m_pos < m_text.size() && m_text[m_pos] == '0')
            ++m_pos;
        else if (!digits())
            return false;
        if (m_pos < m_text.size() && m_text[m_pos] == '.') {
            ++m_pos;
            if (!digits())
                return false;
        }
        if (m_pos < m_text.size() && (m_text[m_pos] == 'e' || m_text[m_pos] == 'E')) {
            ++m_pos;
            if (m_pos < m_text.size() && (m_text[m_pos] == '+' || m_text[m_pos] == '-'))
                ++m_pos;
            if (!digits())
                return false;
        }
        const std::string number(m_text.substr(start, m_pos - start));
        out = std::strtod(number.c_str(), nullptr);
        return std::isfinite(out);
    }

    std::string_view m_text;
    size_t m_pos = 0;
};

std::optional<JsonValue> JsonValue::parse(std::string_view text)
{
    return Parser(text).document();
}

std::optional<std::string> JsonValue::quote(std::string_view text)
{
    if (!isValidUtf8(text))
        return std::nullopt;
    static const char hexDigits[] = "0123456789abcdef";
    std::string out = "\"";
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += char(c);
        } else if (c < 0x20) {
            out += "\\u00";
            out += hexDigits[c >> 4];
            out += hexDigits[c & 0xF];
        } else {
            out += char(c);
        }
    }
    out += '"';
    return out;
}

std::string JsonValue::toJson() const
{
    switch (m_type) {
    case Type::Null:
        return "null";
    case Type::Bool:
        return m_bool ? "true" : "false";
    case Type::Number: {
        char text[32];
        std::snprintf(text, sizeof text, "%.17g", m_number);
        return text;
    }
    case Type::String:
        return quote(m_string).value_or("\"\"");
    case Type::Array: {
        std::string out = "[";
        for (const JsonValue &item : m_items)
            out += (out.size() > 1 ? "," : "") + item.toJson();
        return out + "]";
    }
    case Type::Object: {
        std::string out = "{";
        for (const auto &[key, value] : m_members)
            out += (out.size() > 1 ? "," : "") + quote(key).value_or("\"\"") + ":" + value.toJson();
        return out + "}";
    }
    }
    return "null";
}

const JsonValue *JsonValue::member(std::string_view key) const
{
    const JsonValue *found = nullptr;
    for (const auto &[name, value] : m_members) {
        if (name == key)
            found = &value; // the last of duplicate keys wins, as in the engine's parser
    }
    return found;
}

} // namespace sandbox::front
