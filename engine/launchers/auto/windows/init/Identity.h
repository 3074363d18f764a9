#pragma once

// Who the command runs as: the plan's AppContainer (its SID and capability SIDs), and the
// restricted token it starts from.

#include "launchers/auto/windows/WindowsPlan.h"

#include <string>
#include <vector>
#include <windows.h>

namespace sandbox::windows::init {

class Identity
{
public:
    Identity() = default;
    ~Identity();
    Identity(const Identity &) = delete;
    Identity &operator=(const Identity &) = delete;

    // Creates (or finds) the plan's AppContainer profile and the SIDs the command runs with.
    // An account identity is refused: this sandbox-init.exe has no way to log it on.
    bool establish(const Plan &plan, std::string &error);
    // The SID of the plan's AppContainer without creating its profile (for undoing).
    bool derive(const Plan &plan, std::string &error);

    PSID sid() const { return m_sid; }
    std::wstring sidString() const;
    // For PROC_THREAD_ATTRIBUTE_SECURITY_CAPABILITIES; valid while this object lives.
    SECURITY_CAPABILITIES *securityCapabilities() { return &m_capabilities; }
    bool createdProfile() const { return m_createdProfile; }

    // Deletes the plan's AppContainer profile; false with `error` when Windows refuses.
    static bool deleteProfile(const Plan &plan, std::string &error);

private:
    PSID m_sid = nullptr;
    bool m_sidFromDerive = false; // freed with FreeSid, else with LocalFree
    std::vector<PSID> m_capabilitySids; // LocalFree
    std::vector<SID_AND_ATTRIBUTES> m_capabilityList;
    SECURITY_CAPABILITIES m_capabilities = {};
    bool m_createdProfile = false;
};

// A primary token from this process's own: every privilege removed but traversal,
// Administrators (and the other administrative groups) deny-only, the integrity level the
// plan names. The caller closes it.
bool restrictedToken(const Plan &plan, HANDLE &token, std::string &error);

} // namespace sandbox::windows::init
