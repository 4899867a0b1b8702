#!/usr/bin/env python3
"""The published HTTP contract, kept true: openapi.yaml must validate as OpenAPI 3.1, the server
must serve it at /openapi.json, and schemathesis (PyPI) runs --checks all against a live
`actionable serve` on SQLite (its settings in schemathesis.toml), failing on any failure. The
server forwards to an upstream in this script: a genuine tap's forwarded call must carry the
Standard Webhooks headers and a body valid against the document's ForwardedResponse webhook.

Usage: check_openapi.py ACTIONABLE_BINARY [--max-examples N]
"""
import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, HTTPServer

import yaml
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

TOKEN = "schemathesis-token-0123456789abcdef"
SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
received = []


class Upstream(BaseHTTPRequestHandler):
    """Records each forwarded call and answers 204."""

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        received.append((dict(self.headers), body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *arguments):
        pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--max-examples", default="50")
    arguments = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

    document = yaml.safe_load(open(os.path.join(root, "openapi.yaml"), encoding="utf-8"))
    validate(document)
    print("ok   openapi.yaml is a valid OpenAPI 3.1 document")

    work = tempfile.mkdtemp(prefix="actionable-openapi-")
    shutil.copytree(os.path.join(root, "Categories"), os.path.join(work, "Categories"))
    port = free_port()
    upstream = HTTPServer(("127.0.0.1", 0), Upstream)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    # The stand-in APNs, so that POST /v1/send is exercised on a server that sends.
    stand_in = subprocess.Popen(
        [os.path.abspath(arguments.binary), "apns-stand-in", "--port", "0", "--key-id", "SCHEMA1", "--team-id", "TEAM"],
        cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    stand_in_port = None
    for line in stand_in.stdout:
        found = re.search(r"https://127\.0\.0\.1:(\d+)", line)
        if found:
            stand_in_port = found.group(1)
            break
    threading.Thread(target=lambda: [None for _ in stand_in.stdout], daemon=True).start()
    keys = os.path.join(work, ".actionable", "apns-stand-in")
    # One token for both the backend and the operators, so that one header signs every request in.
    server = subprocess.Popen(
        [os.path.abspath(arguments.binary), "serve", "--port", str(port), "--storage", "sqlite:openapi.sqlite",
         "--admin-token", TOKEN, "--backend-token", TOKEN,
         "--forward", f"*=http://127.0.0.1:{upstream.server_port}/hook", "--forward-secret", SECRET,
         "--apns-key-file", os.path.join(keys, "AuthKey_SCHEMA1.p8"), "--apns-key-id", "SCHEMA1", "--apns-team-id", "TEAM",
         "--apns-topic", "com.example.app", "--apns-url", f"https://127.0.0.1:{stand_in_port}",
         "--apns-ca-file", os.path.join(keys, "certificate.pem")],
        cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        for line in server.stdout:
            if "accepting action responses" in line:
                break
        served = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/openapi.json"))
        if served["paths"].keys() != document["paths"].keys():
            print("FAIL the served document's paths differ from openapi.yaml")
            sys.exit(1)
        print("ok   /openapi.json serves the document, with the catalog's categories:",
              served["components"]["schemas"]["NotificationRecord"]["properties"]["category"].get("enum"))
        run = subprocess.run(
            ["schemathesis", "--config-file", os.path.join(root, "schemathesis.toml"), "run",
             f"http://127.0.0.1:{port}/openapi.json", "--checks", "all", "-H", f"Authorization: Bearer {TOKEN}",
             "--max-examples", arguments.max_examples, "--seed", "20261123", "--no-color"],
            cwd=work, capture_output=True, text=True)
        print("\n".join(run.stdout.splitlines()[-12:]))
        if run.returncode != 0:
            print(run.stdout)
            print("FAIL schemathesis found failures", file=sys.stderr)
            sys.exit(1)
        check_forwarded_call(document, arguments.binary, work, port)
        print("openapi: all checks passed")
    finally:
        server.terminate()
        server.wait(timeout=30)
        stand_in.terminate()
        stand_in.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)


def check_forwarded_call(document, binary, work, port):
    """A genuine tap (actionable payload, then respond) is forwarded; its body and headers must
    be what the document's webhook says."""
    made = subprocess.run(
        [os.path.abspath(binary), "payload", "invite", "--body", "b", "--set", "inviteId=inv-42", "--set", "seats=2",
         "--user", "alice", "--notification-id", "n-openapi-forward"],
        cwd=work, capture_output=True, text=True, check=True)
    open(os.path.join(work, "notification.json"), "w").write(made.stdout)
    subprocess.run(
        [os.path.abspath(binary), "respond", "accept", "--notification", "notification.json",
         "--url", f"http://127.0.0.1:{port}"], cwd=work, capture_output=True, text=True, check=True)
    for _ in range(600):  # the worker delivers within its first round; bounded at 60 s
        if any(b'"n-openapi-forward"' in body for _, body in received):
            break
        threading.Event().wait(0.1)
    calls = [(headers, body) for headers, body in received if b'"n-openapi-forward"' in body]
    if not calls:
        print("FAIL the genuine tap was not forwarded", file=sys.stderr)
        sys.exit(1)
    headers, body = calls[0]
    schema = document["webhooks"]["actionResponse"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    errors = [e.message for e in Draft202012Validator(dict(schema, components=document["components"])).iter_errors(json.loads(body))]
    names = {name.lower() for name in headers}
    missing = [h for h in ("webhook-id", "webhook-endpoint", "webhook-timestamp", "webhook-signature", "idempotency-key") if h not in names]
    if errors or missing:
        print(f"FAIL the forwarded call: {errors} missing headers {missing}: {body!r}", file=sys.stderr)
        sys.exit(1)
    print("ok   the forwarded call validates against the ForwardedResponse webhook:", body.decode()[:120])


if __name__ == "__main__":
    main()
