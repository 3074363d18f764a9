#include "Text.h"

namespace sandbox::windows::init {

std::wstring wide(const std::string &text)
{
    if (text.empty())
        return {};
    const int size
        = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, text.data(), static_cast<int>(text.size()), nullptr, 0);
    if (size <= 0)
        return {};
    std::wstring out(static_cast<size_t>(size), L'\0');
    MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, text.data(), static_cast<int>(text.size()), out.data(), size);
    return out;
}

std::string utf8(const std::wstring &text)
{
    if (text.empty())
        return {};
    const int size
        = WideCharToMultiByte(CP_UTF8, 0, text.data(), static_cast<int>(text.size()), nullptr, 0, nullptr, nullptr);
    if (size <= 0)
        return {};
    std::string out(static_cast<size_t>(size), '\0');
    WideCharToMultiByte(CP_UTF8, 0, text.data(), static_cast<int>(text.size()), out.data(), size, nullptr, nullptr);
    return out;
}

std::string systemError(const std::string &what, DWORD error)
{
    wchar_t *buffer = nullptr;
    const DWORD length
        = FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
                         nullptr, error, 0, reinterpret_cast<wchar_t *>(&buffer), 0, nullptr);
    std::wstring text = length && buffer ? std::wstring(buffer, length) : std::wstring();
    if (buffer)
        LocalFree(buffer);
    while (!text.empty()
           && (text.back() == L'\n' || text.back() == L'\r' || text.back() == L' ' || text.back() == L'.'))
        text.pop_back();
    std::string out = what + ": ";
    out += text.empty() ? std::string("unknown error") : utf8(text);
    return out + " (error " + std::to_string(error) + ")";
}

std::string hresultError(const std::string &what, HRESULT result)
{
    std::string out = systemError(what, static_cast<DWORD>(result));
    char code[16];
    wsprintfA(code, "0x%08lX", static_cast<unsigned long>(result));
    const size_t at = out.rfind("(error ");
    return out.substr(0, at) + "(HRESULT " + code + ")";
}

std::wstring quotedArgument(const std::wstring &argument)
{
    if (!argument.empty() && argument.find_first_of(L" \t\n\v\"") == std::wstring::npos)
        return argument;
    std::wstring out = L"\"";
    size_t backslashes = 0;
    for (wchar_t c : argument) {
        if (c == L'\\') {
            ++backslashes;
            continue;
        }
        if (c == L'"') {
            // Backslashes before a quote are doubled, and the quote itself escaped.
            out.append(backslashes * 2 + 1, L'\\');
        } else {
            out.append(backslashes, L'\\');
        }
        backslashes = 0;
        out += c;
    }
    // Before the closing quote, backslashes are doubled too.
    out.append(backslashes * 2, L'\\');
    out += L'"';
    return out;
}

std::wstring commandLine(const std::vector<std::wstring> &argv)
{
    std::wstring out;
    for (const std::wstring &argument : argv) {
        if (!out.empty())
            out += L' ';
        out += quotedArgument(argument);
    }
    return out;
}

} // namespace sandbox::windows::init
