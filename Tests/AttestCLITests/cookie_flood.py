#!/usr/bin/env python3
"""COUNT clients, each asking POST PATH once with a session cookie of SIZE bytes, against a loopback serve --api;
prints the server's resident memory (VmRSS, KiB) before and after as one JSON line. Bounded in count and time."""
import http.client
import json
import sys

port, pid, count, size, path = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]


def rss():
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def ask(index):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    cookie = "attest_harness_session=" + ("%06d" % index) + "c" * size
    connection.request("POST", path, body=json.dumps({"username": "u%d" % index, "displayName": "u"}),
                       headers={"Content-Type": "application/json", "Cookie": cookie})
    connection.getresponse().read()
    connection.close()


for index in range(50):
    ask(index)
before = rss()
for index in range(50, 50 + count):
    ask(index)
print(json.dumps({"before": before, "after": rss()}))
