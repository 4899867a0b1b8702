#!/usr/bin/env python3
"""Signatures as a receiver checks them, with the `standardwebhooks` library (PyPI), against a
real `actionable serve` (SQLite) delivering to an upstream in this process:

  an endpoint with its own secret S1 verifies with S1 and not with S2; rotated to S2 (PATCH
  /v1/endpoints/{id}), each call carries both signatures, so a receiver on S1 and one on S2 both
  accept it (no window where signatures fail); once the previous secret is dropped, S1 no longer
  verifies. An endpoint signed with the server's --forward-secret rotates away from it the same
  way. A delivery that goes dead (410) sends `delivery.dead` to --ops-endpoint, signed with the
  server's secret, shaped as openapi.yaml's DeliveryDeadEvent, and counts in
  actionable_deliveries_dead_total.

Usage: check_webhook_rotation.py ACTIONABLE_BINARY
Waits are on events (the server's log, the upstream's requests), never on fixed sleeps.
"""
import http.server
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import urllib.request

import jsonschema
import yaml
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from checks import check, finish, free_port

ADMIN = "operator-token-0123456789abcdefghijkl"
SERVER_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
S1 = "whsec_" + "QWN0aW9uYWJsZSBzZWNyZXQgb25lIQ=="  # 23 bytes
S2 = "whsec_" + "QWN0aW9uYWJsZSBzZWNyZXQgdHdvIQ=="
S3 = "whsec_" + "QWN0aW9uYWJsZSBzZWNyZXQgdGhyZWU="
class Upstream(http.server.BaseHTTPRequestHandler):
    """204 on every path but /gone (410); each request goes to its path's queue."""
    received = {}
    lock = threading.Lock()

    @classmethod
    def inbox(cls, path):
        with cls.lock:
            return cls.received.setdefault(path, queue.Queue())

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.send_response(410 if self.path == "/gone" else 204)
        self.end_headers()
        headers = {name.lower(): value for name, value in self.headers.items()}
        Upstream.inbox(self.path).put((headers, body))

    def log_message(self, *args):
        pass


def verifies(secret, delivery):
    headers, body = delivery
    try:
        Webhook(secret).verify(body, headers)
        return True
    except WebhookVerificationError:
        return False


def main():
    binary = os.path.abspath(sys.argv[1])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "Sources/ActionableHTTP/openapi.yaml")) as file:
        event_schema = yaml.safe_load(file)["components"]["schemas"]["DeliveryDeadEvent"]

    work = tempfile.mkdtemp(prefix="actionable-rotation-")
    shutil.copytree(os.path.join(root, "Categories"), os.path.join(work, "Categories"))
    upstream = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    hook = f"http://127.0.0.1:{upstream.server_address[1]}"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [binary, "serve", "--port", str(port), "--admin-token", ADMIN, "--forward-secret", SERVER_SECRET,
         "--ops-endpoint", f"{hook}/ops"],
        cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def api(method, path, body=None):
        request = urllib.request.Request(
            base + path, method=method, data=json.dumps(body).encode() if body is not None else None,
            headers={"Authorization": f"Bearer {ADMIN}", "Content-Type": "application/json"})
        with urllib.request.urlopen(request) as response:
            return response.status, json.loads(response.read() or b"{}")

    def tap(action):
        notification = subprocess.run(
            [binary, "payload", "invite", "--body", "Dinner?", "--set", "inviteId=42", "--user", "alice"],
            cwd=work, capture_output=True, text=True, check=True).stdout
        respond = subprocess.run(
            [binary, "respond", action, "--notification", "-", "--url", base],
            input=notification, cwd=work, capture_output=True, text=True)
        check(respond.returncode == 0 and "202" in respond.stdout, f"a tap ({action}) is accepted")

    try:
        for line in server.stdout:
            if "accepting action responses" in line:
                break
        # The rest of the log is read on, so the server never blocks on a full pipe.
        threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()
        check(api("POST", "/v1/endpoints", {"id": "rot", "url": f"{hook}/rot", "filter": ["invite.accept"], "secret": S1})[0] == 201,
              "an endpoint with its own secret is created")
        check(api("POST", "/v1/endpoints", {"id": "shared", "url": f"{hook}/shared", "filter": ["invite.accept"]})[0] == 201,
              "an endpoint on the server's secret is created")
        check(api("POST", "/v1/endpoints", {"id": "gone", "url": f"{hook}/gone", "filter": ["invite.decline"]})[0] == 201,
              "an endpoint that answers 410 is created")

        tap("accept")
        first = Upstream.inbox("/rot").get(timeout=30)
        check(verifies(S1, first) and not verifies(S2, first), "before the rotation: S1 verifies, S2 does not")
        shared = Upstream.inbox("/shared").get(timeout=30)
        check(verifies(SERVER_SECRET, shared), "the endpoint without a secret is signed with --forward-secret")

        status, endpoint = api("PATCH", "/v1/endpoints/rot", {"secret": S2})
        check(status == 200 and endpoint["secrets"] == 2, "rotated: two secrets sign")
        _, endpoint = api("PATCH", "/v1/endpoints/shared", {"secret": S3})
        check(endpoint["secrets"] == 2, "the shared endpoint rotates to its own secret")
        tap("accept")
        during = Upstream.inbox("/rot").get(timeout=30)
        check(len(during[0]["webhook-signature"].split(" ")) == 2, "during the rotation two signatures are sent")
        check(verifies(S1, during), "during the rotation a receiver still on S1 accepts it")
        check(verifies(S2, during), "during the rotation a receiver already on S2 accepts it")
        shared = Upstream.inbox("/shared").get(timeout=30)
        check(verifies(SERVER_SECRET, shared) and verifies(S3, shared), "the shared endpoint's call verifies with the old and the new")

        status, endpoint = api("PATCH", "/v1/endpoints/rot", {"previousSecret": None})
        check(status == 200 and endpoint["secrets"] == 1, "the previous secret is dropped")
        tap("accept")
        after = Upstream.inbox("/rot").get(timeout=30)
        check(verifies(S2, after) and not verifies(S1, after), "after the rotation: S2 verifies, S1 no longer")
        Upstream.inbox("/shared").get(timeout=30)

        tap("decline")
        gone = Upstream.inbox("/gone").get(timeout=30)
        check(verifies(SERVER_SECRET, gone), "the 410 endpoint got its call")
        event = Upstream.inbox("/ops").get(timeout=30)
        check(verifies(SERVER_SECRET, event), "delivery.dead is signed with --forward-secret")
        payload = json.loads(event[1])
        try:
            jsonschema.validate(payload, event_schema)
            check(True, "delivery.dead matches openapi.yaml's DeliveryDeadEvent")
        except jsonschema.ValidationError as error:
            check(False, f"delivery.dead matches openapi.yaml's DeliveryDeadEvent: {error.message}")
        check(payload["type"] == "delivery.dead" and payload["data"]["endpoint"] == "gone" and "410" in payload["data"]["lastError"],
              "delivery.dead names the endpoint and the upstream's answer")
        check(event[0]["webhook-id"] == f"dead_{payload['data']['responseId']}_gone", "its webhook-id names the dead delivery")
        metrics = urllib.request.urlopen(urllib.request.Request(base + "/metrics", headers={"Authorization": f"Bearer {ADMIN}"}))
        text = metrics.read().decode()
        check('actionable_deliveries_dead_total{endpoint="gone"} 1' in text, "the dead delivery is counted in the metric")
    finally:
        server.terminate()
        server.wait(timeout=30)
        upstream.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    finish("webhook rotation and delivery.dead: all checks passed")


if __name__ == "__main__":
    main()
