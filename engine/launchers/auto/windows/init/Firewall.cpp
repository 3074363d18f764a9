#include "Firewall.h"

#include "Text.h"

// The firewall's class and interface IDs are defined here, in their one user.
#include <initguid.h>
#include <netfw.h>
#include <oleauto.h>

namespace sandbox::windows::init {

namespace {

// NET_FW_IP_PROTOCOL_ANY, which not every SDK's netfw.h names.
constexpr LONG kAnyProtocol = 256;

std::wstring ruleName(const Plan &plan, size_t index)
{
    return L"Sandbox Studio " + wide(plan.identityName) + L" " + std::to_wstring(index + 1);
}

std::wstring remoteAddresses(const std::string &address)
{
    if (address == "non-loopback")
        return L"0.0.0.0-126.255.255.255,128.0.0.0-255.255.255.255,::,::2-ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff";
    if (address == "any")
        return L"*";
    return wide(address);
}

// COM for the lifetime of one use, on this thread.
class Com
{
public:
    Com() { m_result = CoInitializeEx(nullptr, COINIT_APARTMENTTHREADED); }
    ~Com()
    {
        if (SUCCEEDED(m_result))
            CoUninitialize();
    }
    HRESULT result() const { return m_result; }

private:
    HRESULT m_result;
};

class Bstr
{
public:
    explicit Bstr(const std::wstring &text)
        : m_value(SysAllocString(text.c_str()))
    { }
    ~Bstr() { SysFreeString(m_value); }
    Bstr(const Bstr &) = delete;
    Bstr &operator=(const Bstr &) = delete;
    operator BSTR() const { return m_value; }

private:
    BSTR m_value;
};

template <typename T> void release(T *&object)
{
    if (object)
        object->Release();
    object = nullptr;
}

bool openRules(INetFwRules *&rules, std::string &error)
{
    INetFwPolicy2 *policy = nullptr;
    HRESULT result = CoCreateInstance(CLSID_NetFwPolicy2, nullptr, CLSCTX_INPROC_SERVER, IID_INetFwPolicy2,
                                      reinterpret_cast<void **>(&policy));
    if (SUCCEEDED(result))
        result = policy->get_Rules(&rules);
    release(policy);
    if (FAILED(result)) {
        error = hresultError("cannot open the Windows Firewall rules", result);
        return false;
    }
    return true;
}

using GetConfig = DWORD(WINAPI *)(DWORD *, PSID_AND_ATTRIBUTES *);
using SetConfig = DWORD(WINAPI *)(DWORD, PSID_AND_ATTRIBUTES);

// The loopback exemptions as Windows holds them, with `sid` added or removed.
bool changeLoopbackExemption(PSID sid, bool add, std::string &error)
{
    HMODULE library = LoadLibraryExW(L"FirewallAPI.dll", nullptr, LOAD_LIBRARY_SEARCH_SYSTEM32);
    if (!library) {
        error = systemError("cannot load FirewallAPI.dll for the loopback exemption", GetLastError());
        return false;
    }
    const auto get = reinterpret_cast<GetConfig>(
        reinterpret_cast<void *>(GetProcAddress(library, "NetworkIsolationGetAppContainerConfig")));
    const auto set = reinterpret_cast<SetConfig>(
        reinterpret_cast<void *>(GetProcAddress(library, "NetworkIsolationSetAppContainerConfig")));
    if (!get || !set) {
        error = "this Windows has no loopback exemptions for AppContainers (FirewallAPI.dll lacks them)";
        FreeLibrary(library);
        return false;
    }
    DWORD count = 0;
    PSID_AND_ATTRIBUTES current = nullptr;
    DWORD result = get(&count, &current);
    if (result != ERROR_SUCCESS) {
        error = systemError("cannot read the loopback exemptions", result);
        FreeLibrary(library);
        return false;
    }
    std::vector<SID_AND_ATTRIBUTES> wanted;
    bool present = false;
    for (DWORD i = 0; i < count; ++i) {
        if (EqualSid(current[i].Sid, sid)) {
            present = true;
            if (!add)
                continue;
        }
        wanted.push_back(current[i]);
    }
    if (add && !present)
        wanted.push_back({ sid, 0 });
    result = ERROR_SUCCESS;
    if (add != present)
        result = set(static_cast<DWORD>(wanted.size()), wanted.empty() ? nullptr : wanted.data());
    for (DWORD i = 0; i < count; ++i)
        HeapFree(GetProcessHeap(), 0, current[i].Sid);
    if (current)
        HeapFree(GetProcessHeap(), 0, current);
    FreeLibrary(library);
    if (result != ERROR_SUCCESS) {
        error = systemError(add ? "cannot exempt the AppContainer from the loopback block"
                                : "cannot remove the AppContainer's loopback exemption",
                            result);
        return false;
    }
    return true;
}

} // namespace

bool applyNetworkRules(const Plan &plan, const std::wstring &sid, PSID sidValue, std::string &error)
{
    if (!plan.blocked.empty()) {
        Com com;
        if (FAILED(com.result()) && com.result() != RPC_E_CHANGED_MODE) {
            error = hresultError("cannot start COM for the Windows Firewall", com.result());
            return false;
        }
        INetFwRules *rules = nullptr;
        if (!openRules(rules, error))
            return false;
        for (size_t i = 0; i < plan.blocked.size(); ++i) {
            const Plan::FirewallRule &blocked = plan.blocked[i];
            INetFwRule *rule = nullptr;
            INetFwRule3 *rule3 = nullptr;
            HRESULT result = CoCreateInstance(CLSID_NetFwRule, nullptr, CLSCTX_INPROC_SERVER, IID_INetFwRule,
                                              reinterpret_cast<void **>(&rule));
            const Bstr name(ruleName(plan, i));
            const Bstr addresses(remoteAddresses(blocked.remoteAddress));
            const Bstr ports(std::to_wstring(blocked.firstPort) + L"-" + std::to_wstring(blocked.lastPort));
            const Bstr package(sid);
            LONG protocol = kAnyProtocol;
            if (blocked.protocol == "tcp")
                protocol = NET_FW_IP_PROTOCOL_TCP;
            else if (blocked.protocol == "udp")
                protocol = NET_FW_IP_PROTOCOL_UDP;
            if (SUCCEEDED(result))
                result = rule->QueryInterface(IID_INetFwRule3, reinterpret_cast<void **>(&rule3));
            if (SUCCEEDED(result))
                result = rule->put_Name(name);
            if (SUCCEEDED(result))
                result = rule->put_Direction(NET_FW_RULE_DIR_OUT);
            if (SUCCEEDED(result))
                result = rule->put_Action(NET_FW_ACTION_BLOCK);
            if (SUCCEEDED(result))
                result = rule->put_Protocol(protocol);
            if (SUCCEEDED(result) && blocked.remoteAddress != "any")
                result = rule->put_RemoteAddresses(addresses);
            if (SUCCEEDED(result) && blocked.firstPort != 0)
                result = rule->put_RemotePorts(ports);
            if (SUCCEEDED(result))
                result = rule->put_Profiles(NET_FW_PROFILE2_ALL);
            if (SUCCEEDED(result))
                result = rule3->put_LocalAppPackageId(package);
            if (SUCCEEDED(result))
                result = rule->put_Enabled(VARIANT_TRUE);
            if (SUCCEEDED(result))
                result = rules->Add(rule);
            release(rule3);
            release(rule);
            if (FAILED(result)) {
                error = hresultError("cannot add the firewall rule '" + utf8(ruleName(plan, i)) + "'", result);
                release(rules);
                return false;
            }
        }
        release(rules);
    }
    if (plan.loopbackExemption && !changeLoopbackExemption(sidValue, true, error))
        return false;
    return true;
}

std::vector<std::string> undoNetworkRules(const Plan &plan, PSID sidValue)
{
    std::vector<std::string> failures;
    if (!plan.blocked.empty()) {
        Com com;
        INetFwRules *rules = nullptr;
        std::string error;
        if (!openRules(rules, error)) {
            failures.push_back(error);
        } else {
            for (size_t i = 0; i < plan.blocked.size(); ++i) {
                const Bstr name(ruleName(plan, i));
                const HRESULT result = rules->Remove(name);
                if (FAILED(result))
                    failures.push_back(
                        hresultError("cannot remove the firewall rule '" + utf8(ruleName(plan, i)) + "'", result));
            }
            release(rules);
        }
    }
    if (plan.loopbackExemption) {
        std::string error;
        if (!changeLoopbackExemption(sidValue, false, error))
            failures.push_back(error);
    }
    return failures;
}

} // namespace sandbox::windows::init
