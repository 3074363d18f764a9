// winvm-helper --vm-id GUID --port N: the Windows host's end of a Hyper-V guest's vsock
// service. The engine cannot open an hv_sock (AF_HYPERV) socket through Qt, so it runs
// this as a child process: it connects to the hv_sock service of vsock port N of the VM
// GUID (retrying until the guest listens, up to --connect-timeout-ms) and relays bytes
// between that socket and its standard input and output, each direction through one
// bounded buffer (ByteRelay). The end of standard input is passed on as the socket's
// half-close, the guest's half-close as the end of standard output. Nothing is run, no
// shell; every failure is one line on standard error naming what failed.
#include "BridgeArguments.h"
#include "ByteRelay.h"

// clang-format off
#include <winsock2.h>
#include <windows.h>
#include <hvsocket.h>
// clang-format on

#include <cstdio>
#include <string>
#include <vector>

#ifndef AF_HYPERV
#define AF_HYPERV 34
#endif

using namespace sandbox::winvm;

namespace {

enum ExitCode { Relayed = 0, BadArguments = 2, Unreachable = 3, RelayFailed = 4 };

void say(const std::string &line)
{
    const std::string text = "winvm-helper: " + line + "\n";
    DWORD written = 0;
    WriteFile(GetStdHandle(STD_ERROR_HANDLE), text.data(), DWORD(text.size()), &written, nullptr);
}

// Winsock's names for the errors a connection meets (some systems have no text for them).
const char *winsockName(DWORD code)
{
    switch (code) {
    case WSAEACCES:
        return "WSAEACCES";
    case WSAEAFNOSUPPORT:
        return "WSAEAFNOSUPPORT";
    case WSAEPROTONOSUPPORT:
        return "WSAEPROTONOSUPPORT";
    case WSAEINVAL:
        return "WSAEINVAL";
    case WSAECONNREFUSED:
        return "WSAECONNREFUSED";
    case WSAECONNRESET:
        return "WSAECONNRESET";
    case WSAECONNABORTED:
        return "WSAECONNABORTED";
    case WSAETIMEDOUT:
        return "WSAETIMEDOUT";
    case WSAENETUNREACH:
        return "WSAENETUNREACH";
    case WSAEHOSTUNREACH:
        return "WSAEHOSTUNREACH";
    case WSAESHUTDOWN:
        return "WSAESHUTDOWN";
    default:
        return nullptr;
    }
}

std::string systemMessage(DWORD code)
{
    char *buffer = nullptr;
    const DWORD length
        = FormatMessageA(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
                         nullptr, code, 0, reinterpret_cast<char *>(&buffer), 0, nullptr);
    std::string text = length ? std::string(buffer, length) : std::string("unknown error");
    LocalFree(buffer);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ' || text.back() == '.'))
        text.pop_back();
    const char *symbol = winsockName(code);
    return text + " (" + (symbol ? std::string(symbol) + ", " : std::string()) + "error " + std::to_string(code) + ")";
}

GUID toGuid(const Guid &guid)
{
    GUID result;
    result.Data1 = guid.data1;
    result.Data2 = guid.data2;
    result.Data3 = guid.data3;
    for (int i = 0; i < 8; ++i)
        result.Data4[i] = guid.data4[i];
    return result;
}

class HvSocketEndpoint final : public RelayEndpoint
{
public:
    HvSocketEndpoint(SOCKET socket, std::string name)
        : m_socket(socket)
        , m_name(std::move(name))
    { }
    ~HvSocketEndpoint() override { closesocket(m_socket); }

    std::string name() const override { return m_name; }
    IoResult read(char *buffer, size_t size) override
    {
        const int got = recv(m_socket, buffer, int(size), 0);
        if (got == SOCKET_ERROR)
            return { 0, true, systemMessage(DWORD(WSAGetLastError())) };
        return { size_t(got), false, {} };
    }
    IoResult write(const char *data, size_t size) override
    {
        const int sent = send(m_socket, data, int(size), 0);
        if (sent == SOCKET_ERROR)
            return { 0, true, systemMessage(DWORD(WSAGetLastError())) };
        return { size_t(sent), false, {} };
    }
    IoResult shutdownWrite() override
    {
        if (shutdown(m_socket, SD_SEND) == SOCKET_ERROR)
            return { 0, true, systemMessage(DWORD(WSAGetLastError())) };
        return {};
    }
    void interrupt() override { shutdown(m_socket, SD_BOTH); }

private:
    SOCKET m_socket;
    std::string m_name;
};

class StandardHandlesEndpoint final : public RelayEndpoint
{
public:
    StandardHandlesEndpoint()
        : m_in(GetStdHandle(STD_INPUT_HANDLE))
        , m_out(GetStdHandle(STD_OUTPUT_HANDLE))
    { }

    std::string name() const override { return "standard input/output"; }
    IoResult read(char *buffer, size_t size) override
    {
        DWORD got = 0;
        if (!ReadFile(m_in, buffer, DWORD(size), &got, nullptr)) {
            const DWORD error = GetLastError();
            // The writing end closed: the end of the stream, not a failure.
            if (error == ERROR_BROKEN_PIPE || error == ERROR_HANDLE_EOF)
                return {};
            return { 0, true, "standard input: " + systemMessage(error) };
        }
        return { size_t(got), false, {} };
    }
    IoResult write(const char *data, size_t size) override
    {
        DWORD written = 0;
        if (m_out == INVALID_HANDLE_VALUE || !WriteFile(m_out, data, DWORD(size), &written, nullptr))
            return { 0, true, "standard output: " + systemMessage(GetLastError()) };
        return { size_t(written), false, {} };
    }
    IoResult shutdownWrite() override
    {
        if (m_out != INVALID_HANDLE_VALUE && !CloseHandle(m_out))
            return { 0, true, "standard output: " + systemMessage(GetLastError()) };
        m_out = INVALID_HANDLE_VALUE;
        return {};
    }
    void interrupt() override
    {
        CancelIoEx(m_in, nullptr);
        if (m_out != INVALID_HANDLE_VALUE)
            CancelIoEx(m_out, nullptr);
    }

private:
    HANDLE m_in;
    HANDLE m_out;
};

// Connects to the service, retrying while the VM or its guest is not there yet.
SOCKET connectService(const BridgeArguments &arguments, std::string &error)
{
    SOCKADDR_HV address = {};
    address.Family = AF_HYPERV;
    address.VmId = toGuid(arguments.vmId);
    address.ServiceId = toGuid(Guid::vsockService(arguments.port));
    const ULONGLONG deadline = GetTickCount64() + arguments.connectTimeoutMs;
    DWORD last = 0;
    for (;;) {
        const SOCKET s = socket(AF_HYPERV, SOCK_STREAM, HV_PROTOCOL_RAW);
        if (s == INVALID_SOCKET) {
            error = "cannot open an hv_sock socket (is Hyper-V enabled on this host?): "
                + systemMessage(DWORD(WSAGetLastError()));
            return INVALID_SOCKET;
        }
        const ULONGLONG now = GetTickCount64();
        ULONG attemptMs = ULONG(deadline > now ? deadline - now : 1);
        if (attemptMs > HVSOCKET_CONNECT_TIMEOUT_MAX)
            attemptMs = HVSOCKET_CONNECT_TIMEOUT_MAX;
        setsockopt(s, HV_PROTOCOL_RAW, HVSOCKET_CONNECT_TIMEOUT, reinterpret_cast<const char *>(&attemptMs),
                   sizeof attemptMs);
        if (connect(s, reinterpret_cast<const sockaddr *>(&address), sizeof address) == 0)
            return s;
        last = DWORD(WSAGetLastError());
        closesocket(s);
        // Refusals the guest cannot cure by starting up.
        if (last == WSAEACCES || last == WSAEAFNOSUPPORT || last == WSAEPROTONOSUPPORT || last == WSAEINVAL)
            break;
        if (GetTickCount64() >= deadline)
            break;
        Sleep(100);
    }
    error = "cannot connect to the hv_sock service " + Guid::vsockService(arguments.port).toString() + " (vsock port "
        + std::to_string(arguments.port) + ") of the VM " + arguments.vmId.toString() + " within "
        + std::to_string(arguments.connectTimeoutMs) + " ms: " + systemMessage(last);
    return INVALID_SOCKET;
}

} // namespace

int main(int argc, char **argv)
{
    const std::vector<std::string> arguments(argv + 1, argv + argc);
    std::string error;
    const BridgeArguments parsed = BridgeArguments::parse(arguments, error);
    if (parsed.help) {
        DWORD written = 0;
        const std::string usage = BridgeArguments::usage();
        WriteFile(GetStdHandle(STD_OUTPUT_HANDLE), usage.data(), DWORD(usage.size()), &written, nullptr);
        return Relayed;
    }
    if (!error.empty()) {
        say(error);
        say(BridgeArguments::usage().substr(0, BridgeArguments::usage().find('\n')));
        return BadArguments;
    }
    WSADATA wsa;
    if (const int started = WSAStartup(MAKEWORD(2, 2), &wsa); started != 0) {
        say("cannot start Winsock: " + systemMessage(DWORD(started)));
        return Unreachable;
    }
    const SOCKET s = connectService(parsed, error);
    if (s == INVALID_SOCKET) {
        say(error);
        WSACleanup();
        return Unreachable;
    }
    HvSocketEndpoint guest(s,
                           "the guest's hv_sock service " + Guid::vsockService(parsed.port).toString() + " of the VM "
                               + parsed.vmId.toString());
    StandardHandlesEndpoint engine;
    ByteRelay relay(engine, guest);
    // A blocked read of standard input cannot always be cancelled: a failed relay ends the
    // process at once (the system closes both ends).
    relay.onFailure([](const std::string &failure) {
        say(failure);
        ExitProcess(RelayFailed);
    });
    const ByteRelay::Outcome outcome = relay.run();
    WSACleanup();
    return outcome.ok ? Relayed : RelayFailed;
}
