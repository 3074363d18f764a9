#pragma once

#include <cstdint>

// The network forwarder's wire protocol on its own virtio-serial port (kPortName): the
// guest's TCP connections to 127.0.0.1:kListenPort, each a stream carried to the host,
// which connects it to the engine's filtering proxy and nowhere else. Every frame: u32
// little-endian length of what follows, u8 type, u32 little-endian stream id, payload.
// Stream ids are the guest's. Each side sends at most kWindow bytes of Data per stream
// that the other has not yet credited (written on to its own end); a peer that sends more,
// or a malformed frame, ends the stream or the whole link.
namespace sandbox::forwarder {

constexpr const char *kPortName = "sandbox.proxy";
constexpr int kListenPort = 3128;
constexpr uint32_t kMaxPayload = 64 * 1024;
constexpr uint32_t kMaxFrame = 5 + kMaxPayload;
constexpr uint32_t kHeaderSize = 4 + 1 + 4;
constexpr uint32_t kWindow = 256 * 1024;
constexpr uint32_t kMaxStreams = 64;

enum FrameType : uint8_t {
    Open = 1, // guest -> host: a new connection; no payload
    Data = 2, // bytes of the stream
    Eof = 3, // the sender's end will send nothing more (a half-close)
    Close = 4, // the stream is gone (the sender forgets it); no reply
    Credit = 5, // payload: u32 bytes of Data the sender has written on to its end
};

} // namespace sandbox::forwarder
