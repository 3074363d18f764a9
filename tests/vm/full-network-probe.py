# Run inside the VM under network full by tst_vmdaemon: ARGV tcpPort udpPort address...
# Prints one line per address: "<address> tcp <what happened> udp <what happened>", then
# the network devices the guest has and what a name lookup gave.
import socket, sys

tcp, udp, addresses = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]


def connect(address):
    # What is refused fails at once; what is dropped (slirp4netns's own address) hangs, so
    # the wait is short: a reachable address answers within milliseconds.
    try:
        s = socket.create_connection((address, tcp), timeout=5)
        s.close()
        return 'connected'
    except OSError as e:
        return 'failed ' + type(e).__name__


def datagram(address):
    # The host's server counts what arrives; an error here only says why nothing could.
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.sendto(b'probe', (address, udp))
        return 'sent'
    except OSError as e:
        return 'failed ' + type(e).__name__
    finally:
        s.close()


for address in addresses:
    print(address, 'tcp', connect(address), 'udp', datagram(address))
print('devices', ' '.join(sorted(l.split(':')[0].strip() for l in open('/proc/net/dev').readlines()[2:])))
try:
    print('lookup', socket.getaddrinfo('localhost.invalid', 80)[0][4][0])
except OSError as e:
    print('lookup failed', type(e).__name__)
