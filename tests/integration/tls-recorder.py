#!/usr/bin/python3
"""A loopback HTTPS and plain HTTP server that records every request it receives.

Usage: tls-recorder.py --cert PEM --key PEM --log FILE [--git-root DIR --token-file FILE]

Listens on two free loopback ports (HTTPS with the given certificate, plain HTTP) and prints
them as one JSON line on standard output: {"https": PORT, "http": PORT}. Each request is
appended to the log as a JSON line: port, method, path, headers and body. The answer is
"ok N" with the body's length; under /echo the request's headers come back, as some hosts'
answers do (the proxy must not let a value through that way); under /repo.git/ it serves
the bare repositories of --git-root through
`git http-backend`, once the request carries Basic credentials whose password is the
token in --token-file (401 asking for them otherwise), as a git host over HTTPS does.
"""
import argparse
import base64
import json
import os
import ssl
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body are two writes: no delayed-ACK stall between them

    def log_message(self, *args):
        pass

    def read_body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            body = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return body
                body += self.rfile.read(size)
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def record(self, body):
        entry = {
            "port": self.server.server_port,
            "method": self.command,
            "path": self.path,
            "headers": [[name, value] for name, value in self.headers.items()],
            "body": body.decode("latin-1"),
        }
        with lock, open(self.server.log_path, "a") as log:
            log.write(json.dumps(entry) + "\n")

    def answer(self, status, body, headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def handle_any(self):
        body = self.read_body()
        self.record(body)
        if self.path.startswith("/repo.git") and self.server.git_root:
            self.git(body)
            return
        if self.path.startswith("/echo"):
            # As some hosts do (request ids, CORS origins, error pages): the request comes back.
            echoed = "".join("%s: %s\n" % (name, value) for name, value in self.headers.items()).encode("latin-1")
            self.answer(200, echoed, [("Content-Type", "text/plain")])
            return
        self.answer(200, b"ok %d\n" % len(body), [("Content-Type", "text/plain")])

    do_GET = do_POST = do_PUT = handle_any

    def git(self, body):
        with open(self.server.token_file, "rb") as f:
            token = f.read().strip()
        auth = self.headers.get("Authorization", "")
        password = b""
        if auth.lower().startswith("basic "):
            try:
                password = base64.b64decode(auth[6:].strip()).split(b":", 1)[1]
            except (ValueError, IndexError):
                password = b""
        if password != token:
            self.answer(401, b"credentials needed\n", [("WWW-Authenticate", 'Basic realm="git"')])
            return
        url = urlsplit(self.path)
        env = dict(os.environ)
        env.update({
            "GIT_PROJECT_ROOT": self.server.git_root,
            "GIT_HTTP_EXPORT_ALL": "1",
            "PATH_INFO": url.path,
            "QUERY_STRING": url.query,
            "REQUEST_METHOD": self.command,
            "CONTENT_TYPE": self.headers.get("Content-Type", ""),
            "CONTENT_LENGTH": str(len(body)),
            "REMOTE_USER": "sandbox",
            "REMOTE_ADDR": "127.0.0.1",
        })
        out = subprocess.run(["git", "http-backend"], input=body, env=env, capture_output=True).stdout
        head, _, payload = out.partition(b"\r\n\r\n")
        if not _:
            head, _, payload = out.partition(b"\n\n")
        status = 200
        headers = []
        for line in head.splitlines():
            name, _, value = line.decode("latin-1").partition(":")
            if name.lower() == "status":
                status = int(value.strip().split()[0])
            elif name:
                headers.append((name, value.strip()))
        self.answer(status, payload, headers)


def serve(server):
    server.serve_forever()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--git-root")
    parser.add_argument("--token-file")
    args = parser.parse_args()

    servers = []
    for secure in (True, False):
        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        server.log_path = args.log
        server.git_root = args.git_root
        server.token_file = args.token_file
        if secure:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(args.cert, args.key)
            server.socket = context.wrap_socket(server.socket, server_side=True)
        servers.append(server)
    print(json.dumps({"https": servers[0].server_port, "http": servers[1].server_port}), flush=True)
    for server in servers:
        threading.Thread(target=serve, args=(server,), daemon=True).start()
    # Ends when the test closes standard input (or dies).
    sys.stdin.read()


if __name__ == "__main__":
    main()
