#!/usr/bin/env python3
"""A debuginfod stand-in on loopback for the tests that need a slow server.

slow-debuginfod.py PORT DIR MODE LOG
Serves /buildid/ID/debuginfo from DIR/ID (a file named after the build-id).
MODE "slow": the body in 64 KiB chunks, 20 ms apart, after a Content-Length;
MODE "hang": accepts the connection and never answers.
Every request path is written to LOG, one per line; LOG.ready appears
once the port is bound.  Sections are not served
(404), so a client falls back to the whole debuginfo.
"""
import http.server
import os
import sys
import time

PORT, DIR, MODE, LOG = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def do_GET(self):
        with open(LOG, "a") as log:
            log.write(self.path + "\n")
        if MODE == "hang":
            time.sleep(3600)
            return
        parts = self.path.split("/")
        # ['', 'buildid', ID, 'debuginfo']
        path = os.path.join(DIR, parts[2]) if len(parts) == 4 else ""
        if parts[1:2] != ["buildid"] or parts[3:] != ["debuginfo"] or not os.path.isfile(path):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        with open(path, "rb") as f:
            data = f.read()
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        for i in range(0, len(data), 65536):
            self.wfile.write(data[i:i + 65536])
            self.wfile.flush()
            time.sleep(0.02)


http.server.ThreadingHTTPServer.daemon_threads = True
server = http.server.ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
with open(LOG + ".ready", "w"):
    pass
server.serve_forever()
