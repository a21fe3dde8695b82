"""A small HTTP/1.1 server for testing URLSessionTransport over real loopback sockets.

/echo/...        answers 200 with a JSON echo of method, path, query, headers and body
/status/<n>      answers status n with an error envelope and Retry-After: 7
/stream          answers 200 text/event-stream, sends a few lines slowly, then closes
/silent-stream   answers 200 headers, then sends nothing (idle timeout)
/slow, /slow/...  waits 5 s before answering
/drop            reads the request and closes the connection without an answer
/seen?<path>     answers {"count": n}: how many requests for exactly <path> arrived so far
Prints the bound port on the first line of stdout.
"""
import json
import os
import threading
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


seen = {}
seen_lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def body(self):
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            data = b""
            while True:
                size = int(self.rfile.readline().strip().split(b";")[0], 16)
                if size == 0:
                    self.rfile.readline()
                    return data
                data += self.rfile.read(size)
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def send_json(self, status, obj, extra=None):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def handle_any(self):
        body = self.body()
        path, _, query = self.path.partition("?")
        if path == "/seen":
            with seen_lock:
                count = seen.get(query, 0)
            self.send_json(200, {"count": count})
            return
        with seen_lock:
            seen[path] = seen.get(path, 0) + 1
        if path.startswith("/echo"):
            self.send_json(200, {
                "method": self.command, "path": path, "query": query,
                "headers": {k.lower(): v for k, v in self.headers.items()},
                "body": body.decode("utf-8", "replace"),
            })
        elif path.startswith("/status/"):
            status = int(path.split("/")[2])
            self.send_json(status, {"error": {"code": "scripted", "message": "m"}}, {"Retry-After": "7"})
        elif path == "/stream":
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            for line in [b": ping\n\n", b"data: typing\r\n\r\n", b"data: chan", b"ged\n\n", b"data: reconnect\n\n"]:
                self.wfile.write(line)
                self.wfile.flush()
                time.sleep(0.05)
            self.close_connection = True
        elif path == "/silent-stream":
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.flush()
            time.sleep(4)
            self.close_connection = True
        elif path == "/drop":
            # Read the request, then close without a single byte of answer (a lost response).
            self.close_connection = True
            self.connection.shutdown(2)
        elif path == "/slow" or path.startswith("/slow/"):
            time.sleep(5)
            self.send_json(200, {})
        else:
            self.send_json(404, {"error": {"code": "not_found", "message": "m"}})

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = handle_any


def exit_with_parent():
    # The test process holds our stdin; when it ends (even killed), stdin reaches EOF and we leave with it.
    sys.stdin.buffer.read()
    os._exit(0)


threading.Thread(target=exit_with_parent, daemon=True).start()
server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
