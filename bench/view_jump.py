#!/usr/bin/env python3
"""`tfr view`'s jump, timed from the command's start: starts `TFR view
INPUTS...`, reads the URL it prints, asks for the last record
(/api/records?offset=N-1&limit=1) and its picture, checks the answer, and
stops the server (SIGINT). Prints the seconds from start to the answer.

    python3 bench/view_jump.py TFR N INPUT...
"""
import json
import signal
import subprocess
import sys
import time
import urllib.request


def main():
    tfr, n, inputs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    start = time.perf_counter()
    p = subprocess.Popen([tfr, "view", *inputs], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        url = p.stdout.readline().strip()
        if not url.startswith("http://"):
            sys.exit(f"view_jump: no URL from tfr view: {url!r}")
        with urllib.request.urlopen(f"{url}api/records?offset={n - 1}&limit=1", timeout=60) as r:
            page = json.load(r)
        rec = page["records"][0]
        if rec["n"] != n - 1:
            sys.exit(f"view_jump: asked for record {n - 1}, got {rec['n']}")
        images = rec.get("images", {})
        first = next(iter(images.values()))[0] if images else None
        if first:
            with urllib.request.urlopen(url.rstrip("/") + first, timeout=60) as r:
                if not r.read():
                    sys.exit("view_jump: an empty picture")
        took = time.perf_counter() - start
    finally:
        p.send_signal(signal.SIGINT)
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
    print(f"{took:.3f}")


if __name__ == "__main__":
    main()
