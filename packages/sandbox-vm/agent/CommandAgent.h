#pragma once

#include "GuestProtocol.h"

#include <cstdint>
#include <functional>
#include <map>
#include <poll.h>
#include <string>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace sandbox::guest {

// The guest end of one command's SSH agent (GuestProtocol.h, Spawn flag "agent"): a unix
// socket in a folder of the command's own, listening before the command runs. Each
// connection made by a process of the command's session (SO_PEERCRED's pid, whose session
// must be the command's) is relayed to the host as a stream of agent frames; any other
// process is turned away and reported (at most kMaxReports times). The folder goes with the
// command.
class CommandAgent final
{
public:
    using Send = std::function<void(FrameType type, const std::string &payload)>;
    // Reports a connection turned away (an AgentRefused payload), as the refusal of the
    // command whose session `peerSession` is when there is one, else as this command's.
    using Report = std::function<void(pid_t peerSession, const std::string &payload)>;
    using File = std::pair<std::string, std::string>; // a plain file name and its content

    CommandAgent(uint32_t commandId, Send send, Report report);

    // Connections turned away that are reported, at most; later ones are only closed.
    static constexpr int kMaxReports = 64;
    ~CommandAgent();
    CommandAgent(const CommandAgent &) = delete;
    CommandAgent &operator=(const CommandAgent &) = delete;

    // Makes the folder, writes `files` into it and listens on `socketName` there. Empty on
    // success, else what failed.
    std::string open(const std::string &socketName, const std::vector<File> &files);
    // The command's session (its pid: it calls setsid()); no connection is accepted before.
    void setSession(pid_t session) { m_session = session; }

    // The descriptors to poll (appended to `fds`), then what poll() said of them.
    void collect(std::vector<pollfd> &fds);
    void handle(const std::vector<pollfd> &fds);
    // An agent frame from the host (its payload starts with the connection id).
    void fromHost(uint8_t type, const std::string &payload);

private:
    struct Connection
    {
        int fd = -1;
        std::string toClient; // from the host, not yet written; at most kAgentWindow
        uint32_t inFlight = 0; // sent to the host, not yet credited
        bool clientEof = false;
    };

    void accept();
    void readClient(uint32_t id);
    void writeClient(uint32_t id);
    void drop(uint32_t id, bool tellHost);
    void sendFor(FrameType type, uint32_t id, const char *data = nullptr, size_t size = 0);
    void removeFolder();

    uint32_t m_commandId;
    Send m_send;
    Report m_report;
    int m_reports = 0;
    std::string m_folder;
    std::vector<std::string> m_written; // paths in the folder, removed with it
    int m_listener = -1;
    pid_t m_session = -1;
    uint32_t m_nextId = 1;
    std::map<uint32_t, Connection> m_connections;
    size_t m_firstFd = 0; // where collect() put this agent's descriptors
    std::vector<uint32_t> m_polled; // their connections, 0 for the listener
};

} // namespace sandbox::guest
