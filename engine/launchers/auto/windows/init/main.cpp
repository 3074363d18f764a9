// sandbox-init.exe: runs one command confined on Windows as a plan of WindowsPlanBuilder's
// says. Plain C++ on Win32 without Qt, like the Linux sandbox-init.
//
//   sandbox-init.exe --plan FILE [--status FILE] [--timeout-ms N] [--parent PID] [--job-only]
//                    -- COMMAND [ARG]...
//   sandbox-init.exe --check-plan FILE
//   sandbox-init.exe --undo FILE
//
// Running: the AppContainer of the plan (created if missing), the plan's access rules on
// paths and its firewall rules and loopback exemption, then the command from a restricted
// token of sandbox-init.exe's own, inside a job object that kills every process in it when
// its last handle closes (sandbox-init.exe holds the only one: killing sandbox-init.exe
// ends the command and everything it started), allows no breakaway and limits the number
// of processes. stdin, stdout and stderr are sandbox-init.exe's own, passed on (no other
// handle is inherited). When the command ends, the rest of its processes are ended too and
// every change is undone. Exit status: the command's; 124 when --timeout-ms ran out (every
// process ended); 125 when the plan was refused or confinement could not be established
// (the command never ran); 127 when the command was not found.
// --undo removes what a run of the plan would have left behind (after a crash, say).
// --job-only runs without the identity, path and network steps: only the job object, the
// restricted token, stdio, exit status and timeout. It confines nothing on the filesystem or
// the network; it exists to exercise the rest where AppContainers do not exist (Wine).
//
// Status lines (--status FILE, written as they happen): "changing" (before the first change
// to the system: what follows it must be undone), "started <pid>", "exit <code>", "timeout
// <ms>", "parent-ended", "error <message>", "undone", "undo-failed <message>".

#include "Firewall.h"
#include "Identity.h"
#include "PathAccess.h"
#include "Text.h"
#include "launchers/auto/windows/WindowsPlan.h"

#include <cstdio>
#include <cwchar>
#include <string>
#include <vector>
#include <windows.h>

using namespace sandbox::windows;
using namespace sandbox::windows::init;

namespace {

constexpr int kTimedOutStatus = 124;
constexpr int kSetupFailedStatus = 125;
constexpr int kNotFoundStatus = 127;
constexpr DWORD kMaxPlanBytes = 16u << 20;

const char *kUsage = "usage: sandbox-init.exe --plan FILE [--status FILE] [--timeout-ms N] [--parent PID] "
                     "[--job-only] -- COMMAND [ARG]...\n"
                     "       sandbox-init.exe --check-plan FILE | sandbox-init.exe --undo FILE\n";

HANDLE g_status = INVALID_HANDLE_VALUE;

void writeStderr(const std::string &text)
{
    const HANDLE err = GetStdHandle(STD_ERROR_HANDLE);
    DWORD written = 0;
    if (err && err != INVALID_HANDLE_VALUE)
        WriteFile(err, text.data(), static_cast<DWORD>(text.size()), &written, nullptr);
}

void status(const std::string &line)
{
    if (g_status == INVALID_HANDLE_VALUE)
        return;
    std::string text = line;
    for (char &c : text) {
        if (c == '\n' || c == '\r')
            c = ' ';
    }
    text += '\n';
    DWORD written = 0;
    WriteFile(g_status, text.data(), static_cast<DWORD>(text.size()), &written, nullptr);
}

[[noreturn]] void fail(const std::string &message, int code = kSetupFailedStatus)
{
    status("error " + message);
    writeStderr("sandbox-init: " + message + " (the command was not run)\n");
    ExitProcess(static_cast<UINT>(code));
}

struct Options
{
    std::wstring planFile;
    std::wstring statusFile;
    std::wstring mode; // --plan, --check-plan or --undo
    DWORD timeoutMs = INFINITE;
    DWORD parent = 0;
    bool jobOnly = false;
    std::vector<std::wstring> command;
};

bool positiveNumber(const std::wstring &text, unsigned long long high, unsigned long long &value)
{
    if (text.empty() || text.size() > 19 || text[0] == L'0')
        return false;
    value = 0;
    for (wchar_t c : text) {
        if (c < L'0' || c > L'9')
            return false;
        value = value * 10 + static_cast<unsigned long long>(c - L'0');
    }
    return value <= high;
}

Options parseArguments(int argc, wchar_t **argv)
{
    Options options;
    int i = 1;
    auto value = [&](const wchar_t *option) -> std::wstring {
        if (i + 1 >= argc) {
            writeStderr("sandbox-init: " + utf8(option) + " needs a value\n" + kUsage);
            ExitProcess(2);
        }
        return argv[++i];
    };
    for (; i < argc; ++i) {
        const std::wstring option = argv[i];
        if (option == L"--") {
            ++i;
            break;
        }
        if (option == L"--plan" || option == L"--check-plan" || option == L"--undo") {
            if (!options.mode.empty()) {
                writeStderr("sandbox-init: only one of --plan, --check-plan and --undo may be given\n"
                            + std::string(kUsage));
                ExitProcess(2);
            }
            options.mode = option;
            options.planFile = value(option.c_str());
        } else if (option == L"--status") {
            options.statusFile = value(L"--status");
        } else if (option == L"--timeout-ms" || option == L"--parent") {
            const std::wstring text = value(option.c_str());
            unsigned long long number = 0;
            if (!positiveNumber(text, option == L"--parent" ? 0xffffffffull : 0xfffffffeull, number)) {
                writeStderr("sandbox-init: " + utf8(option) + ": '" + utf8(text)
                            + "' is not a positive whole number\n");
                ExitProcess(2);
            }
            if (option == L"--parent")
                options.parent = static_cast<DWORD>(number);
            else
                options.timeoutMs = static_cast<DWORD>(number);
        } else if (option == L"--job-only") {
            options.jobOnly = true;
        } else {
            writeStderr("sandbox-init: unknown option '" + utf8(option) + "'\n" + kUsage);
            ExitProcess(2);
        }
    }
    for (; i < argc; ++i)
        options.command.emplace_back(argv[i]);
    if (options.mode.empty()) {
        writeStderr(std::string("sandbox-init: no plan given\n") + kUsage);
        ExitProcess(2);
    }
    if (options.mode == L"--plan" && options.command.empty()) {
        writeStderr(std::string("sandbox-init: no command after --\n") + kUsage);
        ExitProcess(2);
    }
    if (options.mode != L"--plan" && !options.command.empty()) {
        writeStderr("sandbox-init: " + utf8(options.mode) + " runs no command\n" + kUsage);
        ExitProcess(2);
    }
    return options;
}

Plan readPlan(const std::wstring &file)
{
    const std::string name = utf8(file);
    HANDLE handle = CreateFileW(file.c_str(), GENERIC_READ, FILE_SHARE_READ, nullptr, OPEN_EXISTING,
                                FILE_ATTRIBUTE_NORMAL, nullptr);
    if (handle == INVALID_HANDLE_VALUE)
        fail(systemError("cannot open the plan " + name, GetLastError()));
    std::string text;
    char buffer[65536];
    for (;;) {
        DWORD got = 0;
        if (!ReadFile(handle, buffer, sizeof buffer, &got, nullptr)) {
            const DWORD error = GetLastError();
            CloseHandle(handle);
            fail(systemError("cannot read the plan " + name, error));
        }
        if (got == 0)
            break;
        text.append(buffer, got);
        if (text.size() > kMaxPlanBytes) {
            CloseHandle(handle);
            fail("the plan " + name + " is refused: it is larger than 16 MiB");
        }
    }
    CloseHandle(handle);
    ParsedPlan parsed = Plan::parse(text);
    if (!parsed.plan)
        fail("the plan " + name + " is refused: " + parsed.error);
    return *parsed.plan;
}

// What this sandbox-init.exe refuses to carry out although the format can say it.
std::string weakened(const Plan &plan)
{
    if (!plan.killOnJobClose)
        return "job kill-on-close: no (commands run only in a job that ends with sandbox-init.exe)";
    if (plan.allowBreakaway)
        return "job breakaway: yes (no process may leave the job)";
    if (!plan.restrictedToken)
        return "token restricted: no (commands run only under a restricted token)";
    return {};
}

// The program to start: a path as given, or the first of NAME, NAME.exe, NAME.com in the
// folders of PATH (not the current folder, nor sandbox-init.exe's).
std::wstring resolveProgram(const std::wstring &name)
{
    auto isFile = [](const std::wstring &path) {
        const DWORD attributes = GetFileAttributesW(path.c_str());
        return attributes != INVALID_FILE_ATTRIBUTES && !(attributes & FILE_ATTRIBUTE_DIRECTORY);
    };
    if (name.find_first_of(L"\\/:") != std::wstring::npos)
        return isFile(name) ? name : std::wstring();
    const DWORD size = GetEnvironmentVariableW(L"PATH", nullptr, 0);
    std::wstring path(size, L'\0');
    path.resize(GetEnvironmentVariableW(L"PATH", path.data(), size));
    const bool hasExtension = name.find(L'.') != std::wstring::npos;
    size_t start = 0;
    while (start <= path.size()) {
        size_t end = path.find(L';', start);
        if (end == std::wstring::npos)
            end = path.size();
        std::wstring folder = path.substr(start, end - start);
        start = end + 1;
        if (folder.empty())
            continue;
        if (folder.back() != L'\\')
            folder += L'\\';
        for (const wchar_t *suffix : { L"", L".exe", L".com" }) {
            if (hasExtension != (*suffix == L'\0'))
                continue;
            if (isFile(folder + name + suffix))
                return folder + name + suffix;
        }
    }
    return {};
}

// An inheritable copy of one of sandbox-init.exe's standard handles (NUL when it has none).
HANDLE inheritableStd(DWORD which)
{
    HANDLE handle = GetStdHandle(which);
    HANDLE copy = nullptr;
    if (handle && handle != INVALID_HANDLE_VALUE
        && DuplicateHandle(GetCurrentProcess(), handle, GetCurrentProcess(), &copy, 0, TRUE, DUPLICATE_SAME_ACCESS))
        return copy;
    SECURITY_ATTRIBUTES inherit = { sizeof inherit, nullptr, TRUE };
    return CreateFileW(L"NUL", GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, &inherit,
                       OPEN_EXISTING, 0, nullptr);
}

BOOL WINAPI ignoreInterrupt(DWORD event)
{
    // Ctrl+C and Ctrl+Break reach the command too (it shares the console); sandbox-init.exe
    // stays to end the rest of the job and undo its changes. A handler is not inherited.
    return event == CTRL_C_EVENT || event == CTRL_BREAK_EVENT;
}

// Undoes a run of `plan`: path rules, firewall rules, loopback exemption, the profile.
bool undo(const Plan &plan, Identity &identity)
{
    std::vector<std::string> failures;
    if (identity.sid()) {
        failures = undoPathChanges(pathChanges(plan), identity.sid());
        for (std::string &failure : undoNetworkRules(plan, identity.sid()))
            failures.push_back(std::move(failure));
    }
    std::string error;
    if (!Identity::deleteProfile(plan, error))
        failures.push_back(error);
    for (const std::string &failure : failures) {
        status("undo-failed " + failure);
        writeStderr("sandbox-init: " + failure + "\n");
    }
    if (failures.empty())
        status("undone");
    return failures.empty();
}

int run(const Options &options, const Plan &plan)
{
    SetConsoleCtrlHandler(ignoreInterrupt, TRUE);
    HANDLE parent = nullptr;
    if (options.parent) {
        parent = OpenProcess(SYNCHRONIZE, FALSE, options.parent);
        if (!parent)
            fail(systemError("cannot watch the launcher (process " + std::to_string(options.parent) + ")",
                             GetLastError()));
    }
    const std::wstring program = resolveProgram(options.command.front());
    if (program.empty())
        fail("'" + utf8(options.command.front())
                 + "' was not found (as a path, or on PATH as it is or with .exe "
                   "or .com)",
             kNotFoundStatus);

    Identity identity;
    bool changed = false;
    auto failAndUndo = [&](const std::string &message) {
        if (changed)
            undo(plan, identity);
        fail(message);
    };
    std::string error;
    if (!options.jobOnly) {
        status("changing");
        if (!identity.establish(plan, error))
            fail(error);
        changed = true;
        if (!applyPathChanges(pathChanges(plan), identity.sid(), error))
            failAndUndo(error);
        if (!applyNetworkRules(plan, identity.sidString(), identity.sid(), error))
            failAndUndo(error);
    }
    HANDLE token = nullptr;
    if (!restrictedToken(plan, token, error))
        failAndUndo(error);

    HANDLE job = CreateJobObjectW(nullptr, nullptr);
    if (!job)
        failAndUndo(systemError("cannot create the job object", GetLastError()));
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits = {};
    limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | JOB_OBJECT_LIMIT_ACTIVE_PROCESS
        | (plan.dieOnUnhandledException ? JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION : 0);
    limits.BasicLimitInformation.ActiveProcessLimit = static_cast<DWORD>(plan.activeProcessLimit);
    if (!SetInformationJobObject(job, JobObjectExtendedLimitInformation, &limits, sizeof limits))
        failAndUndo(systemError("cannot set the job object's limits", GetLastError()));
    if (plan.uiRestrictions) {
        JOBOBJECT_BASIC_UI_RESTRICTIONS ui = {};
        ui.UIRestrictionsClass = JOB_OBJECT_UILIMIT_DESKTOP | JOB_OBJECT_UILIMIT_DISPLAYSETTINGS
            | JOB_OBJECT_UILIMIT_EXITWINDOWS | JOB_OBJECT_UILIMIT_GLOBALATOMS | JOB_OBJECT_UILIMIT_HANDLES
            | JOB_OBJECT_UILIMIT_READCLIPBOARD | JOB_OBJECT_UILIMIT_SYSTEMPARAMETERS
            | JOB_OBJECT_UILIMIT_WRITECLIPBOARD;
        if (!SetInformationJobObject(job, JobObjectBasicUIRestrictions, &ui, sizeof ui))
            failAndUndo(systemError("cannot set the job object's UI restrictions", GetLastError()));
    }

    HANDLE stdio[3]
        = { inheritableStd(STD_INPUT_HANDLE), inheritableStd(STD_OUTPUT_HANDLE), inheritableStd(STD_ERROR_HANDLE) };
    for (HANDLE handle : stdio) {
        if (handle == INVALID_HANDLE_VALUE)
            failAndUndo(systemError("cannot pass on the standard handles", GetLastError()));
    }
    const DWORD attributeCount = options.jobOnly ? 1 : 2;
    SIZE_T size = 0;
    InitializeProcThreadAttributeList(nullptr, attributeCount, 0, &size);
    std::vector<unsigned char> attributeBuffer(size);
    auto attributes = reinterpret_cast<LPPROC_THREAD_ATTRIBUTE_LIST>(attributeBuffer.data());
    if (!InitializeProcThreadAttributeList(attributes, attributeCount, 0, &size))
        failAndUndo(systemError("cannot prepare the command's start", GetLastError()));
    // Only the three standard handles are inherited, whatever else is inheritable here.
    if (!UpdateProcThreadAttribute(attributes, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, stdio, sizeof stdio, nullptr,
                                   nullptr))
        failAndUndo(systemError("cannot limit the command's inherited handles", GetLastError()));
    if (!options.jobOnly
        && !UpdateProcThreadAttribute(attributes, 0, PROC_THREAD_ATTRIBUTE_SECURITY_CAPABILITIES,
                                      identity.securityCapabilities(), sizeof(SECURITY_CAPABILITIES), nullptr, nullptr))
        failAndUndo(systemError("cannot start the command in the AppContainer", GetLastError()));

    STARTUPINFOEXW startup = {};
    startup.StartupInfo.cb = sizeof startup;
    startup.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
    startup.StartupInfo.hStdInput = stdio[0];
    startup.StartupInfo.hStdOutput = stdio[1];
    startup.StartupInfo.hStdError = stdio[2];
    std::wstring line = commandLine(options.command);
    PROCESS_INFORMATION process = {};
    if (!CreateProcessAsUserW(token, program.c_str(), line.data(), nullptr, nullptr, TRUE,
                              EXTENDED_STARTUPINFO_PRESENT | CREATE_SUSPENDED | CREATE_UNICODE_ENVIRONMENT, nullptr,
                              nullptr, &startup.StartupInfo, &process))
        failAndUndo(systemError("cannot start '" + utf8(program) + "'", GetLastError()));
    DeleteProcThreadAttributeList(attributes);
    for (HANDLE handle : stdio)
        CloseHandle(handle);
    CloseHandle(token);
    if (!AssignProcessToJobObject(job, process.hProcess)) {
        const DWORD assignError = GetLastError();
        TerminateProcess(process.hProcess, kSetupFailedStatus);
        failAndUndo(systemError("cannot put the command into its job object", assignError));
    }
    status("started " + std::to_string(process.dwProcessId));
    ResumeThread(process.hThread);
    CloseHandle(process.hThread);

    HANDLE waits[2] = { process.hProcess, parent };
    const DWORD woke = WaitForMultipleObjects(parent ? 2 : 1, waits, FALSE, options.timeoutMs);
    int code = 0;
    if (woke == WAIT_OBJECT_0) {
        DWORD exitCode = 0;
        GetExitCodeProcess(process.hProcess, &exitCode);
        code = static_cast<int>(exitCode);
        // The sandbox ends with its command: what it left running is ended too.
        TerminateJobObject(job, 1);
        status("exit " + std::to_string(exitCode));
    } else if (woke == WAIT_TIMEOUT) {
        TerminateJobObject(job, kTimedOutStatus);
        code = kTimedOutStatus;
        status("timeout " + std::to_string(options.timeoutMs));
        writeStderr("sandbox-init: the command ran longer than " + std::to_string(options.timeoutMs)
                    + " ms; every process of it was ended\n");
    } else {
        const DWORD waitError = GetLastError();
        TerminateJobObject(job, 1);
        code = 1;
        status(woke == WAIT_OBJECT_0 + 1 ? std::string("parent-ended")
                                         : "error " + systemError("cannot wait for the command", waitError));
    }
    // Every process of the job has been ended (TerminateJobObject) before anything is undone.
    WaitForSingleObject(process.hProcess, INFINITE);
    CloseHandle(process.hProcess);
    CloseHandle(job);
    if (parent)
        CloseHandle(parent);
    if (changed)
        undo(plan, identity);
    return code;
}

} // namespace

int wmain(int argc, wchar_t **argv)
{
    const Options options = parseArguments(argc, argv);
    if (!options.statusFile.empty()) {
        g_status = CreateFileW(options.statusFile.c_str(), GENERIC_WRITE, FILE_SHARE_READ, nullptr, CREATE_ALWAYS,
                               FILE_ATTRIBUTE_NORMAL, nullptr);
        if (g_status == INVALID_HANDLE_VALUE)
            fail(systemError("cannot open the status file " + utf8(options.statusFile), GetLastError()));
    }
    const Plan plan = readPlan(options.planFile);
    if (options.mode == L"--check-plan") {
        std::printf("the plan is valid: %s '%s', %zu path rule(s), network %s\n", Plan::identityKindName(plan.identity),
                    plan.identityName.c_str(), plan.paths.size(), Plan::networkName(plan.network));
        return 0;
    }
    if (options.mode == L"--undo") {
        Identity identity;
        std::string error;
        if (!identity.derive(plan, error))
            fail(error);
        return undo(plan, identity) ? 0 : 1;
    }
    if (const std::string why = weakened(plan); !why.empty())
        fail("the plan " + utf8(options.planFile) + " is refused: " + why);
    return run(options, plan);
}
