#!/usr/bin/env python3
"""A loopback server speaking attest-harness's verdict protocol that does no work: it answers every case with
"accept" for each step after sleeping DELAY seconds. `scripts/bench http` uses it to measure how many cases the
`run` client keeps in flight. It prints its port on the first line, serves until stdin closes or for at most
LIMIT seconds, then prints the highest number of requests it held at once."""
import http.server
import json
import socketserver
import sys
import threading
import time

DELAY = float(sys.argv[1]) if len(sys.argv) > 1 else 0.2
LIMIT = float(sys.argv[2]) if len(sys.argv) > 2 else 600.0
lock = threading.Lock()
in_flight = 0
peak = 0


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out as two writes: without TCP_NODELAY the body waits for the client's delayed ACK
    # (about 40 ms per request), which capped hey at under 200 requests/s here.
    disable_nagle_algorithm = True

    def do_POST(self):
        global in_flight, peak
        with lock:
            in_flight += 1
            peak = max(peak, in_flight)
        try:
            length = int(self.headers.get("Content-Length", "0"))
            if length > 16 << 20:
                self.send_error(413)
                return
            suite = json.loads(self.rfile.read(length))
            time.sleep(DELAY)
            results = [{"id": case["id"], "verdicts": [{"outcome": "accept"} for _ in case["steps"]]}
                       for case in suite.get("cases", [])]
            body = json.dumps({"format": "attest-harness-exec-results/1", "harness": "sleeping", "results": results}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        finally:
            with lock:
                in_flight -= 1

    def log_message(self, *args):
        pass


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    request_queue_size = 256


server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
deadline = time.monotonic() + LIMIT


def wait_for_stdin():
    sys.stdin.read()


reader = threading.Thread(target=wait_for_stdin, daemon=True)
reader.start()
while reader.is_alive() and time.monotonic() < deadline:
    reader.join(0.2)
server.shutdown()
print(f"peak {peak}", flush=True)
