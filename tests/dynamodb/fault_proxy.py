#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""A fault-injecting HTTP proxy on 127.0.0.1 in front of DynamoDB Local (tests/dynamodb).

    fault_proxy.py start <dir> <upstream endpoint file>   serve in the background; writes
                                                           <dir>/endpoint and <dir>/pid
    fault_proxy.py stop <dir>

Requests are numbered as they come, per plan; request n meets plan[n % len(plan)]. The plan is
named by the request's path: "/" is FAULTS, "/<name>" is PLANS[name] (an endpoint
"http://127.0.0.1:<port>/drop_every_second" meets that plan alone). The path is forwarded as
it is (DynamoDB Local answers on any path, and the signature covers it):
  pass         forwarded, answered
  throttle     answered 400 ThrottlingException, not forwarded
  error500     answered 500 InternalServerError, not forwarded
  drop_before  the connection is closed before forwarding: no answer
  drop_after   forwarded (DynamoDB applies it), then the connection is closed: no answer
  slow         forwarded, answered after 100 ms
  wan          forwarded, answered after 10 ms: a round trip to a distant region, for
               benchmarks of what overlaps requests (benchmarks/bench_fan_out.cpp)
  hold         forwarded, then no answer for 30 s (a server that hangs)
"""

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

FAULTS = ["pass", "throttle", "pass", "drop_after", "pass", "error500", "slow", "pass",
          "drop_before", "pass"]
PLANS = {
    # On a warm connection: the first request leaves it open, the second is applied and its
    # answer lost (the reproduction of a write applied twice by a silent resend).
    "drop_every_second": ["pass", "drop_after"],
    "hold": ["hold"],
    "pass_then_hold": ["pass", "hold"],
    "wan": ["wan"],
}


def serve(directory, upstream_file):
    with open(upstream_file) as f:
        upstream = urllib.parse.urlsplit(f.read().strip())
    counters = {}
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Headers and body go in two writes: with Nagle's algorithm the body waits for the
        # client's delayed ACK of the headers, 40 ms on Linux, on every answer.
        disable_nagle_algorithm = True

        def log_message(self, *args):
            pass

        def answer(self, status, body):
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/x-amz-json-1.0")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def drop(self):
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

        def forward(self, body):
            conn = http.client.HTTPConnection(upstream.hostname, upstream.port, timeout=30)
            headers = {k: v for k, v in self.headers.items() if k.lower() != "host"}
            conn.request("POST", self.path, body=body, headers=headers)
            response = conn.getresponse()
            return response.status, response.read(), response.getheader("Content-Type")

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            name = self.path.strip("/")
            plan = PLANS.get(name, FAULTS)
            with lock:
                n = counters.get(name, 0)
                fault = plan[n % len(plan)]
                counters[name] = n + 1
            if fault == "throttle":
                return self.answer(400, {
                    "__type": "com.amazonaws.dynamodb.v20120810#ThrottlingException",
                    "message": "Rate of requests exceeds the allowed throughput (injected)"})
            if fault == "error500":
                return self.answer(500, {
                    "__type": "com.amazonaws.dynamodb.v20120810#InternalServerError",
                    "message": "injected"})
            if fault == "drop_before":
                return self.drop()
            status, data, content_type = self.forward(body)
            if fault == "drop_after":
                return self.drop()
            if fault == "slow":
                time.sleep(0.1)
            if fault == "wan":
                time.sleep(0.01)
            if fault == "hold":
                time.sleep(30)
                return self.drop()
            self.send_response(status)
            self.send_header("Content-Type", content_type or "application/x-amz-json-1.0")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    with open(os.path.join(directory, "endpoint.tmp"), "w") as f:
        f.write(f"http://127.0.0.1:{server.server_address[1]}\n")
    os.replace(os.path.join(directory, "endpoint.tmp"), os.path.join(directory, "endpoint"))
    server.serve_forever()


def start(directory, upstream_file):
    os.makedirs(directory, exist_ok=True)
    for name in ("endpoint", "pid"):
        if os.path.exists(os.path.join(directory, name)):
            os.remove(os.path.join(directory, name))
    log = open(os.path.join(directory, "log"), "w")
    child = subprocess.Popen([sys.executable, __file__, "serve", directory, upstream_file],
                             stdout=log, stderr=log, stdin=subprocess.DEVNULL,
                             start_new_session=True)
    with open(os.path.join(directory, "pid"), "w") as f:
        f.write(str(child.pid))
    for _ in range(300):
        if os.path.exists(os.path.join(directory, "endpoint")):
            with open(os.path.join(directory, "endpoint")) as f:
                print(f"fault proxy (pid {child.pid}) at {f.read().strip()}")
            return 0
        if child.poll() is not None:
            print("the fault proxy exited:", open(os.path.join(directory, "log")).read())
            return 1
        time.sleep(0.05)
    child.kill()
    print("the fault proxy did not listen within 15 s")
    return 1


def stop(directory):
    try:
        with open(os.path.join(directory, "pid")) as f:
            os.kill(int(f.read()), signal.SIGTERM)
    except (OSError, ValueError):
        pass
    return 0


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "serve":
        serve(sys.argv[2], sys.argv[3])
    elif mode == "start":
        sys.exit(start(sys.argv[2], sys.argv[3]))
    elif mode == "stop":
        sys.exit(stop(sys.argv[2]))
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
