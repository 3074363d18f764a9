#pragma once

// Text as Win32 wants it: UTF-8 (the plan, messages) to UTF-16 and back, Windows' own error
// texts, and a command line CommandLineToArgvW (and the C runtime) splits back into argv.

#include <string>
#include <vector>
#include <windows.h>

namespace sandbox::windows::init {

std::wstring wide(const std::string &text);
std::string utf8(const std::wstring &text);

// "<what>: <Windows' text for error> (error N)"
std::string systemError(const std::string &what, DWORD error);
std::string hresultError(const std::string &what, HRESULT result);

// One argument quoted so that the usual parsing (CommandLineToArgvW, the C runtime's) gives
// it back unchanged: spaces, tabs, quotes and backslashes before quotes included.
std::wstring quotedArgument(const std::wstring &argument);
std::wstring commandLine(const std::vector<std::wstring> &argv);

} // namespace sandbox::windows::init
