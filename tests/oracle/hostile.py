#!/usr/bin/env python3
"""Misbehaving HTTP and S3-like servers for tests/cli/remote_hostile.rs
(python3's standard library only). Each listens on a free 127.0.0.1 port
and prints `listening on 127.0.0.1:PORT` on stdout; the tests kill it by PID.
LOG, where a mode takes one, gets one line per request: the method, the
path with its query, then each header as `name: value` on its own line,
then an empty line.

  hostile.py error-body                HEAD: 200, 100 bytes; GET: 400 whose body (and an S3
                                       <Message>) hold ESC]0;title BEL, ESC[2J and U+202E
  hostile.py redirect LOG              every request: 307 to the same path (no query) on a second port
                                       (`localhost`, not 127.0.0.1: another origin) whose server
                                       logs it to LOG and answers 404
  hostile.py metadata                  every request: 307 to http://169.254.169.254/latest/meta-data/
  hostile.py head405 FILE              HEAD: 405; GET: FILE, honouring Range
  hostile.py trickle FILE SECONDS      HEAD: FILE's size; GET (Range honoured): one byte every SECONDS s
  hostile.py s3 DIR LOG [BADKEY...]    an S3 bucket `b` (path style) holding DIR's files and,
                                       in its listings, the keys BADKEY (\\xNN escapes allowed);
                                       GET/HEAD of objects honour Range; a PUT (one part) stores
                                       an object; LOG as above
  hostile.py s3-endless PERPAGE [PAGES]  an S3 bucket `b` whose listing never ends (or ends
                                       after PAGES pages): each page PERPAGE new keys and a
                                       next continuation token
  hostile.py s3-empty new|same         an S3 bucket `b` whose listing pages hold no key and say
                                       IsTruncated with a token: a new one each page, or the same
  hostile.py s3-error                  every request: 403 with an S3 error whose <Message>
                                       holds ESC]0;title BEL and ESC[2J
"""
import http.server
import os
import re
import socketserver
import sys
import threading
import time
import urllib.parse
from xml.sax.saxutils import escape as xml_escape

EVIL = "\x1b]0;pwned\x07\x1b[2J\u202eevil"
CONTROL = re.compile("[\x00-\x1f]")


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def listen(handler, port=0, host="127.0.0.1"):
    server = Server((host, port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class Base(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    log_file = None
    lock = threading.Lock()

    def log_message(self, *args):
        pass

    def log_request_line(self):
        if self.log_file:
            with self.lock, open(self.log_file, "a", encoding="utf-8", errors="replace") as f:
                f.write(f"{self.command} {self.path}\n")
                for k, v in self.headers.items():
                    f.write(f"{k}: {v}\n")
                f.write("\n")

    def answer(self, status, body=b"", headers=(), head=False):
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head and body:
            self.wfile.write(body)

    def drain(self):
        n = int(self.headers.get("Content-Length") or 0)
        if n:
            self.rfile.read(n)


def ranged(handler, data, head=False, etag='"v1"'):
    """Answers a GET or HEAD of `data`, honouring one Range."""
    size = len(data)
    start, end, partial = 0, size, False
    rng = handler.headers.get("Range")
    if rng and rng.startswith("bytes=") and not head:
        first, _, last = rng[6:].partition("-")
        if first == "":
            start = max(0, size - int(last))
        else:
            start = int(first)
            if last:
                end = min(size, int(last) + 1)
        if start >= size:
            handler.answer(416, headers=[("Content-Range", f"bytes */{size}")])
            return
        partial = True
    headers = [("Accept-Ranges", "bytes"), ("ETag", etag), ("Last-Modified", "Wed, 25 Nov 2026 10:00:00 GMT")]
    if partial:
        headers.append(("Content-Range", f"bytes {start}-{end - 1}/{size}"))
    handler.answer(206 if partial else 200, data[start:end], headers, head)


def error_body():
    body = (
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>InvalidRequest</Code>"
        f"<Message>{xml_escape(EVIL)}</Message></Error>"
    ).encode()

    class H(Base):
        def do_HEAD(self):
            self.answer(200, b"x" * 100, [("ETag", '"v1"')], head=True)

        def do_GET(self):
            self.answer(400, body, [("Content-Type", "application/xml")])

    return listen(H)


def redirect(log):
    class Catch(Base):
        log_file = log

        def do_any(self):
            self.log_request_line()
            self.drain()
            self.answer(404)

        do_GET = do_HEAD = do_PUT = do_POST = do_DELETE = do_any

    catcher = listen(Catch)
    target = catcher.server_address[1]

    class H(Base):
        def do_any(self):
            self.drain()
            # The query (a presigned URL's signature) is not passed on.
            path = self.path.split("?", 1)[0]
            self.answer(307, headers=[("Location", f"http://localhost:{target}{path}")])

        do_GET = do_HEAD = do_PUT = do_POST = do_DELETE = do_any

    return listen(H)


def metadata():
    class H(Base):
        def do_any(self):
            self.drain()
            self.answer(307, headers=[("Location", "http://169.254.169.254/latest/meta-data/iam/")])

        do_GET = do_HEAD = do_PUT = do_POST = do_DELETE = do_any

    return listen(H)


def head405(path):
    data = open(path, "rb").read()

    class H(Base):
        def do_HEAD(self):
            self.answer(405, headers=[("Allow", "GET")], head=True)

        def do_GET(self):
            ranged(self, data)

    return listen(H)


def trickle(path, seconds):
    data = open(path, "rb").read()

    class H(Base):
        def do_HEAD(self):
            self.answer(200, data, [("ETag", '"v1"'), ("Accept-Ranges", "bytes")], head=True)

        def do_GET(self):
            start, end = 0, len(data)
            rng = self.headers.get("Range", "")
            if rng.startswith("bytes="):
                first, _, last = rng[6:].partition("-")
                start = int(first)
                end = min(end, int(last) + 1) if last else end
            self.send_response(206 if rng else 200)
            self.send_header("Content-Length", str(end - start))
            if rng:
                self.send_header("Content-Range", f"bytes {start}-{end - 1}/{len(data)}")
            self.send_header("ETag", '"v1"')
            self.end_headers()
            try:
                for b in data[start:end]:
                    self.wfile.write(bytes([b]))
                    self.wfile.flush()
                    time.sleep(seconds)
            except OSError:
                pass

    return listen(H)


def list_page(keys, prefixes, token=None):
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult><Name>b</Name>']
    out.append(f"<KeyCount>{len(keys)}</KeyCount><IsTruncated>{'true' if token else 'false'}</IsTruncated>")
    if token:
        out.append(f"<NextContinuationToken>{token}</NextContinuationToken>")
    for key, size in keys:
        # XML 1.0 has no raw control characters: a character reference.
        # (One regex pass: escaping character by character made a listing
        # of a million keys take most of a test's 16 s.)
        k = CONTROL.sub(lambda m: f"&#{ord(m.group())};", xml_escape(key))
        out.append(
            f"<Contents><Key>{k}</Key><LastModified>2026-11-25T10:00:00.000Z</LastModified>"
            f"<ETag>\"v1\"</ETag><Size>{size}</Size><StorageClass>STANDARD</StorageClass></Contents>"
        )
    for p in prefixes:
        out.append(f"<CommonPrefixes><Prefix>{xml_escape(p)}</Prefix></CommonPrefixes>")
    out.append("</ListBucketResult>")
    return "".join(out).encode()


def s3(root, log, bad):
    files = {}
    for dirpath, _, names in os.walk(root):
        for n in names:
            full = os.path.join(dirpath, n)
            files[os.path.relpath(full, root)] = open(full, "rb").read()
    bad = [k.encode("latin-1").decode("unicode_escape") for k in bad]

    class H(Base):
        log_file = log

        def route(self):
            self.log_request_line()
            url = urllib.parse.urlsplit(self.path)
            parts = url.path.lstrip("/").split("/", 1)
            key = urllib.parse.unquote(parts[1]) if len(parts) > 1 else ""
            return parts[0], key, urllib.parse.parse_qs(url.query, keep_blank_values=True)

        def do_HEAD(self):
            bucket, key, _ = self.route()
            if bucket != "b":
                self.answer(404, head=True)
            elif key == "":
                self.answer(200, head=True)
            elif key in files:
                ranged(self, files[key], head=True)
            else:
                self.answer(404, head=True)

        def do_GET(self):
            bucket, key, query = self.route()
            if bucket != "b":
                body = b"<Error><Code>NoSuchBucket</Code><Message>The specified bucket does not exist</Message></Error>"
                self.answer(404, body)
                return
            if key == "" and "list-type" in query:
                prefix = query.get("prefix", [""])[0]
                delimiter = query.get("delimiter", [""])[0]
                after = query.get("start-after", [""])[0]
                token = query.get("continuation-token", [""])[0]
                if token:
                    after = bytes.fromhex(token).decode()
                rolled = after if token and delimiter and after.endswith(delimiter) else None
                max_keys = int(query.get("max-keys", ["1000"])[0])
                entries = sorted([(k, len(v)) for k, v in files.items()] + [(k, 0) for k in bad])
                keys, prefixes = [], set()
                for k, size in entries:
                    if not k.startswith(prefix) or (after and k <= after):
                        continue
                    # After a token naming a common prefix, nothing under it
                    # (`sl//` then `sl//ash.tfrecord` gave `sl//` again, forever).
                    if rolled and k.startswith(rolled):
                        continue
                    rest = k[len(prefix):]
                    if delimiter and delimiter in rest:
                        prefixes.add(prefix + rest.split(delimiter, 1)[0] + delimiter)
                    else:
                        keys.append((k, size))
                # Keys and common prefixes in one order, max-keys of them
                # per page; the token is the last one's name, in hex.
                merged = sorted([(k, size) for k, size in keys] + [(p, None) for p in prefixes])
                page, rest = merged[:max_keys], merged[max_keys:]
                token = page[-1][0].encode().hex() if rest else None
                self.answer(
                    200,
                    list_page([e for e in page if e[1] is not None], [p for p, v in page if v is None], token),
                )
                return
            if key in files:
                ranged(self, files[key])
            else:
                body = b"<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>"
                self.answer(404, body)

        def do_PUT(self):
            bucket, key, _ = self.route()
            n = int(self.headers.get("Content-Length") or 0)
            data = self.rfile.read(n)
            if bucket != "b" or not key:
                self.answer(404)
                return
            files[key] = data
            self.answer(200, headers=[("ETag", '"v2"')])

    return listen(H)


def s3_endless(per_page, pages):
    # Page N lists part-N-I.tfrecord for I < PERPAGE and, unless it is the
    # last, the token N+1. The page's XML is made once with placeholders
    # for N and N+1, put in per request (building 10,000 keys a page took
    # most of the server's CPU over a listing of a million).
    keys = [(f"part-@PAGE@-{i:06d}.tfrecord", 10) for i in range(per_page)]
    more, last_page = list_page(keys, [], "@NEXT@"), list_page(keys, [], None)

    class H(Base):
        def do_HEAD(self):
            self.answer(404, head=True)

        def do_GET(self):
            query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
            page = int(query.get("continuation-token", ["0"])[0])
            last = pages is not None and page + 1 >= pages
            body = (last_page if last else more).replace(b"@PAGE@", b"%09d" % page)
            self.answer(200, body.replace(b"@NEXT@", b"%d" % (page + 1)))

    return listen(H)


def s3_empty(same):
    class H(Base):
        def do_HEAD(self):
            self.answer(404, head=True)

        def do_GET(self):
            query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
            page = int(query.get("continuation-token", ["0"])[0])
            self.answer(200, list_page([], [], "7" if same else str(page + 1)))

    return listen(H)


def s3_error():
    body = (
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>AccessDenied</Code>"
        f"<Message>{xml_escape(EVIL)}</Message><RequestId>1</RequestId></Error>"
    ).encode()

    class H(Base):
        def do_any(self):
            self.drain()
            self.answer(403, body, [("Content-Type", "application/xml")], self.command == "HEAD")

        do_GET = do_HEAD = do_PUT = do_POST = do_DELETE = do_any

    return listen(H)


def main():
    mode, args = sys.argv[1], sys.argv[2:]
    if mode == "error-body":
        server = error_body()
    elif mode == "redirect":
        server = redirect(args[0])
    elif mode == "metadata":
        server = metadata()
    elif mode == "head405":
        server = head405(args[0])
    elif mode == "trickle":
        server = trickle(args[0], float(args[1]))
    elif mode == "s3":
        server = s3(args[0], args[1], args[2:])
    elif mode == "s3-endless":
        server = s3_endless(int(args[0]), int(args[1]) if len(args) > 1 else None)
    elif mode == "s3-empty":
        server = s3_empty(args[0] == "same")
    elif mode == "s3-error":
        server = s3_error()
    else:
        sys.exit(f"unknown mode {mode}")
    print(f"listening on 127.0.0.1:{server.server_address[1]}", flush=True)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
