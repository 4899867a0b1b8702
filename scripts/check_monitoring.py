#!/usr/bin/env python3
"""docs/monitoring/ against a real server: the alert rules pass `promtool check rules` and their
unit tests (`promtool test rules`), every dashboard query is valid PromQL (checked by promtool as
a recording rule), and every series the rules, their tests and the dashboard name is one a
running `actionable serve` exports — with the labels and label values they match on.

The server runs on SQLite with the example categories, sends to APNs and FCM (keys made here;
nothing is sent) and forwards taps to an upstream in this process that takes the first and
refuses the second for good, so that the delivered and dead series exist; then /metrics is
scraped. A metric renamed in the server, or a label value changed (`outcome="failed"` →
`"dead"`), fails here.

Usage: check_monitoring.py ACTIONABLE_BINARY
Waits are on events (the server's log, the scraped counters), never on fixed sleeps.
"""
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import yaml
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from checks import check, finish, free_port

ADMIN = "operator-token-0123456789abcdefghijkl"
BACKEND = "backend-token-0123456789abcdefghijklm"
SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MONITORING = os.path.join(ROOT, "docs", "monitoring")
# Labels Prometheus adds to every series it scrapes (and `le` of a histogram's buckets).
ADDED_BY_PROMETHEUS = {"job", "instance", "le"}


class Upstream(http.server.BaseHTTPRequestHandler):
    """Takes the first delivery (204) and refuses every later one for good (410)."""
    calls = 0
    lock = threading.Lock()

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with Upstream.lock:
            Upstream.calls += 1
            first = Upstream.calls == 1
        self.send_response(204 if first else 410)
        self.end_headers()

    def log_message(self, *args):
        pass


def selectors(expression):
    """Each `metric{matchers}` (or bare metric) of a PromQL expression: (name, [(label, op, value)])."""
    found = []
    for match in re.finditer(r"\b(actionable_[a-z0-9_]+)\s*(\{([^}]*)\})?", expression):
        matchers = re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!=|!~|=)\s*"([^"]*)"', match.group(3) or "")
        found.append((match.group(1), matchers))
    return found


def scraped_series(text):
    """The series of a Prometheus text exposition: name → list of label dicts."""
    series = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        match = re.match(r"([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s", line)
        if not match:
            continue
        labels = dict(re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"', match.group(3) or ""))
        series.setdefault(match.group(1), []).append(labels)
    return series


def check_exported(where, expression, exported):
    """Every selector of `expression` names an exported series with the labels and values it matches."""
    for name, matchers in selectors(expression):
        if name not in exported:
            check(False, f"{where}: {name} is exported by a running serve")
            continue
        for label, op, value in matchers:
            if label in ADDED_BY_PROMETHEUS:
                continue
            values = {series.get(label) for series in exported[name] if label in series}
            if not values:
                check(False, f"{where}: {name} has the label {label}")
            elif op == "=":
                check(value in values, f"{where}: {name}{{{label}=\"{value}\"}} is exported (values: {sorted(values)})")
            elif op == "=~" and not any(c in value for c in ".*+?[]()\\$^"):
                for alternative in value.split("|"):
                    check(alternative in values, f"{where}: {name}{{{label}=~…{alternative}…}} is exported (values: {sorted(values)})")


def promtool(*arguments):
    run = subprocess.run(["promtool", *arguments], capture_output=True, text=True)
    output = (run.stdout + run.stderr).strip()
    check(run.returncode == 0, f"promtool {' '.join(arguments)}" + ("" if run.returncode == 0 else f"\n{output}"))
    return run.returncode == 0


def dashboard_queries(dashboard):
    """(panel title, expression) of every query of every panel, rows' panels included."""
    queries = []
    for panel in dashboard["panels"] + [p for row in dashboard["panels"] for p in row.get("panels", [])]:
        for target in panel.get("targets", []):
            queries.append((panel["title"], target["expr"]))
    return queries


def as_promql(expression):
    """A dashboard query with Grafana's variables filled, as Prometheus would receive it."""
    return (expression.replace("$__rate_interval", "5m").replace("$__range", "6h")
            .replace("$__interval", "1m").replace('"$job"', '".*"'))


def keys(work):
    """An APNs key (P-256, .p8) and an FCM service account (RSA) in `work`; nothing is sent with them."""
    p8 = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    with open(os.path.join(work, "AuthKey_MON1.p8"), "wb") as file:
        file.write(p8)
    pem = rsa.generate_private_key(public_exponent=65537, key_size=2048).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
    with open(os.path.join(work, "service-account.json"), "w") as file:
        json.dump({"type": "service_account", "project_id": "monitoring-check", "private_key_id": "k1", "private_key": pem,
                   "client_email": "check@monitoring-check.iam.gserviceaccount.com",
                   "token_uri": "https://127.0.0.1:9/token"}, file)


def main():
    binary = os.path.abspath(sys.argv[1])
    rules = os.path.join(MONITORING, "alerts.yml")
    tests = os.path.join(MONITORING, "alerts.test.yml")
    with open(os.path.join(MONITORING, "grafana-dashboard.json")) as file:
        dashboard = json.load(file)
    check(dashboard.get("uid") and dashboard.get("panels"), "grafana-dashboard.json parses and has panels")

    promtool("check", "rules", rules)
    promtool("test", "rules", tests)
    # The dashboard's queries as recording rules: promtool parses each one as PromQL.
    work = tempfile.mkdtemp(prefix="actionable-monitoring-")
    queries = dashboard_queries(dashboard)
    recorded = {"groups": [{"name": "dashboard", "rules": [
        {"record": f"dashboard:query_{index}", "expr": as_promql(expression)} for index, (_, expression) in enumerate(queries)]}]}
    with open(os.path.join(work, "dashboard-queries.yml"), "w") as file:
        yaml.safe_dump(recorded, file)
    promtool("check", "rules", os.path.join(work, "dashboard-queries.yml"))

    shutil.copytree(os.path.join(ROOT, "Categories"), os.path.join(work, "Categories"))
    keys(work)
    upstream = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [binary, "serve", "--port", str(port), "--admin-token", ADMIN, "--backend-token", BACKEND,
         "--forward", f"invite.*=http://127.0.0.1:{upstream.server_address[1]}/hook", "--forward-secret", SECRET,
         "--apns-key-file", "AuthKey_MON1.p8", "--apns-key-id", "MON1", "--apns-team-id", "TEAM", "--apns-topic", "com.example.app",
         "--apns-url", "https://127.0.0.1:9", "--fcm-service-account", "service-account.json", "--fcm-url", "https://127.0.0.1:9"],
        cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    log = []
    try:
        for line in server.stdout:
            log.append(line)
            if "accepting action responses" in line:
                break
        threading.Thread(target=lambda: [log.append(line) for line in server.stdout], daemon=True).start()
        check(server.poll() is None, "serve runs with APNs, FCM and a forward" + ("" if server.poll() is None else "".join(log)))

        def scrape():
            request = urllib.request.Request(base + "/metrics", headers={"Authorization": f"Bearer {ADMIN}"})
            with urllib.request.urlopen(request) as response:
                return response.read().decode()

        # Two taps: the upstream takes the first and refuses the second for good.
        for notification in ("n-monitoring-1", "n-monitoring-2"):
            payload = json.loads(subprocess.run(
                [binary, "payload", "invite", "--body", "Dinner?", "--set", "inviteId=42", "--user", "alice",
                 "--notification-id", notification], cwd=work, capture_output=True, text=True, check=True).stdout)
            body = {"category": "invite", "action": "accept", "actionToken": payload["actionToken"], "payload": {"inviteId": "42"}}
            request = urllib.request.Request(base + "/v1/actions", method="POST", data=json.dumps(body).encode(),
                                             headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request) as response:
                check(response.status == 202, f"the tap on {notification} is accepted")
        deadline = time.monotonic() + 60
        text = scrape()
        while time.monotonic() < deadline:
            exported = scraped_series(text)
            outcomes = {(s.get("outcome"), s.get("endpoint")) for s in exported.get("actionable_endpoint_attempts_total", [])}
            if {o for o, _ in outcomes} >= {"delivered", "dead"} and "actionable_deliveries_dead_total" in exported:
                break
            text = scrape()
        exported = scraped_series(text)
        check("actionable_deliveries_dead_total" in exported, "the refused delivery is counted dead")

        for group in yaml.safe_load(open(rules))["groups"]:
            for rule in group["rules"]:
                check_exported(f"alerts.yml {rule['alert']}", rule["expr"], exported)
        for test in yaml.safe_load(open(tests))["tests"]:
            for series in test["input_series"]:
                check_exported("alerts.test.yml input", series["series"], exported)
        for title, expression in queries:
            check_exported(f"dashboard \"{title}\"", expression, exported)
        named = {name for _, e in queries for name, _ in selectors(e)}
        check(len(named) >= 12, f"the dashboard draws {len(named)} series of the server")
    finally:
        server.terminate()
        server.wait(timeout=30)
        upstream.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    finish("monitoring: the rules, their tests and the dashboard name what serve exports")


if __name__ == "__main__":
    main()
