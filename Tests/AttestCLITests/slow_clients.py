#!/usr/bin/env python3
"""Slow clients against a loopback server: COUNT connections each drip a request one byte every half second. While
they hold on, one ordinary request is sent. Prints one JSON line: the ordinary request's status and seconds, and the
longest time a slow connection stayed open (until the server cut it, or until LIMIT seconds)."""
import json
import socket
import sys
import threading
import time

port, count, limit = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
held = []
lock = threading.Lock()


def slow():
    started = time.monotonic()
    try:
        connection = socket.create_connection(("127.0.0.1", port), timeout=limit)
    except OSError:
        with lock:
            held.append(0.0)
        return
    request = b"POST /v1/cases HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\nX-Slow: " + b"a" * 1000
    try:
        for byte in request:
            connection.send(bytes([byte]))
            time.sleep(0.5)
            if time.monotonic() - started > limit:
                break
    except OSError:
        pass
    finally:
        with lock:
            held.append(time.monotonic() - started)
        connection.close()


threads = [threading.Thread(target=slow, daemon=True) for _ in range(count)]
for thread in threads:
    thread.start()
time.sleep(1.0)
started = time.monotonic()
status = 0
# Refused while every slot is held: try again, as any client would, until the slow ones are cut off.
while status == 0 and time.monotonic() - started < limit:
    try:
        connection = socket.create_connection(("127.0.0.1", port), timeout=limit)
        connection.sendall(b"GET /v1/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        answer = connection.recv(4096)
        status = int(answer.split(b" ")[1]) if answer.startswith(b"HTTP/1.1") else 0
        connection.close()
    except OSError:
        time.sleep(0.2)
valid_seconds = time.monotonic() - started
for thread in threads:
    thread.join(limit + 5)
print(json.dumps({"status": status, "seconds": valid_seconds, "held": max(held) if held else 0, "count": len(held)}))
