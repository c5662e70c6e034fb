#!/usr/bin/env python3
"""A deliberately broken verdict server on 127.0.0.1 for HTTPVerifier's robustness tests.

The first path segment picks the misbehaviour; the chosen port is printed on stdout. It serves until killed.
"""
import json, socket, struct, sys, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


STATS = {"connections": 0, "requests": 0}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        STATS["connections"] += 1

    def do_GET(self):
        # /stats: how many connections and answered requests the well-behaved modes saw.
        self.reply(200, json.dumps(STATS).encode())

    def log_message(self, *args):
        pass

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        mode = self.path.strip("/").split("/")[0]
        if mode == "garbage":
            self.reply(200, b"{ this is not json")
        elif mode == "huge":
            self.send_response(200)
            self.send_header("Content-Length", str(50 * 1024 * 1024))
            self.end_headers()
            chunk = b"0" * 65536
            try:
                for _ in range(800):
                    self.wfile.write(chunk)
            except OSError:
                pass
        elif mode == "drip":
            self.send_response(200)
            self.send_header("Content-Length", "1000000")
            self.end_headers()
            try:
                for _ in range(120):
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    time.sleep(0.5)
            except OSError:
                pass
        elif mode == "reset":
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
            # The handler's files still hold the socket: end the keep-alive loop so that closing them sends the RST.
            self.close_connection = True
        elif mode == "status":
            self.reply(500, b'{"error": "internal"}')
        elif mode == "redirect":
            self.send_response(302)
            self.send_header("Location", self.path)
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif mode == "chunkoverflow":
            # A chunk size that overflows any running total.
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            self.wfile.write(b"1\r\na\r\n7fffffffffffffff\r\n")
            self.wfile.flush()
            time.sleep(1)
        elif mode == "trailers":
            # Endless trailers, as fast as the client reads: only the deadline ends this.
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            try:
                self.wfile.write(b"0\r\n")
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline:
                    self.wfile.write(b"X-T: y\r\n" * 10)
            except OSError:
                pass
        elif mode == "interim":
            # 100 Continue, then the real answer.
            self.wfile.write(b"HTTP/1.1 100 Continue\r\n\r\n")
            self.reply(200, b"{ still not json")
        elif mode in ("accept", "idleclose"):
            # A well-behaved server: accept every step. idleclose drops each connection once it has answered, as a
            # server's idle timeout would, without saying so in the response.
            suite = json.loads(body)
            answer = {"format": "attest-harness-exec-results/1", "harness": "hostile",
                      "results": [{"id": case["id"], "verdicts": [{"outcome": "accept"} for _ in case["steps"]]}
                                  for case in suite["cases"]]}
            STATS["requests"] += 1
            self.reply(200, json.dumps(answer).encode())
            if mode == "idleclose":
                self.close_connection = True
        elif mode == "bigheader":
            # One 70,000-byte header, sent with the whole head in one write: over the client's 64 KiB header cap.
            payload = b'{"format": "attest-harness-exec-results/1"}'
            head = (b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * 70000 + b"\r\nContent-Length: "
                    + str(len(payload)).encode() + b"\r\n\r\n")
            self.wfile.write(head + payload)
            self.wfile.flush()
            self.close_connection = True
        elif mode == "malformed500":
            # A server that crashes on malformed evidence: every valid case accepted, every other case answered 500.
            suite = json.loads(body)
            if any(".valid." not in case["id"] for case in suite["cases"]):
                self.reply(500, b"Internal Server Error: Traceback (most recent call last): ...")
                return
            answer = {"format": "attest-harness-exec-results/1", "harness": "hostile",
                      "results": [{"id": case["id"], "verdicts": [{"outcome": "accept"} for _ in case["steps"]]}
                                  for case in suite["cases"]]}
            self.reply(200, json.dumps(answer).encode())
        elif mode == "wrongid":
            answer = {"format": "attest-harness-exec-results/1", "harness": "hostile",
                      "results": [{"id": "other", "verdicts": [{"outcome": "accept"}]}]}
            self.reply(200, json.dumps(answer).encode())
        else:
            self.reply(404, b'{"error": "no such mode"}')

    def reply(self, status, payload):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
