#!/usr/bin/python3
"""A plain TCP front on loopback before a unix socket, as an engine's unencrypted tcp://
port: every connection to 127.0.0.1:PORT is relayed to the socket, each direction closed
as its sender closes it. Prints its port on the first line and runs until its standard
input closes.
"""
import socket
import sys
import threading


def pump(source, target):
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            target.sendall(data)
        target.shutdown(socket.SHUT_WR)
    except OSError:
        pass


def serve(client, path):
    engine = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        engine.connect(path)
    except OSError:
        client.close()
        return
    threads = [threading.Thread(target=pump, args=(client, engine), daemon=True),
               threading.Thread(target=pump, args=(engine, client), daemon=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    client.close()
    engine.close()


def main():
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    print(listener.getsockname()[1], flush=True)

    def accept():
        while True:
            client, _ = listener.accept()
            threading.Thread(target=serve, args=(client, sys.argv[1]), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    sys.stdin.read()


if __name__ == "__main__":
    main()
