#!/usr/bin/env python3
"""A local flood of idle connections against a loopback server: COUNT connections opened and held without sending a
byte, each reopened as soon as the server drops it, for SECONDS. Meanwhile an ordinary client asks GET /v1/health on
a fresh connection until it is answered. Prints one JSON line: whether and after how many seconds it was answered,
and how many connections the flood opened. Every loop is bounded in count and time, and only 127.0.0.1 is reached."""
import json
import socket
import sys
import threading
import time

port, count, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
deadline = time.monotonic() + seconds
opened = [0]
lock = threading.Lock()


def hold():
    while time.monotonic() < deadline:
        try:
            connection = socket.create_connection(("127.0.0.1", port), timeout=1)
        except OSError:
            time.sleep(0.01)
            continue
        with lock:
            opened[0] += 1
        connection.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            connection.recv(1)  # returns when the server drops the connection
        except OSError:
            pass
        connection.close()


threads = [threading.Thread(target=hold, daemon=True) for _ in range(count)]
for thread in threads:
    thread.start()
time.sleep(1.0)
started = time.monotonic()
answered = None
while time.monotonic() < deadline and answered is None:
    try:
        connection = socket.create_connection(("127.0.0.1", port), timeout=2)
        connection.sendall(b"GET /v1/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        data = connection.recv(64)
        connection.close()
        if data.startswith(b"HTTP/1.1 200"):
            answered = time.monotonic() - started
    except OSError:
        time.sleep(0.02)
for thread in threads:
    thread.join(timeout=max(0.1, deadline - time.monotonic() + 2))
print(json.dumps({"answered": answered is not None, "seconds": answered, "opened": opened[0]}))
