#!/usr/bin/env python3
"""A hostile debuginfod on loopback, for the tests of what a host takes from one.

hostile-debuginfod.py PORT DIR LOG
GET /buildid/ID/section/.perf.probes serves, from DIR:
  ID.section   its bytes as they are, with a Content-Length;
  ID.huge      "HOW MIB": a section of MIB MiB ("perf-probes 1 ID" and
               comment-like lines), HOW being
                 length    with its true Content-Length,
                 nolength  with none (the end is the connection's),
                 gzip      gzip-compressed (Content-Encoding), with the
                           Content-Length of the compressed body;
GET /buildid/ID/debuginfo serves DIR/ID.debuginfo.  Anything else is a 404.
Every request path is written to LOG, one per line, with the bytes sent
("PATH BYTES"); LOG.ready appears once the port is bound.  A client that
closes the connection early ends the body (no error).
"""
import http.server
import os
import sys
import zlib

PORT, DIR, LOG = int(sys.argv[1]), sys.argv[2], sys.argv[3]
CHUNK = 1 << 16


def huge_chunks(bid, mib):
    yield ("perf-probes 1 %s\n" % bid).encode()
    line = b"#" + b"x" * 62 + b"\n"
    block = line * (CHUNK // len(line))
    for _ in range((mib << 20) // len(block)):
        yield block


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def log(self, sent):
        with open(LOG, "a") as log:
            log.write("%s %d\n" % (self.path, sent))

    def send(self, status, headers, chunks):
        sent = 0
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        try:
            for c in chunks:
                self.wfile.write(c)
                sent += len(c)
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.log(sent)

    def do_GET(self):
        parts = self.path.split("/")
        bid = parts[2] if len(parts) > 2 else ""
        if parts[1:2] == ["buildid"] and parts[3:] == ["section", ".perf.probes"]:
            plain = os.path.join(DIR, bid + ".section")
            huge = os.path.join(DIR, bid + ".huge")
            if os.path.isfile(plain):
                with open(plain, "rb") as f:
                    data = f.read()
                self.send(200, [("Content-Length", str(len(data)))], [data])
                return
            if os.path.isfile(huge):
                with open(huge) as f:
                    how, mib = f.read().split()
                mib = int(mib)
                if how == "length":
                    size = sum(len(c) for c in huge_chunks(bid, mib))
                    self.send(200, [("Content-Length", str(size))], huge_chunks(bid, mib))
                elif how == "nolength":
                    self.close_connection = True
                    self.send(200, [("Connection", "close")], huge_chunks(bid, mib))
                else:
                    z = zlib.compressobj(9, zlib.DEFLATED, 31)
                    body = b"".join(z.compress(c) for c in huge_chunks(bid, mib)) + z.flush()
                    self.send(200, [("Content-Encoding", "gzip"),
                                    ("Content-Length", str(len(body)))],
                              [body[i:i + CHUNK] for i in range(0, len(body), CHUNK)])
                return
        if parts[1:2] == ["buildid"] and parts[3:] == ["debuginfo"]:
            path = os.path.join(DIR, bid + ".debuginfo")
            if os.path.isfile(path):
                with open(path, "rb") as f:
                    data = f.read()
                self.send(200, [("Content-Length", str(len(data)))], [data])
                return
        self.send(404, [("Content-Length", "0")], [])


http.server.ThreadingHTTPServer.daemon_threads = True
server = http.server.ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
with open(LOG + ".ready", "w"):
    pass
server.serve_forever()
