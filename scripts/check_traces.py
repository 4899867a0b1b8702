#!/usr/bin/env python3
"""Traces as a collector receives them: an OTLP/HTTP receiver in this process (protobuf, decoded
with Python's `opentelemetry-proto`), a real `actionable serve` (SQLite) with --otel-endpoint,
and an upstream endpoint in this process.

  A tap that carries a `traceparent` continues its trace: the request's server span is a child
  of the caller's span, `actionable.accept` of the request's, `actionable.commit` of the accept,
  and each `actionable.delivery.attempt` of the accept (read back from storage), all in the
  caller's trace; the upstream receives the attempt's span as its `traceparent`. A tap without
  one starts a trace of its own, the same shape. An endpoint that fails once gets two attempts
  (503, then delivered), both children of the one accept. Without --otel-endpoint nothing is
  traced and no `traceparent` is sent on.

Usage: check_traces.py ACTIONABLE_BINARY
Waits are on events (the server's log, the upstream's requests, the spans received), never on
fixed sleeps.
"""
import gzip
import http.server
import json
import os
import queue
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest, ExportTraceServiceResponse
from opentelemetry.proto.trace.v1.trace_pb2 import Span

from checks import check, finish, free_port

ADMIN = "operator-token-0123456789abcdefghijkl"
SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"


class Collector(http.server.BaseHTTPRequestHandler):
    """An OTLP/HTTP traces receiver: every span of every export goes to `spans`."""
    spans = queue.Queue()
    paths = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        Collector.paths.append((self.path, self.headers.get("Content-Type")))
        request = ExportTraceServiceRequest()
        request.ParseFromString(body)
        for resource in request.resource_spans:
            service = next((a.value.string_value for a in resource.resource.attributes if a.key == "service.name"), None)
            for scope in resource.scope_spans:
                for span in scope.spans:
                    Collector.spans.put((service, span))
        answer = ExportTraceServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass


class Upstream(http.server.BaseHTTPRequestHandler):
    """204, except /flaky's first call (503); each request's headers go to its path's queue."""
    inboxes = {}
    calls = {}
    lock = threading.Lock()

    @classmethod
    def inbox(cls, path):
        with cls.lock:
            return cls.inboxes.setdefault(path, queue.Queue())

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with Upstream.lock:
            Upstream.calls[self.path] = Upstream.calls.get(self.path, 0) + 1
            first = Upstream.calls[self.path] == 1
        self.send_response(503 if self.path == "/flaky" and first else 204)
        self.send_header("Content-Length", "0")
        self.end_headers()
        headers = {name.lower(): value for name, value in self.headers.items()}
        headers["traceparent-count"] = len(self.headers.get_all("traceparent") or [])
        Upstream.inbox(self.path).put(headers)

    def log_message(self, *args):
        pass


def attribute(span, key):
    for item in span.attributes:
        if item.key == key:
            value = item.value
            return value.string_value if value.HasField("string_value") else value.int_value
    return None


class Spans:
    """The spans received so far, kept by name; `wait` reads on until a condition holds."""

    def __init__(self):
        self.received = []

    def wait(self, condition, what, timeout=60):
        deadline = time.monotonic() + timeout
        while True:
            found = condition(self.received)
            if found:
                return found
            left = deadline - time.monotonic()
            if left <= 0:
                names = sorted({span.name for _, span in self.received})
                check(False, f"{what} (spans received: {names})")
                return None
            try:
                self.received.append(Collector.spans.get(timeout=left))
            except queue.Empty:
                pass

    def of_response(self, response_id, name):
        return [span for _, span in self.received if span.name == name and attribute(span, "actionable.response_id") == response_id]


def serve(binary, work, port, extra, env=None):
    server = subprocess.Popen(
        [binary, "serve", "--port", str(port), "--admin-token", ADMIN, "--forward-secret", SECRET,
         "--retry-first-delay", "1s"] + extra,
        cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    for line in server.stdout:
        if "accepting action responses" in line:
            break
    # The rest of the log is read on, so the server never blocks on a full pipe.
    threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()
    return server


def main():
    binary = os.path.abspath(sys.argv[1])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    work = tempfile.mkdtemp(prefix="actionable-traces-")
    shutil.copytree(os.path.join(root, "Categories"), os.path.join(work, "Categories"))
    collector = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Collector)
    upstream = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
    for server in (collector, upstream):
        threading.Thread(target=server.serve_forever, daemon=True).start()
    hook = f"http://127.0.0.1:{upstream.server_address[1]}"
    # Spans are exported in batches; a short delay keeps the check quick (OTEL_* variables apply).
    env = dict(os.environ, OTEL_BSP_SCHEDULE_DELAY="50")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    traced = serve(binary, work, port, ["--otel-endpoint", f"http://127.0.0.1:{collector.server_address[1]}"], env)
    spans = Spans()

    def api(method, path, body):
        request = urllib.request.Request(
            base + path, method=method, data=json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {ADMIN}", "Content-Type": "application/json"})
        with urllib.request.urlopen(request) as response:
            return response.status

    def tap(action, traceparent=None):
        notification = json.loads(subprocess.run(
            [binary, "payload", "invite", "--body", "Dinner?", "--set", "inviteId=42", "--user", "alice"],
            cwd=work, capture_output=True, text=True, check=True).stdout)
        body = {"category": "invite", "action": action, "actionToken": notification["actionToken"],
                "payload": {"inviteId": notification["inviteId"]}}
        headers = {"Content-Type": "application/json"}
        if traceparent:
            headers["traceparent"] = traceparent
        request = urllib.request.Request(base + "/v1/actions", method="POST", data=json.dumps(body).encode(), headers=headers)
        with urllib.request.urlopen(request) as response:
            check(response.status == 202, f"a tap ({action}) is accepted")
            return json.loads(response.read())["id"]

    def chain(response_id, attempts, what):
        """The accept of `response_id`, its commit and `attempts` attempts, once all arrived."""
        found = spans.wait(
            lambda _: (len(spans.of_response(response_id, "actionable.accept")) == 1
                       and len(spans.of_response(response_id, "actionable.commit")) == 1
                       and len(spans.of_response(response_id, "actionable.delivery.attempt")) >= attempts)
            and (spans.of_response(response_id, "actionable.accept")[0],
                 spans.of_response(response_id, "actionable.commit")[0],
                 sorted(spans.of_response(response_id, "actionable.delivery.attempt"),
                        key=lambda s: attribute(s, "actionable.attempt"))),
            f"{what}: accept, commit and {attempts} attempt(s) arrive at the collector")
        if not found:
            return None
        accept, commit, tries = found
        server_span = spans.wait(
            lambda received: next((s for _, s in received if s.span_id == accept.parent_span_id), None),
            f"{what}: the accept's parent span arrives")
        return accept, commit, tries, server_span

    try:
        check(api("POST", "/v1/endpoints", {"id": "crm", "url": f"{hook}/crm", "filter": ["invite.accept"]}) == 201,
              "an endpoint for invite.accept is created")
        check(api("POST", "/v1/endpoints", {"id": "flaky", "url": f"{hook}/flaky", "filter": ["invite.decline"]}) == 201,
              "an endpoint that fails once, for invite.decline, is created")

        # 1. The caller's trace continues.
        caller_trace, caller_span = secrets.token_hex(16), secrets.token_hex(8)
        response_id = tap("accept", f"00-{caller_trace}-{caller_span}-01")
        delivered = Upstream.inbox("/crm").get(timeout=30)
        found = chain(response_id, 1, "a traced tap")
        if found:
            accept, commit, (attempt,), server_span = found
            check(all(s.trace_id.hex() == caller_trace for s in (server_span, accept, commit, attempt)),
                  "the request, accept, commit and attempt are in the caller's trace")
            check(server_span.parent_span_id.hex() == caller_span and server_span.kind == Span.SPAN_KIND_SERVER,
                  "the request's server span is a child of the caller's span")
            check(commit.parent_span_id == accept.span_id, "the commit is a child of the accept")
            check(attempt.parent_span_id == accept.span_id and attempt.kind == Span.SPAN_KIND_CLIENT,
                  "the delivery attempt is a client span, child of the accept")
            check(delivered["traceparent-count"] == 1, "the upstream call carries one traceparent header")
            check(delivered.get("traceparent") == f"00-{caller_trace}-{attempt.span_id.hex()}-01",
                  f"the upstream receives the attempt's span as traceparent ({delivered.get('traceparent')})")
            check(attribute(attempt, "actionable.endpoint_id") == "crm" and attribute(attempt, "actionable.outcome") == "delivered",
                  "the attempt names its endpoint and outcome")
            check(attribute(accept, "actionable.result") == "accepted" and attribute(accept, "actionable.action") == "accept",
                  "the accept names its result and action")
            check(attempt.start_time_unix_nano >= commit.end_time_unix_nano, "the attempt starts after the commit ended")

        # 2. A tap without a traceparent starts a trace of its own.
        response_id = tap("accept")
        delivered = Upstream.inbox("/crm").get(timeout=30)
        found = chain(response_id, 1, "an untraced tap")
        if found:
            accept, commit, (attempt,), server_span = found
            trace = accept.trace_id.hex()
            check(trace != caller_trace and len(server_span.parent_span_id) == 0, "a tap without traceparent starts a new trace")
            check(commit.trace_id == accept.trace_id == attempt.trace_id and attempt.parent_span_id == accept.span_id,
                  "its commit and attempt are in that trace")
            check(delivered.get("traceparent") == f"00-{trace}-{attempt.span_id.hex()}-01", "its upstream call carries it")

        # 3. Each attempt of a retried delivery is a span of the one trace.
        response_id = tap("decline")
        for _ in range(2):
            Upstream.inbox("/flaky").get(timeout=30)
        found = chain(response_id, 2, "a retried delivery")
        if found:
            accept, _, tries, _ = found
            check([attribute(s, "actionable.outcome") for s in tries] == ["retry", "delivered"],
                  "the first attempt is a retry (503), the second delivered")
            check(all(s.parent_span_id == accept.span_id and s.trace_id == accept.trace_id for s in tries),
                  "both attempts are children of the one accept")
            check(tries[0].status.code == 2 and tries[1].status.code != 2, "the failed attempt has an error status")
        check(all(path == "/v1/traces" and kind == "application/x-protobuf" for path, kind in Collector.paths),
              "spans are exported as OTLP/HTTP protobuf to /v1/traces")
        services = {service for service, _ in spans.received}
        check(services == {"actionable"}, f"the spans' service.name is actionable ({services})")
    finally:
        traced.terminate()
        traced.wait(timeout=30)

    # 4. Off by default: no traceparent is sent on (and nothing could be exported: no collector is named).
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    untraced = serve(binary, work, port, [], env)
    try:
        tap("accept", f"00-{secrets.token_hex(16)}-{secrets.token_hex(8)}-01")
        delivered = Upstream.inbox("/crm").get(timeout=30)
        check("traceparent" not in delivered, "without --otel-endpoint no traceparent is sent to the upstream")
    finally:
        untraced.terminate()
        untraced.wait(timeout=30)
        collector.shutdown()
        upstream.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    finish("traces: all checks passed")


if __name__ == "__main__":
    main()
