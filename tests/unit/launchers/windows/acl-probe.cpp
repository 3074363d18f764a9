// sandbox-acl-probe.exe PLAN SID [PATH]...: sandbox-init.exe's path step on its own, for
// tst_sandboxinit_windows under Wine (which has no AppContainer to run it inside
// sandbox-init.exe), with SID standing for the AppContainer's. Prints, for every path the
// plan's rules reach (and each PATH given), its DACL as SDDL before the changes ("before
// PATH SDDL"), with them ("during"), and after they were undone ("after"); "apply-failed
// ERROR" or "undo-failed ERROR" when a step fails. On Windows it changes real ACLs.
#include "PathAccess.h"
#include "Text.h"

#include <aclapi.h>
#include <cstdio>
#include <sddl.h>
#include <string>
#include <vector>

using namespace sandbox::windows;
using namespace sandbox::windows::init;

namespace {

std::string dacl(const std::wstring &path)
{
    PACL list = nullptr;
    PSECURITY_DESCRIPTOR descriptor = nullptr;
    if (GetNamedSecurityInfoW(path.c_str(), SE_FILE_OBJECT, DACL_SECURITY_INFORMATION, nullptr, nullptr, &list, nullptr,
                              &descriptor)
        != ERROR_SUCCESS)
        return "(unreadable)";
    wchar_t *text = nullptr;
    std::string out = "(none)";
    if (ConvertSecurityDescriptorToStringSecurityDescriptorW(descriptor, SDDL_REVISION_1, DACL_SECURITY_INFORMATION,
                                                             &text, nullptr)) {
        out = utf8(text);
        LocalFree(text);
    }
    LocalFree(descriptor);
    return out;
}

void show(const char *when, const std::vector<std::wstring> &paths)
{
    for (const std::wstring &path : paths)
        std::printf("%s %s %s\n", when, utf8(path).c_str(), dacl(path).c_str());
}

} // namespace

int wmain(int argc, wchar_t **argv)
{
    if (argc < 3)
        return 2;
    HANDLE file = CreateFileW(argv[1], GENERIC_READ, FILE_SHARE_READ, nullptr, OPEN_EXISTING, 0, nullptr);
    if (file == INVALID_HANDLE_VALUE)
        return 2;
    std::string text(1 << 20, '\0');
    DWORD got = 0;
    ReadFile(file, text.data(), static_cast<DWORD>(text.size()), &got, nullptr);
    CloseHandle(file);
    text.resize(got);
    const ParsedPlan parsed = Plan::parse(text);
    if (!parsed.plan) {
        std::printf("plan-refused %s\n", parsed.error.c_str());
        return 2;
    }
    PSID sid = nullptr;
    if (!ConvertStringSidToSidW(argv[2], &sid))
        return 2;
    const std::vector<PathChange> changes = pathChanges(*parsed.plan);
    std::vector<std::wstring> paths;
    for (const PathChange &change : changes)
        paths.push_back(change.path);
    for (int i = 3; i < argc; ++i)
        paths.emplace_back(argv[i]);
    show("before", paths);
    std::string error;
    if (!applyPathChanges(changes, sid, error))
        std::printf("apply-failed %s\n", error.c_str());
    show("during", paths);
    for (const std::string &failure : undoPathChanges(changes, sid))
        std::printf("undo-failed %s\n", failure.c_str());
    show("after", paths);
    LocalFree(sid);
    return 0;
}
