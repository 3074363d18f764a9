#include "Identity.h"

#include "Text.h"

#include <sddl.h>
#include <userenv.h>

namespace sandbox::windows::init {

namespace {

// Capabilities a plan may name, by their well-known SIDs.
const wchar_t *capabilitySid(const std::string &name)
{
    if (name == "internetClient")
        return L"S-1-15-3-1";
    if (name == "internetClientServer")
        return L"S-1-15-3-2";
    if (name == "privateNetworkClientServer")
        return L"S-1-15-3-3";
    return nullptr;
}

} // namespace

Identity::~Identity()
{
    if (m_sid) {
        if (m_sidFromDerive)
            FreeSid(m_sid);
        else
            LocalFree(m_sid);
    }
    for (PSID capability : m_capabilitySids)
        LocalFree(capability);
}

std::wstring Identity::sidString() const
{
    wchar_t *text = nullptr;
    if (!m_sid || !ConvertSidToStringSidW(m_sid, &text))
        return {};
    std::wstring out(text);
    LocalFree(text);
    return out;
}

bool Identity::derive(const Plan &plan, std::string &error)
{
    if (plan.identity != Plan::Identity::AppContainer) {
        error = "the plan's identity is the account '" + plan.identityName
            + "': this sandbox-init.exe runs commands only in an AppContainer";
        return false;
    }
    const std::wstring name = wide(plan.identityName);
    const HRESULT result = DeriveAppContainerSidFromAppContainerName(name.c_str(), &m_sid);
    if (FAILED(result)) {
        error = hresultError("cannot derive the SID of the AppContainer '" + plan.identityName + "'", result);
        return false;
    }
    m_sidFromDerive = true;
    return true;
}

bool Identity::establish(const Plan &plan, std::string &error)
{
    if (plan.identity != Plan::Identity::AppContainer) {
        error = "the plan's identity is the account '" + plan.identityName
            + "': this sandbox-init.exe runs commands only in an AppContainer";
        return false;
    }
    for (const std::string &name : plan.capabilities) {
        const wchar_t *text = capabilitySid(name);
        PSID capability = nullptr;
        if (!text) {
            error = "the capability '" + name
                + "' is not one sandbox-init.exe grants (internetClient, "
                  "internetClientServer, privateNetworkClientServer)";
            return false;
        }
        if (!ConvertStringSidToSidW(text, &capability)) {
            error = systemError("cannot make the SID of the capability '" + name + "'", GetLastError());
            return false;
        }
        m_capabilitySids.push_back(capability);
        m_capabilityList.push_back({ capability, SE_GROUP_ENABLED });
    }
    const std::wstring name = wide(plan.identityName);
    const std::wstring display = L"Sandbox Studio command";
    PSID created = nullptr;
    const HRESULT result
        = CreateAppContainerProfile(name.c_str(), display.c_str(), display.c_str(), nullptr, 0, &created);
    if (SUCCEEDED(result)) {
        m_sid = created;
        m_sidFromDerive = true; // CreateAppContainerProfile's SID is freed with FreeSid too
        m_createdProfile = true;
    } else if (result == HRESULT_FROM_WIN32(ERROR_ALREADY_EXISTS)) {
        if (!derive(plan, error))
            return false;
    } else {
        error = hresultError("cannot create the AppContainer profile '" + plan.identityName + "'", result);
        return false;
    }
    m_capabilities.AppContainerSid = m_sid;
    m_capabilities.Capabilities = m_capabilityList.empty() ? nullptr : m_capabilityList.data();
    m_capabilities.CapabilityCount = static_cast<DWORD>(m_capabilityList.size());
    return true;
}

bool Identity::deleteProfile(const Plan &plan, std::string &error)
{
    if (plan.identity != Plan::Identity::AppContainer)
        return true;
    const std::wstring name = wide(plan.identityName);
    const HRESULT result = DeleteAppContainerProfile(name.c_str());
    if (FAILED(result) && result != HRESULT_FROM_WIN32(ERROR_NOT_FOUND)
        && result != HRESULT_FROM_WIN32(ERROR_FILE_NOT_FOUND)) {
        error = hresultError("cannot delete the AppContainer profile '" + plan.identityName + "'", result);
        return false;
    }
    return true;
}

bool restrictedToken(const Plan &plan, HANDLE &token, std::string &error)
{
    token = nullptr;
    HANDLE own = nullptr;
    if (!OpenProcessToken(GetCurrentProcess(),
                          TOKEN_DUPLICATE | TOKEN_QUERY | TOKEN_ASSIGN_PRIMARY | TOKEN_ADJUST_DEFAULT, &own)) {
        error = systemError("cannot open sandbox-init.exe's own token", GetLastError());
        return false;
    }
    // Administrators, and the groups that mark an administrator's or a local account's
    // network logon, become deny-only: they can refuse the command access, never grant it.
    const wchar_t *denyOnly[] = { L"S-1-5-32-544", L"S-1-5-32-547", L"S-1-5-114", L"S-1-5-113" };
    std::vector<PSID> sids;
    std::vector<SID_AND_ATTRIBUTES> disable;
    for (const wchar_t *text : denyOnly) {
        PSID sid = nullptr;
        if (ConvertStringSidToSidW(text, &sid)) {
            sids.push_back(sid);
            disable.push_back({ sid, 0 });
        }
    }
    HANDLE restricted = nullptr;
    const BOOL made = CreateRestrictedToken(own, DISABLE_MAX_PRIVILEGE, static_cast<DWORD>(disable.size()),
                                            disable.data(), 0, nullptr, 0, nullptr, &restricted);
    const DWORD madeError = GetLastError();
    for (PSID sid : sids)
        LocalFree(sid);
    CloseHandle(own);
    if (!made) {
        error = systemError("cannot make the command's restricted token", madeError);
        return false;
    }
    PSID integrity = nullptr;
    if (!ConvertStringSidToSidW(plan.integrity == "low" ? L"S-1-16-4096" : L"S-1-16-8192", &integrity)) {
        error = systemError("cannot make the integrity level's SID", GetLastError());
        CloseHandle(restricted);
        return false;
    }
    TOKEN_MANDATORY_LABEL label = {};
    label.Label.Attributes = SE_GROUP_INTEGRITY;
    label.Label.Sid = integrity;
    const BOOL labelled
        = SetTokenInformation(restricted, TokenIntegrityLevel, &label, sizeof label + GetLengthSid(integrity));
    const DWORD labelError = GetLastError();
    LocalFree(integrity);
    if (!labelled) {
        error = systemError("cannot set the command's integrity level to " + plan.integrity, labelError);
        CloseHandle(restricted);
        return false;
    }
    token = restricted;
    return true;
}

} // namespace sandbox::windows::init
