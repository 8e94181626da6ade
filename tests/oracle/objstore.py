#!/usr/bin/env python3
"""Helpers for tests/cli/remote.rs: a Range-honouring HTTP server that
counts the bytes it sends, and object uploads to moto (S3), azurite (Azure)
and fake-gcs-server (GCS) on 127.0.0.1.

  objstore.py http DIR COUNTFILE [CUT]
                                      serve DIR; print the port; COUNTFILE holds the bytes sent
                                      (DIR/signed/*: only GET with the query sig=ok, as a presigned URL;
                                      with CUT, a GET of a file under DIR/cut/ drops the connection
                                      instead of sending the byte at offset CUT: a connection cut
                                      mid-object, on every try and every resumed range)
  objstore.py s3-put URL BUCKET KEY FILE [ACL]    (creates the bucket)
  objstore.py s3-get URL BUCKET KEY FILE
  objstore.py s3-uploads URL BUCKET   print the number of open multipart uploads
  objstore.py az-put URL CONTAINER KEY FILE   (creates the container)
  objstore.py az-blocks URL CONTAINER KEY     print the blob's block count (staged too), or none
  objstore.py gcs-put URL BUCKET KEY FILE     (creates the bucket)
  objstore.py slow-proxy PORT DELAY PATTERN SEENFILE
                                      a proxy to PORT holding back answers to requests
                                      matching PATTERN for DELAY s; prints its port
  objstore.py batch                   the commands above but http and slow-proxy, one per
                                      line of stdin (a JSON array: the command, its
                                      arguments); answers each with a JSON line
                                      {"ok": bool, "out": what it printed, "error": ...}:
                                      one process (boto3 imported once) for a test's calls
"""
import base64
import email.utils
import hashlib
import functools
import hmac
import http.server
import io
import json
import os
import socket
import sys
import threading
import traceback
import urllib.request


def serve_http(root, count_file, cut=None):
    cut = int(cut) if cut is not None else None
    sent = [0]
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # TCP_NODELAY, as object stores' front ends set it (nginx's
        # tcp_nodelay is on by default). Without it the body's first write
        # waits behind the headers' (Nagle) for the client's delayed ACK,
        # up to 40 ms, on every request after the first on a connection:
        # a stall of this server alone, paid by any client that sends a
        # HEAD or several ranged GETs, never by curl's single GET.
        disable_nagle_algorithm = True

        def log_message(self, *args):
            pass

        def _file(self, head=False):
            # Files under signed/ act as S3 presigned GET URLs do: only a
            # GET carrying the query "sig=ok" is served (a HEAD is refused).
            name, _, query = self.path.partition("?")
            if name.startswith("/signed/") and (head or "sig=ok" not in query.split("&")):
                self.send_response(403)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            path = os.path.join(root, name.lstrip("/"))
            if not os.path.isfile(path):
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            return path

        def _headers(self, path, size, start, end, partial):
            st = os.stat(path)
            self.send_response(206 if partial else 200)
            self.send_header("Content-Length", str(end - start))
            if partial:
                self.send_header("Content-Range", f"bytes {start}-{end - 1}/{size}")
            self.send_header("Accept-Ranges", "bytes")
            self.send_header("ETag", f'"{st.st_mtime_ns:x}-{size:x}"')
            self.send_header("Last-Modified", email.utils.formatdate(st.st_mtime, usegmt=True))
            self.end_headers()

        def do_HEAD(self):
            path = self._file(head=True)
            if path:
                size = os.path.getsize(path)
                self._headers(path, size, 0, size, False)

        def do_GET(self):
            path = self._file()
            if not path:
                return
            size = os.path.getsize(path)
            start, end, partial = 0, size, False
            rng = self.headers.get("Range")
            if rng and rng.startswith("bytes="):
                a, _, b = rng[6:].split(",")[0].partition("-")
                if a:
                    start = int(a)
                    end = min(size, int(b) + 1) if b else size
                else:
                    start = max(0, size - int(b))
                partial = True
                if start >= size:
                    self.send_response(416)
                    self.send_header("Content-Range", f"bytes */{size}")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
            self._headers(path, size, start, end, partial)
            # The body stops before offset `cut` when the file is under cut/.
            budget = end - start
            if cut is not None and self.path.startswith("/cut/"):
                budget = min(budget, max(0, cut - start))
            with open(path, "rb") as f:
                f.seek(start)
                left = end - start
                while left > 0:
                    if budget <= 0:
                        # Content-Length promised more: drop the connection.
                        self.close_connection = True
                        try:
                            self.wfile.flush()
                            self.connection.shutdown(socket.SHUT_RDWR)
                        except OSError:
                            pass
                        return
                    chunk = f.read(min(left, budget, 1 << 20))
                    if not chunk:
                        break
                    try:
                        self.wfile.write(chunk)
                    except OSError:
                        return
                    left -= len(chunk)
                    budget -= len(chunk)
                    with lock:
                        sent[0] += len(chunk)
                        with open(count_file, "w") as out:
                            out.write(str(sent[0]))

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(count_file, "w") as out:
        out.write("0")
    print(server.server_address[1], flush=True)
    server.serve_forever()


@functools.lru_cache(maxsize=None)
def s3(url):
    import boto3

    return boto3.client(
        "s3", endpoint_url=url, region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="x"
    )


def s3_put(url, bucket, key, file, acl="private"):
    c = s3(url)
    try:
        c.create_bucket(Bucket=bucket)
    except Exception:
        pass
    with open(file, "rb") as f:
        c.put_object(Bucket=bucket, Key=key, Body=f.read(), ACL=acl)


def s3_get(url, bucket, key, file):
    with open(file, "wb") as f:
        f.write(s3(url).get_object(Bucket=bucket, Key=key)["Body"].read())


def s3_uploads(url, bucket):
    print(len(s3(url).list_multipart_uploads(Bucket=bucket).get("Uploads", [])))


AZ_ACCOUNT = "devstoreaccount1"
AZ_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="


def az_signed(url, path, query, body, extra, method="PUT"):
    """A request to azurite signed with SharedKey (its well-known account)."""
    date = email.utils.formatdate(usegmt=True)
    headers = {"x-ms-date": date, "x-ms-version": "2021-08-06", **extra}
    length = str(len(body)) if body else ""
    canon_headers = "".join(f"{k}:{headers[k]}\n" for k in sorted(headers))
    resource = f"/{AZ_ACCOUNT}/{AZ_ACCOUNT}/{path}" + "".join(f"\n{k}:{v}" for k, v in sorted(query.items()))
    ctype = "application/octet-stream" if method == "PUT" else ""
    to_sign = "\n".join([method, "", "", length, "", ctype, "", "", "", "", "", ""]) + "\n" + canon_headers + resource
    sig = base64.b64encode(hmac.new(base64.b64decode(AZ_KEY), to_sign.encode(), hashlib.sha256).digest()).decode()
    qs = "&".join(f"{k}={v}" for k, v in query.items())
    req = urllib.request.Request(
        f"{url}/{AZ_ACCOUNT}/{path}" + (f"?{qs}" if qs else ""),
        data=(body or b"") if method == "PUT" else None,
        method=method,
    )
    if ctype:
        req.add_header("Content-Type", ctype)
    for k, v in headers.items():
        req.add_header(k, v)
    req.add_header("Authorization", f"SharedKey {AZ_ACCOUNT}:{sig}")
    return urllib.request.urlopen(req).read()


def az_request(url, path, query, body, extra):
    try:
        az_signed(url, path, query, body, extra)
    except urllib.error.HTTPError as e:
        if e.code != 409:  # the container exists
            raise


def az_blocks(url, container, key):
    """Prints the number of blocks (committed and staged) a blob has, or
    "none" when there is no blob and no staged block."""
    import re

    try:
        xml = az_signed(url, f"{container}/{key}", {"blocklisttype": "all", "comp": "blocklist"}, b"", {}, "GET")
    except urllib.error.HTTPError as e:
        if e.code == 404:
            print("none")
            return
        raise
    print(len(re.findall(rb"<Block>", xml)))


def az_put(url, container, key, file):
    az_request(url, container, {"restype": "container"}, b"", {})
    with open(file, "rb") as f:
        az_request(url, f"{container}/{key}", {}, f.read(), {"x-ms-blob-type": "BlockBlob"})


def gcs_put(url, bucket, key, file):
    import json
    import urllib.parse

    req = urllib.request.Request(
        f"{url}/storage/v1/b", data=json.dumps({"name": bucket}).encode(), method="POST",
        headers={"Content-Type": "application/json"},
    )
    try:
        urllib.request.urlopen(req).read()
    except urllib.error.HTTPError as e:
        if e.code != 409:
            raise
    with open(file, "rb") as f:
        body = f.read()
    name = urllib.parse.quote(key, safe="")
    req = urllib.request.Request(
        f"{url}/upload/storage/v1/b/{bucket}/o?uploadType=media&name={name}", data=body, method="POST",
        headers={"Content-Type": "application/octet-stream"},
    )
    urllib.request.urlopen(req).read()


def slow_proxy(target_port, delay, pattern, seen_file):
    """A TCP proxy to 127.0.0.1:TARGET_PORT that holds back the answer to a
    request whose request line contains PATTERN for DELAY seconds (the
    request itself goes through at once, so the server acts on it), and
    writes that request line to SEEN_FILE when it passes. Prints its port."""
    import socket

    delay, pattern = float(delay), pattern.encode()

    def pump(src, dst, mark, held):
        # mark: set when a request matching PATTERN passes (client to
        # server); held: the answer (server to client) waits while set.
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                if mark is not None and pattern in data.split(b"\r\n", 1)[0]:
                    mark.set()
                    with open(seen_file, "ab") as f:
                        f.write(data.split(b"\r\n", 1)[0] + b"\n")
                if held is not None and held.is_set():
                    threading.Event().wait(delay)
                    held.clear()
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (src, dst):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    print(listener.getsockname()[1], flush=True)
    while True:
        client, _ = listener.accept()
        server = socket.create_connection(("127.0.0.1", int(target_port)))
        held = threading.Event()
        threading.Thread(target=pump, args=(client, server, held, None), daemon=True).start()
        threading.Thread(target=pump, args=(server, client, None, held), daemon=True).start()


CALLS = {"s3-put": s3_put, "s3-uploads": s3_uploads, "s3-get": s3_get, "az-put": az_put, "gcs-put": gcs_put,
         "az-blocks": az_blocks}


def batch():
    """Runs the commands read from stdin, one JSON array a line, each
    answered by one JSON line on stdout; ends at the end of stdin."""
    answer = sys.stdout
    for line in sys.stdin:
        cmd, *args = json.loads(line)
        out = io.StringIO()
        try:
            sys.stdout = out
            CALLS[cmd](*args)
            reply = {"ok": True, "out": out.getvalue()}
        except Exception as e:  # the test fails with it
            reply = {"ok": False, "out": out.getvalue(), "error": traceback.format_exc()}
        finally:
            sys.stdout = answer
        answer.write(json.dumps(reply) + "\n")
        answer.flush()


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    {"http": serve_http, "slow-proxy": slow_proxy, "batch": batch, **CALLS}[cmd](*args)
