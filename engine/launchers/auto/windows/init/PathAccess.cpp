#include "PathAccess.h"

#include "Text.h"

#include <aclapi.h>

namespace sandbox::windows::init {

namespace {

bool exists(const std::wstring &path)
{
    return GetFileAttributesW(path.c_str()) != INVALID_FILE_ATTRIBUTES;
}

// `pattern` with each "*" component replaced by every name that exists there.
void expand(const std::wstring &done, const std::wstring &rest, std::vector<std::wstring> &out)
{
    const size_t star = rest.find(L"\\*");
    const bool starAtEnd = star != std::wstring::npos && star + 2 == rest.size();
    const bool starComponent = star != std::wstring::npos && (starAtEnd || rest[star + 2] == L'\\');
    if (!starComponent) {
        out.push_back(done + rest);
        return;
    }
    const std::wstring directory = done + rest.substr(0, star);
    const std::wstring after = starAtEnd ? std::wstring() : rest.substr(star + 2);
    WIN32_FIND_DATAW found;
    HANDLE search = FindFirstFileW((directory + L"\\*").c_str(), &found);
    if (search == INVALID_HANDLE_VALUE)
        return;
    do {
        const std::wstring name = found.cFileName;
        if (name == L"." || name == L"..")
            continue;
        expand(directory + L"\\" + name, after, out);
    } while (FindNextFileW(search, &found));
    FindClose(search);
}

struct Ace
{
    ACCESS_MODE mode;
    DWORD mask;
    DWORD inheritance;
};

Ace aceFor(Plan::Access access)
{
    const DWORD inherit = SUB_CONTAINERS_AND_OBJECTS_INHERIT;
    // Writing grants DELETE on each entry (inherited), never FILE_DELETE_CHILD on a folder:
    // that right deletes or renames any child whatever the child's own ACEs deny, so a
    // keep-entry or read-only rule inside a writable folder would not hold against it.
    const DWORD change = FILE_WRITE_DATA | FILE_APPEND_DATA | FILE_WRITE_EA | FILE_WRITE_ATTRIBUTES | DELETE
        | FILE_DELETE_CHILD | WRITE_DAC | WRITE_OWNER;
    switch (access) {
    case Plan::Access::Read:
        return { GRANT_ACCESS, FILE_GENERIC_READ | FILE_GENERIC_EXECUTE, inherit };
    case Plan::Access::Write:
        return { GRANT_ACCESS, FILE_GENERIC_READ | FILE_GENERIC_WRITE | FILE_GENERIC_EXECUTE | DELETE, inherit };
    case Plan::Access::ReadOnly:
        return { DENY_ACCESS, change, inherit };
    case Plan::Access::KeepEntry:
        return { DENY_ACCESS, DELETE, NO_INHERITANCE };
    case Plan::Access::Deny:
        return { DENY_ACCESS, FILE_ALL_ACCESS, inherit };
    }
    return { DENY_ACCESS, FILE_ALL_ACCESS, inherit };
}

// Writes `dacl` back to `path`, keeping whether it inherits from its parent.
DWORD writeDacl(const std::wstring &path, PACL dacl, PSECURITY_DESCRIPTOR current)
{
    SECURITY_DESCRIPTOR_CONTROL control = 0;
    DWORD revision = 0;
    GetSecurityDescriptorControl(current, &control, &revision);
    const SECURITY_INFORMATION what = DACL_SECURITY_INFORMATION
        | ((control & SE_DACL_PROTECTED) ? PROTECTED_DACL_SECURITY_INFORMATION : UNPROTECTED_DACL_SECURITY_INFORMATION);
    return SetNamedSecurityInfoW(const_cast<wchar_t *>(path.c_str()), SE_FILE_OBJECT, what, nullptr, nullptr, dacl,
                                 nullptr);
}

} // namespace

std::vector<PathChange> pathChanges(const Plan &plan)
{
    std::vector<PathChange> changes;
    for (const Plan::PathRule &rule : plan.paths) {
        std::vector<std::wstring> paths;
        const std::wstring path = wide(rule.path);
        if (rule.access == Plan::Access::Deny)
            expand(path.substr(0, 2), path.substr(2), paths);
        else
            paths.push_back(path);
        for (const std::wstring &one : paths) {
            if (exists(one))
                changes.push_back({ rule.access, one });
        }
    }
    return changes;
}

bool applyPathChanges(const std::vector<PathChange> &changes, PSID sid, std::string &error)
{
    for (const PathChange &change : changes) {
        PACL dacl = nullptr;
        PSECURITY_DESCRIPTOR descriptor = nullptr;
        DWORD result = GetNamedSecurityInfoW(change.path.c_str(), SE_FILE_OBJECT, DACL_SECURITY_INFORMATION, nullptr,
                                             nullptr, &dacl, nullptr, &descriptor);
        if (result != ERROR_SUCCESS) {
            error = systemError("cannot read the access list of '" + utf8(change.path) + "'", result);
            return false;
        }
        const Ace ace = aceFor(change.access);
        EXPLICIT_ACCESS_W entry = {};
        entry.grfAccessPermissions = ace.mask;
        entry.grfAccessMode = ace.mode;
        entry.grfInheritance = ace.inheritance;
        entry.Trustee.TrusteeForm = TRUSTEE_IS_SID;
        entry.Trustee.TrusteeType = TRUSTEE_IS_WELL_KNOWN_GROUP;
        entry.Trustee.ptstrName = static_cast<LPWSTR>(sid);
        PACL updated = nullptr;
        result = SetEntriesInAclW(1, &entry, dacl, &updated);
        if (result == ERROR_SUCCESS)
            result = writeDacl(change.path, updated, descriptor);
        if (updated)
            LocalFree(updated);
        LocalFree(descriptor);
        if (result != ERROR_SUCCESS) {
            error = systemError(std::string("cannot give '") + utf8(change.path) + "' its "
                                    + Plan::accessName(change.access) + " rule",
                                result);
            return false;
        }
    }
    return true;
}

std::vector<std::string> undoPathChanges(const std::vector<PathChange> &changes, PSID sid)
{
    std::vector<std::string> failures;
    std::vector<std::wstring> done;
    for (const PathChange &change : changes) {
        bool seen = false;
        for (const std::wstring &path : done)
            seen = seen || path == change.path;
        if (seen)
            continue;
        done.push_back(change.path);
        PACL dacl = nullptr;
        PSECURITY_DESCRIPTOR descriptor = nullptr;
        DWORD result = GetNamedSecurityInfoW(change.path.c_str(), SE_FILE_OBJECT, DACL_SECURITY_INFORMATION, nullptr,
                                             nullptr, &dacl, nullptr, &descriptor);
        if (result != ERROR_SUCCESS) {
            failures.push_back(systemError("cannot read the access list of '" + utf8(change.path) + "'", result));
            continue;
        }
        ACL_SIZE_INFORMATION size = {};
        if (!dacl || !GetAclInformation(dacl, &size, sizeof size, AclSizeInformation)) {
            LocalFree(descriptor);
            continue;
        }
        // A new list without the explicit ACEs naming the SID (inherited ones go with it,
        // recomputed by Windows from the parents).
        std::vector<unsigned char> buffer(size.AclBytesInUse);
        PACL kept = reinterpret_cast<PACL>(buffer.data());
        InitializeAcl(kept, static_cast<DWORD>(buffer.size()), dacl->AclRevision);
        bool removed = false;
        for (DWORD i = 0; i < size.AceCount; ++i) {
            void *raw = nullptr;
            if (!GetAce(dacl, i, &raw))
                continue;
            const ACE_HEADER *header = static_cast<const ACE_HEADER *>(raw);
            PSID aceSid = nullptr;
            if (header->AceType == ACCESS_ALLOWED_ACE_TYPE)
                aceSid = &static_cast<ACCESS_ALLOWED_ACE *>(raw)->SidStart;
            else if (header->AceType == ACCESS_DENIED_ACE_TYPE)
                aceSid = &static_cast<ACCESS_DENIED_ACE *>(raw)->SidStart;
            if (aceSid && !(header->AceFlags & INHERITED_ACE) && EqualSid(aceSid, sid)) {
                removed = true;
                continue;
            }
            AddAce(kept, dacl->AclRevision, MAXDWORD, raw, header->AceSize);
        }
        if (removed) {
            result = writeDacl(change.path, kept, descriptor);
            if (result != ERROR_SUCCESS)
                failures.push_back(
                    systemError("cannot remove the sandbox's rule from '" + utf8(change.path) + "'", result));
        }
        LocalFree(descriptor);
    }
    return failures;
}

} // namespace sandbox::windows::init
