#pragma once

#include "JsonValue.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sandbox::front {

// `sandboxctl run -- CMD...` through the engine a running owner (sandboxd or Studio) serves
// on the local socket, without Qt: the same protocol messages the full sandboxctl sends
// (hello and process.spawn in one write, so output flows after one round trip), the same
// relaying of stdin, stdout and stderr, the same exit status, messages and signal handling
// (the first Ctrl-C, TERM or HUP goes on to the command, a second kills its sandbox).
// It has no terminal to ask on: every Host Interaction question is refused as the full
// sandboxctl refuses it without a terminal (RunInvocation leaves terminals to that one).
class DaemonRun final
{
public:
    struct Request
    {
        std::vector<std::string> argv; // UTF-8
        std::string cwd; // absolute, UTF-8
        std::vector<std::pair<std::string, std::string>> env;
        long long timeoutMs = 0; // 0: none
        std::string timeoutText; // as given, for the message when it expires
        std::string policyJson; // empty: the engine's stored policy
    };

    ~DaemonRun();
    DaemonRun(DaemonRun &&other) noexcept;
    DaemonRun(const DaemonRun &) = delete;
    DaemonRun &operator=(const DaemonRun &) = delete;
    DaemonRun &operator=(DaemonRun &&) = delete;

    // Connected to the engine at `socketPath`, served by this user; nullopt when nobody
    // serves it or someone else does (the full sandboxctl then hosts an engine or says why).
    static std::optional<DaemonRun> connect(const std::string &socketPath);

    // Runs `request` to its end: CMD's status, 128+signal, 125 for sandboxctl's own errors, or
    // 126 when CMD could not start because a question went unanswered;
    // nullopt when the engine refused the request's policy before anything ran, for the full
    // sandboxctl to read the policy file and say where it is wrong (signal handling restored).
    std::optional<int> run(const Request &request);

private:
    explicit DaemonRun(int socket);

    struct Error
    {
        std::string where;
        std::string message;
        std::vector<Error> details;
    };

    static Error errorFromJson(const JsonValue *object, int depth = 0);
    static std::string describe(const Error &error);

    // Sends the handshake and `spawn`, then serves the run until it has its status.
    std::optional<int> exchange(const std::string &spawn);
    // Queues one request; sends it at once unless held (then flush() sends all queued).
    bool send(const std::string &method, const std::string &params);
    bool flush();
    // Handles one message; false once the run has its status.
    bool handle(const JsonValue &message);
    bool handleResponse(double id, const JsonValue &message);
    bool handleProcessNotification(const std::string &method, const JsonValue &params);
    void handleInteraction(const JsonValue &params);
    void readStdin();
    // Ctrl-C, TERM or HUP: the first is passed on to the command, a second kills it.
    void passSignal(int number);
    void sendSignal(int number);
    void requestKill();
    int lost(const std::string &reason);
    int fail(const std::string &message);
    void warn(const std::string &message);

    int m_socket = -1;
    std::string m_program; // argv[0], for messages
    long long m_nextId = 1;
    std::vector<std::pair<long long, std::string>> m_pendingMethods; // process.* requests awaiting a reply
    double m_processId = 0;
    bool m_stdinOpen = true;
    bool m_killRequested = false;
    bool m_signalPassed = false;
    int m_pendingSignal = 0; // passed on once the command has its id
    int m_status = 125;
    bool m_policyRefused = false;
    bool m_unanswerable = false;
    bool m_engineStopping = false; // engine.stopping arrived: a kill that follows is its
    std::string m_timeoutText;
    std::string m_outgoing; // framed requests not yet written
    bool m_holdOutgoing = false;
};

} // namespace sandbox::front
