#!/usr/bin/python3
"""A corporate-style HTTP CONNECT proxy for the tests, on loopback.

It asks for Proxy-Authorization (Basic of the "user:password" in --credential-file, read
again for every request), records every request (method, target, whether the credential
was right, which listener) in --log as JSON lines, answers 407 without the right one, and
relays bytes both ways once a tunnel is open. With --cert and --key a second listener
speaks TLS (an https:// upstream proxy). Prints its ports as JSON on the first line and
runs until its standard input closes.
"""
import argparse
import base64
import json
import select
import socket
import socketserver
import ssl
import sys
import threading

lock = threading.Lock()


def read_head(conn):
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = conn.recv(4096)
        if not chunk or len(head) > 65536:
            return None, b""
        head += chunk
    head, _, rest = head.partition(b"\r\n\r\n")
    return head.decode("latin-1"), rest


def pump(a, b):
    peers = {a: b, b: a}
    while True:
        readable, _, _ = select.select([a, b], [], [], 600)
        if not readable:
            return
        for sock in readable:
            try:
                data = sock.recv(65536)
                while isinstance(sock, ssl.SSLSocket) and sock.pending():
                    data += sock.recv(sock.pending())
            except ssl.SSLWantReadError:
                continue
            except OSError:
                data = b""
            if not data:
                return
            peers[sock].sendall(data)


class Handler(socketserver.BaseRequestHandler):
    def handle(self):
        conn = self.request
        tls = self.server.tls_context is not None
        if tls:
            try:
                conn = self.server.tls_context.wrap_socket(conn, server_side=True)
            except (ssl.SSLError, OSError):
                return
        head, rest = read_head(conn)
        if head is None:
            return
        lines = head.split("\r\n")
        words = lines[0].split(" ")
        method, target = (words + ["", ""])[:2]
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        with open(self.server.credential_file, "rb") as f:
            expected = f.read().strip()
        given = b""
        auth = headers.get("proxy-authorization", "")
        if auth.lower().startswith("basic "):
            try:
                given = base64.b64decode(auth[6:].strip())
            except ValueError:
                given = b""
        authorized = given == expected
        with lock, open(self.server.log_path, "a") as log:
            log.write(json.dumps({"method": method, "target": target, "authorized": authorized, "tls": tls}) + "\n")
        if method != "CONNECT":
            conn.sendall(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n")
            return
        if not authorized:
            conn.sendall(b"HTTP/1.1 407 Proxy Authentication Required\r\n"
                         b"Proxy-Authenticate: Basic realm=\"corp\"\r\nContent-Length: 0\r\n\r\n")
            return
        host, _, port = target.rpartition(":")
        try:
            upstream = socket.create_connection((host.strip("[]"), int(port)), timeout=10)
        except (OSError, ValueError):
            conn.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
            return
        upstream.settimeout(None)
        with upstream:
            conn.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
            if rest:
                upstream.sendall(rest)
            pump(conn, upstream)


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--credential-file", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--cert")
    parser.add_argument("--key")
    args = parser.parse_args()

    ports = {}
    contexts = {"http": None}
    if args.cert and args.key:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.cert, args.key)
        contexts["https"] = context
    for name, context in contexts.items():
        server = Server(("127.0.0.1", 0), Handler)
        server.tls_context = context
        server.credential_file = args.credential_file
        server.log_path = args.log
        ports[name] = server.server_address[1]
        threading.Thread(target=server.serve_forever, daemon=True).start()
    print(json.dumps(ports), flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    main()
