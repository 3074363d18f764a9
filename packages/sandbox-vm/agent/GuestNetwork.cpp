#include "GuestNetwork.h"

#include "UserNetworkProtocol.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <net/if.h>
#include <net/route.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

namespace sandbox::guest {

namespace {

std::string failure(const std::string &what)
{
    return what + ": " + std::strerror(errno);
}

sockaddr_in inet(uint32_t address)
{
    sockaddr_in in{};
    in.sin_family = AF_INET;
    in.sin_addr.s_addr = htonl(address);
    return in;
}

void setAddress(sockaddr &target, uint32_t address)
{
    const sockaddr_in in = inet(address);
    std::memcpy(&target, &in, sizeof in);
}

void makeDirectories(const std::string &path)
{
    std::string partial;
    for (size_t at = 1; at <= path.size(); ++at) {
        if (at == path.size() || path[at] == '/') {
            partial = path.substr(0, at);
            mkdir(partial.c_str(), 0755);
        }
    }
}

bool bringUp(int fd, const char *name)
{
    ifreq request{};
    std::strncpy(request.ifr_name, name, IFNAMSIZ - 1);
    if (ioctl(fd, SIOCGIFFLAGS, &request) != 0)
        return false;
    request.ifr_flags = short(request.ifr_flags | IFF_UP);
    return ioctl(fd, SIOCSIFFLAGS, &request) == 0;
}

bool writeFile(const std::string &path, const std::string &content)
{
    std::ofstream file(path, std::ios::trunc);
    file << content;
    file.close();
    return bool(file);
}

// /etc/resolv.conf as the guest's programs find it: written where /etc is the guest's
// own, else laid over the file a read-only share of the host's /etc holds (or the one its
// symlink names, created in the guest's own /run when missing there).
std::string nameResolver(const std::string &content)
{
    const std::string own = "/.sandbox/resolv.conf";
    if (!writeFile(own, content))
        return failure("write " + own);
    std::string path = "/etc/resolv.conf";
    for (int hops = 0; hops < 8; ++hops) {
        struct stat info
        {
        };
        if (lstat(path.c_str(), &info) != 0) {
            const std::string parent = path.substr(0, path.rfind('/'));
            makeDirectories(parent);
            if (!writeFile(path, content))
                return failure("write " + path);
            return {};
        }
        if (!S_ISLNK(info.st_mode)) {
            if (mount(own.c_str(), path.c_str(), nullptr, MS_BIND, nullptr) != 0)
                return failure("mount " + own + " on " + path);
            return {};
        }
        char target[4096] = {};
        const ssize_t length = readlink(path.c_str(), target, sizeof target - 1);
        if (length <= 0)
            return failure("readlink " + path);
        const std::string link(target, size_t(length));
        path = link.front() == '/' ? link : path.substr(0, path.rfind('/') + 1) + link;
    }
    return "/etc/resolv.conf: too many symbolic links";
}

} // namespace

std::string configureUserNetwork(int waitMs)
{
    using namespace sandbox::usernet;
    const std::string device = std::string("/sys/class/net/") + kGuestInterface;
    const timespec pause{ 0, 5 * 1000 * 1000 };
    struct stat info
    {
    };
    int waited = 0;
    while (stat(device.c_str(), &info) != 0) {
        if (waited >= waitMs)
            return std::string("the network device ") + kGuestInterface + " did not appear";
        nanosleep(&pause, nullptr);
        waited += 5;
    }
    const int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return failure("socket");
    std::string problem;
    ifreq request{};
    std::strncpy(request.ifr_name, kGuestInterface, IFNAMSIZ - 1);
    if (!bringUp(fd, "lo")) {
        problem = failure("bring up lo");
    } else {
        setAddress(request.ifr_addr, kGuestAddress);
        if (ioctl(fd, SIOCSIFADDR, &request) != 0)
            problem = failure("set the address of the network device");
    }
    if (problem.empty()) {
        setAddress(request.ifr_netmask, kGuestPrefix == 0 ? 0 : ~uint32_t(0) << (32 - kGuestPrefix));
        if (ioctl(fd, SIOCSIFNETMASK, &request) != 0)
            problem = failure("set the netmask of the network device");
    }
    if (problem.empty() && !bringUp(fd, kGuestInterface))
        problem = failure("bring up the network device");
    if (problem.empty()) {
        rtentry route{};
        setAddress(route.rt_dst, 0);
        setAddress(route.rt_genmask, 0);
        setAddress(route.rt_gateway, kGuestGateway);
        route.rt_flags = RTF_UP | RTF_GATEWAY;
        char name[IFNAMSIZ] = {};
        std::strncpy(name, kGuestInterface, IFNAMSIZ - 1);
        route.rt_dev = name;
        if (ioctl(fd, SIOCADDRT, &route) != 0)
            problem = failure("add the default route");
    }
    close(fd);
    if (!problem.empty())
        return problem;
    in_addr dns{};
    dns.s_addr = htonl(kOuterDns);
    char text[INET_ADDRSTRLEN] = {};
    inet_ntop(AF_INET, &dns, text, sizeof text);
    return nameResolver(std::string("nameserver ") + text + '\n');
    return {};
}

} // namespace sandbox::guest
