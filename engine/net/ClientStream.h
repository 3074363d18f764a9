#pragma once

#include <QByteArray>
#include <QObject>

class QSocketNotifier;

namespace sandbox {

// The proxy's end of one client connection on its unix socket, driven over the raw
// descriptor. Unlike QLocalSocket it keeps a half-closed connection open: a client that
// shuts down its sending side right after its request (as `nc` does at the end of its
// input) still receives everything the target sends back.
class ClientStream final : public QObject
{
    Q_OBJECT

public:
    static constexpr qsizetype kReadChunkBytes = 64 * 1024;

    // Takes ownership of `fd`, a connected stream socket.
    explicit ClientStream(int fd, QObject *parent = nullptr);
    ~ClientStream() override;

    QByteArray readAll();
    qsizetype bytesAvailable() const { return m_input.size(); }
    // The client sends nothing more (it shut down its side, or the connection is gone).
    bool hasInputEnded() const { return m_inputEnded; }
    // Stops or resumes reading from the client (back-pressure while the target is slow).
    void setReading(bool reading);

    void write(const QByteArray &data);
    qsizetype bytesToWrite() const { return m_output.size(); }
    // Sends what is still pending, then closes; closed() follows.
    void closeAfterWriting();
    void abort();
    bool isOpen() const { return m_fd >= 0; }

signals:
    void readyRead();
    void inputEnded();
    void bytesWritten();
    // The connection is gone: closed after writing, or broken by the client.
    void closed();

private:
    void onReadable();
    void flush();
    void closeDescriptor();

    int m_fd;
    QSocketNotifier *m_readNotifier = nullptr;
    QSocketNotifier *m_writeNotifier = nullptr;
    QByteArray m_input;
    QByteArray m_output;
    bool m_inputEnded = false;
    bool m_reading = true;
    bool m_closing = false;
};

} // namespace sandbox
