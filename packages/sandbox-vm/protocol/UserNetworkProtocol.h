#pragma once

#include <cstdint>

// Network "full" (QEMU): how the guest is wired. The guest's NIC is on QEMU's own user-mode
// network (guest kGuestAddress, gateway kGuestGateway, which QEMU maps to the loopback of
// the VM's private network namespace); QEMU's connections leave that namespace only
// through slirp4netns, whose network is kOuterNetwork with kOuterGateway (the host's
// loopback there is disabled) and its DNS forwarder kOuterDns, the guest's name server.
// The engine passes "sandbox.net=full" on the kernel command line. Addresses are in host
// byte order.
namespace sandbox::usernet {

constexpr uint32_t address(uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
    return (uint32_t(a) << 24) | (uint32_t(b) << 16) | (uint32_t(c) << 8) | d;
}

constexpr uint32_t kGuestNetwork = address(10, 0, 2, 0);
constexpr int kGuestPrefix = 24;
constexpr uint32_t kGuestAddress = address(10, 0, 2, 15);
constexpr uint32_t kGuestGateway = address(10, 0, 2, 2);
constexpr uint32_t kOuterNetwork = address(10, 0, 3, 0);
constexpr int kOuterPrefix = 24;
constexpr uint32_t kOuterGateway = address(10, 0, 3, 2);
constexpr uint32_t kOuterDns = address(10, 0, 3, 3);
constexpr uint32_t kOuterTap = address(10, 0, 3, 100);
constexpr const char *kGuestInterface = "eth0";

} // namespace sandbox::usernet
