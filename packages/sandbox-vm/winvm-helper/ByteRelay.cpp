#include "ByteRelay.h"

#include <memory>
#include <thread>

namespace sandbox::winvm {

ByteRelay::ByteRelay(RelayEndpoint &first, RelayEndpoint &second)
    : m_first(first)
    , m_second(second)
{ }

ByteRelay::Outcome ByteRelay::run()
{
    std::atomic<uint64_t> firstToSecond{ 0 };
    std::atomic<uint64_t> secondToFirst{ 0 };
    std::thread back([&] { pump(m_second, m_first, secondToFirst); });
    pump(m_first, m_second, firstToSecond);
    back.join();
    Outcome outcome;
    outcome.ok = !m_failed.load();
    outcome.failure = m_failure;
    outcome.firstToSecond = firstToSecond.load();
    outcome.secondToFirst = secondToFirst.load();
    return outcome;
}

void ByteRelay::pump(RelayEndpoint &from, RelayEndpoint &to, std::atomic<uint64_t> &moved)
{
    const std::unique_ptr<char[]> buffer(new char[kBufferBytes]);
    for (;;) {
        const IoResult read = from.read(buffer.get(), kBufferBytes);
        if (m_failed.load())
            return; // interrupted: the other direction already said why
        if (read.failed) {
            fail("reading from " + from.name() + " failed: " + read.error);
            return;
        }
        if (read.bytes == 0) {
            const IoResult closed = to.shutdownWrite();
            if (closed.failed && !m_failed.load())
                fail("passing the end of the stream on to " + to.name() + " failed: " + closed.error);
            return;
        }
        size_t done = 0;
        while (done < read.bytes) {
            const IoResult written = to.write(buffer.get() + done, read.bytes - done);
            if (m_failed.load())
                return;
            if (written.failed || written.bytes == 0) {
                fail("writing to " + to.name()
                     + " failed: " + (written.failed ? written.error : std::string("it accepted nothing")));
                return;
            }
            done += written.bytes;
            moved += written.bytes;
        }
    }
}

void ByteRelay::fail(const std::string &failure)
{
    if (m_failed.exchange(true))
        return;
    m_failure = failure;
    if (m_onFailure)
        m_onFailure(failure);
    m_first.interrupt();
    m_second.interrupt();
}

} // namespace sandbox::winvm
