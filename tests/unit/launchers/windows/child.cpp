// sandbox-test-child.exe: what tst_sandboxinit_windows runs under sandbox-init.exe (under
// Wine), one mode per behaviour a test looks at.
//   args ARG...         prints each argument as [ARG] on a line of its own
//   cat                 copies stdin to stdout until stdin ends
//   stderr TEXT         writes TEXT to stderr
//   exit N              exits with status N
//   tree                starts a copy of itself in "hang" mode, prints "child PID" and
//                       "grandchild PID", then waits for the grandchild (forever)
//   hang                waits forever
//   leave               starts a copy of itself in "hang" mode, prints "grandchild PID" and
//                       exits with status 0
//   spawn N             starts N copies in "hang" mode; prints "started K" and, when one
//                       could not start, "refused ERROR"
//   breakaway           starts a copy in "hang" mode outside its job; prints "started" or
//                       "refused ERROR"
//   token               prints the privileges of its token ("privilege NAME") and its
//                       integrity level ("integrity RID")
//   wait-ended PID...   for each process: "ended PID" once it has ended (waiting up to 20 s),
//                       else "running PID"
#include <cstdio>
#include <cstdlib>
#include <cwchar>
#include <string>
#include <windows.h>

namespace {

std::wstring self()
{
    wchar_t path[MAX_PATH];
    GetModuleFileNameW(nullptr, path, MAX_PATH);
    return path;
}

bool startHang(DWORD flags, PROCESS_INFORMATION &process)
{
    std::wstring line = L"\"" + self() + L"\" hang";
    STARTUPINFOW startup = {};
    startup.cb = sizeof startup;
    return CreateProcessW(nullptr, line.data(), nullptr, nullptr, TRUE, flags, nullptr, nullptr, &startup, &process);
}

} // namespace

int wmain(int argc, wchar_t **argv)
{
    if (argc < 2)
        return 2;
    const std::wstring mode = argv[1];
    if (mode == L"args") {
        for (int i = 2; i < argc; ++i) {
            const int size = WideCharToMultiByte(CP_UTF8, 0, argv[i], -1, nullptr, 0, nullptr, nullptr);
            std::string text(static_cast<size_t>(size), '\0');
            WideCharToMultiByte(CP_UTF8, 0, argv[i], -1, text.data(), size, nullptr, nullptr);
            std::printf("[%s]\n", text.c_str());
        }
        return 0;
    }
    if (mode == L"cat") {
        char buffer[4096];
        DWORD got = 0;
        const HANDLE in = GetStdHandle(STD_INPUT_HANDLE);
        const HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE);
        while (ReadFile(in, buffer, sizeof buffer, &got, nullptr) && got > 0) {
            DWORD written = 0;
            WriteFile(out, buffer, got, &written, nullptr);
        }
        return 0;
    }
    if (mode == L"stderr" && argc == 3) {
        std::fwprintf(stderr, L"%ls", argv[2]);
        return 0;
    }
    if (mode == L"exit" && argc == 3)
        return static_cast<int>(std::wcstol(argv[2], nullptr, 10));
    if (mode == L"hang") {
        WaitForSingleObject(GetCurrentProcess(), INFINITE);
        return 0;
    }
    if (mode == L"tree") {
        PROCESS_INFORMATION grandchild = {};
        if (!startHang(0, grandchild))
            return 3;
        std::printf("child %lu\ngrandchild %lu\n", GetCurrentProcessId(), grandchild.dwProcessId);
        std::fflush(stdout);
        WaitForSingleObject(grandchild.hProcess, INFINITE);
        return 0;
    }
    if (mode == L"leave") {
        PROCESS_INFORMATION grandchild = {};
        if (!startHang(0, grandchild))
            return 3;
        std::printf("grandchild %lu\n", grandchild.dwProcessId);
        return 0;
    }
    if (mode == L"spawn" && argc == 3) {
        const long wanted = std::wcstol(argv[2], nullptr, 10);
        long started = 0;
        DWORD refused = 0;
        for (long i = 0; i < wanted; ++i) {
            PROCESS_INFORMATION process = {};
            if (!startHang(0, process)) {
                refused = GetLastError();
                break;
            }
            ++started;
        }
        std::printf("started %ld\n", started);
        if (refused)
            std::printf("refused %lu\n", refused);
        return 0;
    }
    if (mode == L"breakaway") {
        PROCESS_INFORMATION process = {};
        if (startHang(CREATE_BREAKAWAY_FROM_JOB, process)) {
            std::printf("started\n");
            TerminateProcess(process.hProcess, 0);
        } else {
            std::printf("refused %lu\n", GetLastError());
        }
        return 0;
    }
    if (mode == L"token") {
        HANDLE token = nullptr;
        if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token))
            return 3;
        unsigned char buffer[8192];
        DWORD size = 0;
        if (GetTokenInformation(token, TokenPrivileges, buffer, sizeof buffer, &size)) {
            const auto *privileges = reinterpret_cast<const TOKEN_PRIVILEGES *>(buffer);
            for (DWORD i = 0; i < privileges->PrivilegeCount; ++i) {
                LUID luid = privileges->Privileges[i].Luid;
                wchar_t name[128];
                DWORD length = 128;
                if (LookupPrivilegeNameW(nullptr, &luid, name, &length))
                    std::printf("privilege %ls\n", name);
            }
        }
        if (GetTokenInformation(token, TokenIntegrityLevel, buffer, sizeof buffer, &size)) {
            const auto *label = reinterpret_cast<const TOKEN_MANDATORY_LABEL *>(buffer);
            const DWORD count = *GetSidSubAuthorityCount(label->Label.Sid);
            std::printf("integrity %lu\n", *GetSidSubAuthority(label->Label.Sid, count - 1));
        }
        return 0;
    }
    if (mode == L"wait-ended") {
        for (int i = 2; i < argc; ++i) {
            const DWORD pid = static_cast<DWORD>(std::wcstoul(argv[i], nullptr, 10));
            HANDLE process = OpenProcess(SYNCHRONIZE, FALSE, pid);
            const bool ended = !process || WaitForSingleObject(process, 20000) == WAIT_OBJECT_0;
            std::printf("%s %lu\n", ended ? "ended" : "running", pid);
            if (process)
                CloseHandle(process);
        }
        return 0;
    }
    return 2;
}
