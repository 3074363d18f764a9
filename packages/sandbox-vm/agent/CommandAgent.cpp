#include "CommandAgent.h"

#include "WireU32.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace sandbox::guest {

namespace {

using sandbox::wire::getU32;
using sandbox::wire::putU32;

bool plainName(const std::string &name)
{
    if (name.empty() || name.size() > 64 || name[0] == '.')
        return false;
    for (const char c : name) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.'
            || c == '-' || c == '_';
        if (!ok)
            return false;
    }
    return true;
}

// `path` as a directory of root's, 0700, made fresh: whatever a command left there (a file, a
// link, a folder of its own) is removed first, so nothing of it is followed or reused.
bool freshFolder(const std::string &path)
{
    struct stat info = {};
    if (lstat(path.c_str(), &info) == 0) {
        if (S_ISDIR(info.st_mode)) {
            if (DIR *dir = opendir(path.c_str())) {
                while (dirent *entry = readdir(dir)) {
                    const std::string name = entry->d_name;
                    if (name != "." && name != "..")
                        unlinkat(dirfd(dir), name.c_str(), 0);
                }
                closedir(dir);
            }
            if (rmdir(path.c_str()) != 0)
                return false;
        } else if (unlink(path.c_str()) != 0) {
            return false;
        }
    }
    return mkdir(path.c_str(), 0700) == 0;
}

// The parent of every agent folder, a directory (not a link a command put there).
bool parentFolder(const std::string &path)
{
    struct stat info = {};
    if (lstat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode))
        return chmod(path.c_str(), 0700) == 0;
    if (errno != ENOENT && unlink(path.c_str()) != 0)
        return false;
    return mkdir(path.c_str(), 0700) == 0 || errno == EEXIST;
}

std::string programOf(pid_t pid)
{
    std::ifstream comm("/proc/" + std::to_string(pid) + "/comm");
    std::string name;
    std::getline(comm, name);
    // A process names itself: no tab may shift the report's fields.
    std::replace(name.begin(), name.end(), '\t', ' ');
    return name.empty() ? "?" : name;
}

} // namespace

CommandAgent::CommandAgent(uint32_t commandId, Send send, Report report)
    : m_commandId(commandId)
    , m_send(std::move(send))
    , m_report(std::move(report))
{ }

CommandAgent::~CommandAgent()
{
    for (auto &[id, connection] : m_connections)
        close(connection.fd);
    m_connections.clear();
    if (m_listener >= 0)
        close(m_listener);
    removeFolder();
}

void CommandAgent::removeFolder()
{
    for (const std::string &path : m_written)
        unlink(path.c_str());
    m_written.clear();
    if (!m_folder.empty())
        rmdir(m_folder.c_str());
}

std::string CommandAgent::open(const std::string &socketName, const std::vector<File> &files)
{
    std::string folder = kAgentDirectory;
    // The guest's own /run (no share covers it), made on first use.
    if (mkdir("/run", 0755) != 0 && errno != EEXIST)
        return std::string("cannot create /run: ") + std::strerror(errno);
    if (!parentFolder(folder.substr(0, folder.rfind('/'))))
        return "cannot create " + folder.substr(0, folder.rfind('/')) + ": " + std::strerror(errno);
    folder += std::to_string(m_commandId);
    if (!freshFolder(folder))
        return "cannot create the agent's folder " + folder + ": " + std::strerror(errno);
    m_folder = folder;
    if (!plainName(socketName) || files.size() > kAgentMaxFiles)
        return "malformed agent request";
    for (const File &file : files) {
        if (!plainName(file.first) || file.first == socketName || file.second.size() > kAgentMaxFileSize)
            return "malformed agent request";
        const std::string path = folder + "/" + file.first;
        const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0)
            return "cannot write " + path + ": " + std::strerror(errno);
        m_written.push_back(path);
        size_t at = 0;
        while (at < file.second.size()) {
            const ssize_t n = write(fd, file.second.data() + at, file.second.size() - at);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                close(fd);
                return "cannot write " + path + ": " + std::strerror(errno);
            }
            at += size_t(n);
        }
        close(fd);
    }
    const std::string path = folder + "/" + socketName;
    sockaddr_un address = {};
    address.sun_family = AF_UNIX;
    if (path.size() >= sizeof address.sun_path)
        return "the agent socket's path is too long";
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    m_listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (m_listener < 0 || bind(m_listener, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0
        || listen(m_listener, 16) != 0)
        return "cannot listen on " + path + ": " + std::strerror(errno);
    m_written.push_back(path);
    return {};
}

void CommandAgent::collect(std::vector<pollfd> &fds)
{
    m_firstFd = fds.size();
    m_polled.clear();
    if (m_listener >= 0 && m_session > 0) {
        fds.push_back({ m_listener, POLLIN, 0 });
        m_polled.push_back(0);
    }
    for (auto &[id, connection] : m_connections) {
        short events = 0;
        if (!connection.clientEof && connection.inFlight < kAgentWindow)
            events |= POLLIN;
        if (!connection.toClient.empty())
            events |= POLLOUT;
        // One that waits on the host polls nothing, so a hang-up cannot spin the loop.
        if (events) {
            fds.push_back({ connection.fd, events, 0 });
            m_polled.push_back(id);
        }
    }
}

void CommandAgent::handle(const std::vector<pollfd> &fds)
{
    for (size_t i = 0; i < m_polled.size() && m_firstFd + i < fds.size(); ++i) {
        const short revents = fds[m_firstFd + i].revents;
        if (!revents)
            continue;
        const uint32_t id = m_polled[i];
        if (id == 0) {
            accept();
            continue;
        }
        if (!m_connections.count(id))
            continue;
        if (revents & POLLOUT)
            writeClient(id);
        if (m_connections.count(id) && (revents & (POLLIN | POLLHUP | POLLERR)))
            readClient(id);
    }
}

void CommandAgent::accept()
{
    for (;;) {
        const int fd = accept4(m_listener, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0)
            return;
        ucred peer = {};
        socklen_t size = sizeof peer;
        const bool known = getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &size) == 0 && peer.pid > 0;
        // Only the command's own session: another command of this VM (each runs in a session
        // of its own) is turned away, and said so.
        const pid_t session = known ? getsid(peer.pid) : -1;
        if (session != m_session) {
            close(fd);
            if (m_reports < kMaxReports) {
                ++m_reports;
                const std::string socketPath = m_written.empty() ? m_folder : m_written.back();
                m_report(session,
                         (known ? std::to_string(peer.pid) + "\t" + programOf(peer.pid) : std::string("?\t?")) + "\t"
                             + socketPath);
            }
            continue;
        }
        if (m_connections.size() >= kAgentMaxConnections) {
            close(fd);
            continue;
        }
        const uint32_t id = m_nextId++;
        m_connections[id].fd = fd;
        sendFor(AgentOpen, id);
    }
}

void CommandAgent::sendFor(FrameType type, uint32_t id, const char *data, size_t size)
{
    std::string payload;
    putU32(payload, id);
    payload.append(data ? data : "", size);
    m_send(type, payload);
}

void CommandAgent::readClient(uint32_t id)
{
    Connection &connection = m_connections[id];
    char buffer[kAgentMaxPayload];
    while (!connection.clientEof && connection.inFlight < kAgentWindow) {
        const size_t room = std::min<size_t>(sizeof buffer, kAgentWindow - connection.inFlight);
        const ssize_t n = read(connection.fd, buffer, room);
        if (n > 0) {
            sendFor(AgentData, id, buffer, size_t(n));
            connection.inFlight += uint32_t(n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            return;
        if (n == 0) {
            connection.clientEof = true;
            sendFor(AgentEof, id);
            return;
        }
        drop(id, true);
        return;
    }
}

void CommandAgent::writeClient(uint32_t id)
{
    Connection &connection = m_connections[id];
    size_t written = 0;
    while (written < connection.toClient.size()) {
        const ssize_t n = send(connection.fd, connection.toClient.data() + written,
                               connection.toClient.size() - written, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            break;
        if (n <= 0) {
            drop(id, true);
            return;
        }
        written += size_t(n);
    }
    if (written == 0)
        return;
    connection.toClient.erase(0, written);
    std::string credit;
    putU32(credit, uint32_t(written));
    sendFor(AgentCredit, id, credit.data(), credit.size());
}

void CommandAgent::drop(uint32_t id, bool tellHost)
{
    const auto it = m_connections.find(id);
    if (it == m_connections.end())
        return;
    close(it->second.fd);
    m_connections.erase(it);
    if (tellHost)
        sendFor(AgentClose, id);
}

void CommandAgent::fromHost(uint8_t type, const std::string &payload)
{
    if (payload.size() < 4)
        return;
    const uint32_t id = getU32(payload.data());
    const auto it = m_connections.find(id);
    if (it == m_connections.end())
        return; // a connection this end closed already
    Connection &connection = it->second;
    switch (type) {
    case AgentData:
        // Beyond its window the host end misbehaves: the connection goes.
        if (payload.size() - 4 > kAgentMaxPayload || connection.toClient.size() + payload.size() - 4 > kAgentWindow) {
            drop(id, true);
            return;
        }
        connection.toClient.append(payload, 4, std::string::npos);
        writeClient(id);
        break;
    case AgentCredit:
        if (payload.size() == 8)
            connection.inFlight -= std::min(connection.inFlight, getU32(payload.data() + 4));
        break;
    case AgentClose:
        drop(id, false);
        break;
    default:
        break;
    }
}

} // namespace sandbox::guest
