# Run inside the VM under network allowlist by tst_vmdaemon: ARGV port otherPort hostAddress.
# Prints one line per way out it tries: "<case> <what happened>".
import hashlib, os, socket, sys, threading, urllib.error, urllib.request

port, other, host = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]


def fetch(url):
    try:
        with urllib.request.urlopen(url, timeout=120) as r:
            body = r.read()
            text = body.decode().strip() if len(body) < 100 else hashlib.sha256(body).hexdigest()
            return 'ok %d %s' % (r.status, text)
    except urllib.error.HTTPError as e:
        return 'http %d' % e.code
    except Exception as e:
        return 'error %s' % type(e).__name__


def tunnel(target, request=b''):
    s = socket.create_connection(('127.0.0.1', 3128), timeout=120)
    s.sendall(('CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n' % (target, target)).encode())
    data = b''
    while b'\r\n\r\n' not in data:
        chunk = s.recv(4096)
        if not chunk:
            break
        data += chunk
    status = data.split(b'\r\n')[0].decode()
    if ' 200' in status and request:
        s.sendall(request)
        body = data.split(b'\r\n\r\n', 1)[1] if b'\r\n\r\n' in data else b''
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            body += chunk
        status += ' | ' + ('marker' if b'reached-through-proxy' in body else 'no marker')
    s.close()
    return status


def halfclose(target, request):
    s = socket.create_connection(('127.0.0.1', 3128), timeout=120)
    s.sendall(('CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n' % (target, target)).encode() + request)
    s.shutdown(socket.SHUT_WR)
    data = b''
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    return data.split(b'\r\n')[0].decode() + ' | ' + ('marker' if b'reached-through-proxy' in data else 'no marker')


def socks(name, target, request=b''):
    s = socket.create_connection(('127.0.0.1', 3128), timeout=120)
    s.sendall(b'\x05\x01\x00')
    if s.recv(2) != b'\x05\x00':
        return 'no greeting'
    s.sendall(b'\x05\x01\x00\x03' + bytes([len(name)]) + name.encode() + target.to_bytes(2, 'big'))
    reply = s.recv(10)
    if len(reply) < 2 or reply[1] != 0:
        return 'refused %d' % (reply[1] if len(reply) > 1 else -1)
    s.sendall(request)
    data = b''
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    return 'granted | ' + ('marker' if b'reached-through-proxy' in data else 'no marker')


def direct(address, target, kind=socket.SOCK_STREAM):
    try:
        s = socket.socket(socket.AF_INET, kind)
        s.settimeout(10)
        if kind == socket.SOCK_DGRAM:
            s.sendto(b'\0' * 12, (address, target))
            s.recvfrom(512)
        else:
            s.connect((address, target))
        return 'connected'
    except OSError as e:
        return 'failed %s' % type(e).__name__


def garbage():
    s = socket.create_connection(('127.0.0.1', 3128), timeout=120)
    s.sendall(b'NONSENSE\r\n\r\n')
    data = b''
    while True:
        chunk = s.recv(4096)
        if not chunk:
            return 'closed ' + (data.split(b'\r\n')[0].decode() or 'silently')
        data += chunk


def resolve(name):
    try:
        return 'resolved %s' % socket.getaddrinfo(name, 80)[0][4][0]
    except OSError as e:
        return 'failed %s' % type(e).__name__


results = {}


def parallel(i):
    results[i] = fetch('http://localhost:%d/large.bin' % port)


threads = [threading.Thread(target=parallel, args=(i,)) for i in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print('env', os.environ.get('HTTP_PROXY'), os.environ.get('https_proxy'), os.environ.get('ALL_PROXY'))
print('allowed', fetch('http://localhost:%d/marker.txt' % port))
print('large', ' '.join(sorted(set(results.values()))))
print('tunnel', tunnel('localhost:%d' % port, b'GET /marker.txt HTTP/1.0\r\nHost: localhost\r\n\r\n'))
print('halfclose', halfclose('localhost:%d' % port, b'GET /marker.txt HTTP/1.0\r\nHost: localhost\r\n\r\n'))
print('socks', socks('localhost', port, b'GET /marker.txt HTTP/1.0\r\nHost: localhost\r\n\r\n'))
print('socksother', socks('example.invalid', port))
print('othername', fetch('http://example.invalid:%d/marker.txt' % port))
print('literal', fetch('http://127.0.0.1:%d/marker.txt' % port))
print('otherport', fetch('http://localhost:%d/marker.txt' % other))
print('connectliteral', tunnel('127.0.0.1:%d' % port))
print('connectother', tunnel('localhost:%d' % other))
print('garbage', garbage())
print('directloopback', direct('127.0.0.1', port))
print('directhost', direct(host, port))
print('directgateway', direct('10.0.2.2', port))
print('udp', direct('10.0.2.3', 53, socket.SOCK_DGRAM))
print('dns', resolve('example.com'))
print('devices', ' '.join(sorted(l.split(':')[0].strip() for l in open('/proc/net/dev').readlines()[2:])))
