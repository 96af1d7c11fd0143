#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""Stand-ins on 127.0.0.1 for the services credentials come from (test_credentials.cpp).

    credential_servers.py start <dir>   serve in the background: moto's server (AWS STS) and a
                                        metadata stub; writes <dir>/sts, <dir>/metadata, <dir>/pids
    credential_servers.py stop <dir>

Run with the python of build/venv (scripts/python-venv.sh), whose moto_server is beside it.

The metadata stub serves, under a scenario named in the path's first segment:
  /container/<scenario>          the container credentials endpoint; the Authorization header
                                 must be "container-token"
  /imds/<scenario>/latest/...    IMDSv2: PUT api/token (with the TTL header) gives a token; the
                                 role's name and its credentials are given only for that token
  /sts/<scenario>                STS refusing: 403 AccessDenied, as STS writes it
  /log                           the requests so far, one "METHOD path" a line
Scenarios: good (credentials expiring in 15 minutes), malformed (not JSON), error500, norole
(IMDS: 404 for the role), v1only (IMDS: 403 for the token).
"""

import datetime
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def credentials_json(prefix, code=False):
    expiration = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(minutes=15)
    body = {
        "AccessKeyId": prefix + "AKID",
        "SecretAccessKey": prefix + "SECRET",
        "Token": prefix + "TOKEN",
        "Expiration": expiration.strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    if code:
        body = {"Code": "Success", "LastUpdated": "2024-01-01T00:00:00Z", "Type": "AWS-HMAC", **body}
    return json.dumps(body)


def serve_metadata(directory):
    lock = threading.Lock()
    log = []
    tokens = set()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def answer(self, status, body):
            data = body.encode()
            self.send_response(status)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def handle_any(self):
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                self.rfile.read(length)
            with lock:
                if self.path != "/log":
                    log.append(f"{self.command} {self.path}")
            parts = self.path.split("/")  # "", kind, scenario, rest...
            kind = parts[1] if len(parts) > 1 else ""
            scenario = parts[2] if len(parts) > 2 else ""
            rest = "/" + "/".join(parts[3:])
            if kind == "log":
                with lock:
                    return self.answer(200, "".join(line + "\n" for line in log))
            if kind == "container" and self.command == "GET":
                if self.headers.get("Authorization") != "container-token":
                    return self.answer(401, "no or wrong Authorization")
                if scenario == "good":
                    return self.answer(200, credentials_json("CONTAINER"))
                if scenario == "malformed":
                    return self.answer(200, "{not json")
                return self.answer(500, "internal error")
            if kind == "imds":
                if rest == "/latest/api/token" and self.command == "PUT":
                    if scenario == "v1only":
                        return self.answer(403, "forbidden")
                    if not self.headers.get("X-aws-ec2-metadata-token-ttl-seconds"):
                        return self.answer(400, "no TTL header")
                    with lock:
                        token = f"imds-token-{len(tokens) + 1}"
                        tokens.add(token)
                    return self.answer(200, token)
                if self.command != "GET":
                    return self.answer(405, "method not allowed")
                with lock:
                    valid = self.headers.get("X-aws-ec2-metadata-token") in tokens
                if not valid:
                    return self.answer(401, "no or wrong session token")
                if rest == "/latest/meta-data/iam/security-credentials/":
                    if scenario == "norole":
                        return self.answer(404, "not found")
                    if scenario == "error500":
                        return self.answer(500, "internal error")
                    return self.answer(200, "pksk-role")
                if rest == "/latest/meta-data/iam/security-credentials/pksk-role":
                    if scenario == "malformed":
                        return self.answer(200, '{"Code": "Success", "AccessKeyId": 5}')
                    return self.answer(200, credentials_json("IMDS", code=True))
            if kind == "sts":  # STS refusing: an ErrorResponse as STS writes it
                return self.answer(403, '<ErrorResponse xmlns="https://sts.amazonaws.com/doc/'
                                   '2011-06-15/"><Error><Type>Sender</Type><Code>AccessDenied'
                                   '</Code><Message>Not authorized to perform sts:AssumeRole &amp;'
                                   ' more</Message></Error><RequestId>1</RequestId>'
                                   '</ErrorResponse>')
            return self.answer(404, "not found")

        do_GET = handle_any
        do_PUT = handle_any
        do_POST = handle_any

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    write(directory, "metadata", f"http://127.0.0.1:{server.server_address[1]}")
    server.serve_forever()


def write(directory, name, text):
    with open(os.path.join(directory, name + ".tmp"), "w") as f:
        f.write(text + "\n")
    os.replace(os.path.join(directory, name + ".tmp"), os.path.join(directory, name))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(directory):
    os.makedirs(directory, exist_ok=True)
    for name in ("sts", "metadata", "pids"):
        if os.path.exists(os.path.join(directory, name)):
            os.remove(os.path.join(directory, name))
    log = open(os.path.join(directory, "log"), "w")
    moto = os.path.join(os.path.dirname(sys.executable), "moto_server")
    port = free_port()
    children = [
        subprocess.Popen([moto, "-H", "127.0.0.1", "-p", str(port)], stdout=log, stderr=log,
                         stdin=subprocess.DEVNULL, start_new_session=True),
        subprocess.Popen([sys.executable, __file__, "serve", directory], stdout=log, stderr=log,
                         stdin=subprocess.DEVNULL, start_new_session=True),
    ]
    write(directory, "pids", " ".join(str(c.pid) for c in children))
    for _ in range(600):
        if any(c.poll() is not None for c in children):
            print("a credential server exited:", open(os.path.join(directory, "log")).read())
            stop(directory)
            return 1
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            moto_up = True
        except OSError:
            moto_up = False
        if moto_up and os.path.exists(os.path.join(directory, "metadata")):
            write(directory, "sts", f"http://127.0.0.1:{port}")
            print(f"moto (STS) at http://127.0.0.1:{port}, metadata stub at",
                  open(os.path.join(directory, "metadata")).read().strip())
            return 0
        time.sleep(0.05)
    print("the credential servers did not listen within 30 s")
    stop(directory)
    return 1


def stop(directory):
    try:
        with open(os.path.join(directory, "pids")) as f:
            pids = [int(p) for p in f.read().split()]
    except (OSError, ValueError):
        return 0
    for pid in pids:
        try:
            os.kill(pid, signal.SIGTERM)
        except OSError:
            pass
    return 0


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "serve":
        serve_metadata(sys.argv[2])
    elif mode == "start":
        sys.exit(start(sys.argv[2]))
    elif mode == "stop":
        sys.exit(stop(sys.argv[2]))
    else:
        print(__doc__)
        sys.exit(2)
