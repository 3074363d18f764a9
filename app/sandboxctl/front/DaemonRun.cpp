#include "DaemonRun.h"

#include "Base64.h"
#include "client/ProtocolNames.h"
#include "fdio/FdIo.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <utility>

namespace sandbox::front {

namespace {

// The protocol's limits and names are engine/client's (ProtocolNames.h); an error's details
// are read as engine/protocol's Error reads them.
constexpr std::uint32_t maxPayload = MaxPayloadBytes;
constexpr size_t stdinChunk = StdinChunkBytes;
constexpr int internalErrorCode = RpcErrorCode::InternalError;
constexpr int invalidParamsCode = RpcErrorCode::InvalidParams;
constexpr int maxDetailDepth = 8;
constexpr size_t maxDetails = 4096;
constexpr long long helloId = 1;
constexpr long long spawnId = 2;

// Ctrl-C, TERM and HUP reach the loop through this pipe.
int g_signalPipe[2] = { -1, -1 };

void onSignal(int number)
{
    const auto byte = static_cast<unsigned char>(number);
    [[maybe_unused]] const ssize_t written = ::write(g_signalPipe[1], &byte, 1);
}

void writeText(int fd, const std::string &text)
{
    fdio::writeAll(fd, text.data(), text.size());
}

std::string quoted(const std::string &text)
{
    // Callers pass text that was checked (argv, cwd, env) or that the engine sent as JSON.
    return JsonValue::quote(text).value_or(std::string("\"\""));
}

std::string stringMember(const JsonValue &object, std::string_view key)
{
    const JsonValue *value = object.member(key);
    return value && value->isString() ? value->toString() : std::string();
}

bool isInteger(const JsonValue *value, double low, double high)
{
    return value && value->isNumber() && value->toNumber() == double(static_cast<long long>(value->toNumber()))
        && value->toNumber() >= low && value->toNumber() <= high;
}

// The shell status of a process.exited notification's `exit`, read as strictly as the
// engine's client reads it: an undecodable one counts as a plain exit 0, as it does there.
struct ExitReading
{
    int status = 0;
    bool timedOut = false;
};

ExitReading readExit(const JsonValue *exit)
{
    if (!exit || !exit->isObject())
        return {};
    for (const auto &[key, value] : exit->members()) {
        if (key != "exitCode" && key != "signaled" && key != "signal" && key != "timedOut")
            return {};
    }
    const JsonValue *exitCode = exit->member("exitCode");
    const JsonValue *signaled = exit->member("signaled");
    const JsonValue *signal = exit->member("signal");
    const JsonValue *timedOut = exit->member("timedOut");
    if (!isInteger(exitCode, -255, 255) || (signaled && !signaled->isBool()) || (signal && !isInteger(signal, 0, 127))
        || (timedOut && !timedOut->isBool()))
        return {};
    const bool wasSignaled = signaled && signaled->toBool();
    const int signalNumber = signal ? int(signal->toNumber()) : 0;
    if (wasSignaled != (signalNumber != 0))
        return {};
    return { wasSignaled ? 128 + signalNumber : int(exitCode->toNumber()), timedOut && timedOut->toBool() };
}

} // namespace

DaemonRun::DaemonRun(int socket)
    : m_socket(socket)
{ }

DaemonRun::DaemonRun(DaemonRun &&other) noexcept
    : m_socket(std::exchange(other.m_socket, -1))
{ }

DaemonRun::~DaemonRun()
{
    if (m_socket >= 0)
        ::close(m_socket);
}

std::optional<DaemonRun> DaemonRun::connect(const std::string &socketPath)
{
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (socketPath.empty() || socketPath.size() >= sizeof address.sun_path)
        return std::nullopt;
    std::memcpy(address.sun_path, socketPath.c_str(), socketPath.size() + 1);
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return std::nullopt;
    DaemonRun connection(fd);
    int result = 0;
    do {
        result = ::connect(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address);
    } while (result != 0 && errno == EINTR);
    if (result != 0)
        return std::nullopt;
    // Talk only to an engine run by our own user; the full sandboxctl explains a refusal.
    ucred peer{};
    socklen_t length = sizeof peer;
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &length) != 0 || length != sizeof peer
        || peer.uid != ::geteuid())
        return std::nullopt;
    return connection;
}

bool DaemonRun::send(const std::string &method, const std::string &params)
{
    const long long id = m_nextId++;
    const std::string payload = "{\"jsonrpc\":\"2.0\",\"id\":" + std::to_string(id) + ",\"method\":" + quoted(method)
        + ",\"params\":" + params + "}";
    if (payload.size() > maxPayload)
        return false;
    if (method.rfind("process.", 0) == 0 && method != MethodName::ProcessSpawn)
        m_pendingMethods.emplace_back(id, method);
    const auto length = std::uint32_t(payload.size());
    const char header[4] = { char(length >> 24), char(length >> 16), char(length >> 8), char(length) };
    m_outgoing.append(header, sizeof header).append(payload);
    return m_holdOutgoing || flush();
}

bool DaemonRun::flush()
{
    // A broken connection shows as end of input on the next read, reported there.
    const bool sent = fdio::writeAll(m_socket, m_outgoing.data(), m_outgoing.size(), { .socket = true });
    m_outgoing.clear();
    return sent;
}

std::optional<int> DaemonRun::run(const Request &request)
{
    m_program = request.argv.front();
    m_timeoutText = request.timeoutText;
    std::string argv = "[";
    for (const std::string &arg : request.argv)
        argv += (argv.size() > 1 ? "," : "") + quoted(arg);
    argv += "]";
    std::string spawn = "{\"argv\":" + argv + ",\"cwd\":" + quoted(request.cwd);
    if (!request.env.empty()) {
        std::string env;
        for (const auto &[name, value] : request.env)
            env += (env.empty() ? "" : ",") + quoted(name) + ":" + quoted(value);
        spawn += ",\"env\":{" + env + "}";
    }
    if (request.timeoutMs > 0)
        spawn += ",\"timeoutMs\":" + std::to_string(request.timeoutMs);
    if (!request.policyJson.empty())
        spawn += ",\"policy\":" + request.policyJson;
    spawn += "}";

    if (::pipe2(g_signalPipe, O_CLOEXEC | O_NONBLOCK) != 0)
        return fail("cannot watch signals: " + std::string(std::strerror(errno)));
    const int watched[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
    struct sigaction saved[4] = {};
    for (size_t k = 0; k < 4; ++k) {
        struct sigaction action = {};
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESTART;
        // Output to a closed pipe is dropped, as the full sandboxctl drops it; CMD's status still counts.
        action.sa_handler = watched[k] == SIGPIPE ? SIG_IGN : &onSignal;
        ::sigaction(watched[k], &action, &saved[k]);
    }
    const std::optional<int> status = exchange(spawn);
    if (!status) {
        for (size_t k = 0; k < 4; ++k)
            ::sigaction(watched[k], &saved[k], nullptr);
    }
    return status;
}

std::optional<int> DaemonRun::exchange(const std::string &spawn)
{
    // The handshake and the spawn in one write: the engine answers them in order.
    m_holdOutgoing = true;
    send(MethodName::Hello, "{\"protocolVersion\":" + std::to_string(ProtocolVersion) + ",\"client\":\"sandboxctl\"}");
    const bool fits = send(MethodName::ProcessSpawn, "{\"request\":" + spawn + "}");
    m_holdOutgoing = false;
    flush();
    if (!fits) {
        std::string text
            = "process.spawn: cannot run " + m_program + ": the request is larger than the protocol's message limit";
        return fail(text);
    }

    std::string buffer;
    size_t offset = 0;
    char chunk[65536];
    for (;;) {
        pollfd fds[3] = { { m_socket, POLLIN, 0 }, { g_signalPipe[0], POLLIN, 0 }, { STDIN_FILENO, POLLIN, 0 } };
        const nfds_t count = m_processId > 0 && m_stdinOpen ? 3 : 2;
        if (::poll(fds, count, -1) < 0) {
            if (errno == EINTR)
                continue;
            return lost(std::strerror(errno));
        }
        if (fds[1].revents & POLLIN) {
            unsigned char byte = 0;
            while (::read(g_signalPipe[0], &byte, 1) == 1)
                passSignal(byte);
        }
        if (count == 3 && fds[2].revents != 0)
            readStdin();
        if (fds[0].revents == 0)
            continue;
        const ssize_t n = ::read(m_socket, chunk, sizeof chunk);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n <= 0) {
            const size_t pending = buffer.size() - offset;
            if (n < 0 && errno != ECONNRESET)
                return lost(std::strerror(errno));
            if (pending == 0)
                return lost("the engine closed the connection");
            if (pending < 4)
                return lost("protocol error: connection closed inside a frame header (" + std::to_string(pending)
                            + " of 4 bytes)");
            const auto *bytes = reinterpret_cast<const unsigned char *>(buffer.data() + offset);
            const std::uint32_t length = std::uint32_t(bytes[0]) << 24 | std::uint32_t(bytes[1]) << 16
                | std::uint32_t(bytes[2]) << 8 | std::uint32_t(bytes[3]);
            return lost("protocol error: connection closed inside a frame (" + std::to_string(pending - 4) + " of "
                        + std::to_string(length) + " bytes)");
        }
        if (offset > 0 && offset >= buffer.size() / 2) {
            buffer.erase(0, offset);
            offset = 0;
        }
        buffer.append(chunk, size_t(n));
        while (buffer.size() - offset >= 4) {
            const auto *bytes = reinterpret_cast<const unsigned char *>(buffer.data() + offset);
            const std::uint32_t length = std::uint32_t(bytes[0]) << 24 | std::uint32_t(bytes[1]) << 16
                | std::uint32_t(bytes[2]) << 8 | std::uint32_t(bytes[3]);
            if (length == 0)
                return lost("protocol error: empty frame (length 0)");
            if (length > maxPayload)
                return lost("protocol error: message of " + std::to_string(length) + " bytes exceeds the limit of "
                            + std::to_string(maxPayload) + " bytes");
            if (buffer.size() - offset - 4 < length)
                break;
            const std::optional<JsonValue> message
                = JsonValue::parse(std::string_view(buffer).substr(offset + 4, length));
            offset += 4 + length;
            if (!message || !message->isObject()) {
                warn("sandbox client: malformed message from the engine: not a JSON object");
                continue;
            }
            if (!handle(*message)) {
                if (m_policyRefused)
                    return std::nullopt;
                return m_status;
            }
        }
    }
}

bool DaemonRun::handle(const JsonValue &message)
{
    if (stringMember(message, "jsonrpc") != "2.0") {
        warn("sandbox client: ignoring a malformed message from the engine: jsonrpc: expected \"2.0\"");
        return true;
    }
    const JsonValue *method = message.member("method");
    if (method && method->isString()) {
        const JsonValue *params = message.member("params");
        if (method->toString().rfind("process.", 0) == 0 && params && params->isObject())
            return handleProcessNotification(method->toString(), *params);
        // Only while its command starts: what is asked after that is another client's.
        if (method->toString() == NotificationName::InteractionRequest && params && params->isObject()
            && m_processId == 0)
            handleInteraction(*params);
        if (method->toString() == NotificationName::EngineStopping)
            m_engineStopping = true;
        return true; // the engine's other news is for presenters that show it
    }
    const JsonValue *id = message.member("id");
    if (id && id->isNumber())
        return handleResponse(id->toNumber(), message);
    const JsonValue *error = message.member("error");
    if (error && error->isObject())
        warn("sandbox client: engine reported: " + stringMember(*error, "message"));
    return true;
}

bool DaemonRun::handleResponse(double id, const JsonValue &message)
{
    const JsonValue *error = message.member("error");
    const bool failed = error && error->isObject();
    if (id == double(helloId)) {
        if (failed) {
            lost("the engine refused the handshake: " + stringMember(*error, "message"));
            return false;
        }
        return true;
    }
    if (id == double(spawnId)) {
        if (failed) {
            const JsonValue *data = error->member("data");
            Error reason{ MethodName::ProcessSpawn, stringMember(*error, "message"), {} };
            if (data && data->isObject()) {
                Error fromData = errorFromJson(data);
                if (!fromData.message.empty())
                    reason = std::move(fromData);
            }
            const JsonValue *code = error->member("code");
            if (code && code->isNumber() && int(code->toNumber()) == invalidParamsCode
                && reason.where.rfind("params.request.policy", 0) == 0) {
                m_policyRefused = true; // refused while reading the request: nothing ran
                return false;
            }
            reason.message = "cannot run " + m_program + ": " + reason.message;
            fail(describe(reason));
            return false;
        }
        const JsonValue *result = message.member("result");
        const JsonValue *processId = result ? result->member("processId") : nullptr;
        if (!processId || !processId->isNumber() || processId->toNumber() < 1) {
            fail("result.processId: cannot run " + m_program + ": missing process id");
            return false;
        }
        m_processId = double(static_cast<std::uint64_t>(processId->toNumber()));
        if (::fcntl(STDIN_FILENO, F_GETFD) == -1) {
            m_stdinOpen = false;
            send(MethodName::ProcessCloseStdin, "{\"processId\":" + std::to_string(std::uint64_t(m_processId)) + "}");
        }
        if (m_killRequested)
            requestKill();
        else if (m_pendingSignal != 0)
            sendSignal(m_pendingSignal);
        return true;
    }
    const long long key = static_cast<long long>(id);
    for (auto it = m_pendingMethods.begin(); it != m_pendingMethods.end(); ++it) {
        if (it->first != key)
            continue;
        const JsonValue *code = failed ? error->member("code") : nullptr;
        if (failed && !(code && code->isNumber() && int(code->toNumber()) == internalErrorCode))
            warn("sandbox client: " + it->second + " failed: " + stringMember(*error, "message"));
        m_pendingMethods.erase(it);
        break;
    }
    return true;
}

bool DaemonRun::handleProcessNotification(const std::string &method, const JsonValue &params)
{
    const JsonValue *processId = params.member("processId");
    if (m_processId == 0 || !processId || !processId->isNumber()
        || double(static_cast<std::uint64_t>(processId->toNumber())) != m_processId)
        return true;
    if (method == NotificationName::ProcessOutput) {
        const std::string data = fromBase64(stringMember(params, "data"));
        fdio::writeAll(stringMember(params, "stream") == "stderr" ? STDERR_FILENO : STDOUT_FILENO, data.data(),
                       data.size());
        return true;
    }
    if (method == NotificationName::ProcessFailedToStart) {
        Error reason = errorFromJson(params.member("error"));
        reason.message = "cannot run " + m_program + ": " + reason.message;
        fail(describe(reason));
        if (m_unanswerable)
            m_status = 126;
        return false;
    }
    if (method == NotificationName::ProcessExited) {
        const ExitReading exit = readExit(params.member("exit"));
        if (exit.timedOut)
            writeText(STDERR_FILENO,
                      "sandboxctl: " + m_program + " timed out after " + m_timeoutText + " s and was killed\n");
        else if (m_engineStopping && exit.status > 128)
            writeText(STDERR_FILENO,
                      "sandboxctl: the engine stopped (the program hosting it quit) and ended " + m_program + "\n");
        // The command ran: its status, whether or not a question went unanswered.
        m_status = exit.status;
        return false;
    }
    return true;
}

void DaemonRun::handleInteraction(const JsonValue &params)
{
    const JsonValue *request = params.member("request");
    if (!request || !request->isObject())
        return;
    const JsonValue *id = request->member("id");
    if (!id || !id->isString() || id->toString().empty())
        return; // nothing to answer; the engine's own timeout ends the question
    const std::string kind = stringMember(*request, "kind");
    // The key the full sandboxctl's --answer takes: the subject, else the id.
    const std::string subject = stringMember(*request, "subject");
    const std::string key = subject.empty() ? id->toString() : subject;
    const JsonValue *title = request->member("title");
    const JsonValue *message = request->member("message");
    const std::string answer = "{\"answer\":{\"id\":" + quoted(id->toString()) + ",\"accepted\":false}}";
    if ((kind != "confirm" && kind != "choice" && kind != "text" && kind != "secret") || !title || !title->isString()
        || !message || !message->isString()) {
        warn("sandbox client: ignoring a interaction.request notification the client cannot decode: "
             "params.request: not a question");
        send(MethodName::InteractionAnswer, answer);
        return;
    }
    writeText(STDERR_FILENO,
              "sandboxctl: the engine asks \"" + title->toString() + "\" (" + kind + ", answer key " + key
                  + "): " + message->toString()
                  + "\nsandboxctl: no terminal to answer on; refused. To answer, run again with --answer " + key
                  + "=VALUE\n");
    m_unanswerable = true;
    send(MethodName::InteractionAnswer, answer);
}

void DaemonRun::readStdin()
{
    char buffer[65536];
    const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
    const std::string id = std::to_string(std::uint64_t(m_processId));
    if (n > 0) {
        for (size_t offset = 0; offset < size_t(n); offset += stdinChunk) {
            const std::string piece(buffer + offset, std::min(stdinChunk, size_t(n) - offset));
            send(MethodName::ProcessWrite, "{\"processId\":" + id + ",\"data\":\"" + toBase64(piece) + "\"}");
        }
    } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        m_stdinOpen = false;
        send(MethodName::ProcessCloseStdin, "{\"processId\":" + id + "}");
    }
}

void DaemonRun::passSignal(int number)
{
    // The first goes on to the command; a second kills the sandbox.
    if (std::exchange(m_signalPassed, true)) {
        requestKill();
        return;
    }
    if (m_processId == 0) {
        m_pendingSignal = number;
        return;
    }
    sendSignal(number);
}

void DaemonRun::sendSignal(int number)
{
    const char *name = number == SIGINT ? "interrupt" : number == SIGHUP ? "hangup" : "terminate";
    send(MethodName::ProcessKill,
         "{\"processId\":" + std::to_string(std::uint64_t(m_processId)) + ",\"signal\":\"" + name + "\"}");
}

void DaemonRun::requestKill()
{
    if (m_processId == 0) {
        m_killRequested = true;
        return;
    }
    send(MethodName::ProcessKill, "{\"processId\":" + std::to_string(std::uint64_t(m_processId)) + "}");
}

DaemonRun::Error DaemonRun::errorFromJson(const JsonValue *object, int depth)
{
    Error error;
    if (!object || !object->isObject())
        return error;
    error.where = stringMember(*object, "where");
    error.message = stringMember(*object, "message");
    if (depth >= maxDetailDepth)
        return error;
    const JsonValue *details = object->member("details");
    if (!details || !details->isArray())
        return error;
    for (size_t i = 0; i < details->items().size() && i < maxDetails; ++i)
        error.details.push_back(errorFromJson(&details->items()[i], depth + 1));
    return error;
}

namespace {

std::string line(const std::string &where, const std::string &message)
{
    return where.empty() ? message : where + ": " + message;
}

template <typename E> void appendLines(const E &error, int depth, std::string &out)
{
    if (depth > maxDetailDepth)
        return;
    for (const E &detail : error.details) {
        out += "\n" + std::string(size_t(2 * (depth + 1)), ' ') + "- " + line(detail.where, detail.message);
        appendLines(detail, depth + 1, out);
    }
}

} // namespace

std::string DaemonRun::describe(const Error &error)
{
    // As the full sandboxctl prints an engine error: the error with its detail tree, then
    // each detail again on its own line.
    auto text = [](const Error &e) {
        std::string out = line(e.where, e.message);
        appendLines(e, 0, out);
        return out;
    };
    std::string out = text(error);
    for (const Error &detail : error.details)
        out += "\n  " + text(detail);
    return out;
}

int DaemonRun::lost(const std::string &reason)
{
    return fail("lost the engine while " + m_program + " was running: " + reason);
}

int DaemonRun::fail(const std::string &message)
{
    writeText(STDERR_FILENO, "sandboxctl: " + message + "\n");
    m_status = 125;
    return m_status;
}

void DaemonRun::warn(const std::string &message)
{
    writeText(STDERR_FILENO, "sandboxctl: warning: " + message + "\n");
}

} // namespace sandbox::front
