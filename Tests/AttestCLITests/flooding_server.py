#!/usr/bin/env python3
"""A hostile loopback server for the HTTP client's memory bound: every request gets a 200 and then BYTES bytes as
fast as the socket takes them, without Content-Length (mode "stream") or after declaring them (mode "declared").
It prints its port on the first line, and serves until killed or for at most 300 seconds."""
import socket
import sys
import threading
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "stream"
total = int(sys.argv[2]) if len(sys.argv) > 2 else 3 << 30
family = socket.AF_INET6 if len(sys.argv) > 3 and sys.argv[3] == "::1" else socket.AF_INET
server = socket.socket(family)
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("::1" if family == socket.AF_INET6 else "127.0.0.1", 0))
server.listen(64)
print(server.getsockname()[1], flush=True)


def serve(connection):
    try:
        connection.recv(1 << 16)
        length = b"Content-Length: %d\r\n" % total if mode == "declared" else b""
        connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + length + b"Connection: close\r\n\r\n")
        chunk = b"0" * (1 << 20)
        sent = 0
        while sent < total:
            connection.sendall(chunk)
            sent += len(chunk)
    except OSError:
        pass
    finally:
        connection.close()


server.settimeout(1)
deadline = time.monotonic() + 300
while time.monotonic() < deadline:
    try:
        connection, _ = server.accept()
    except socket.timeout:
        continue
    threading.Thread(target=serve, args=(connection,), daemon=True).start()
