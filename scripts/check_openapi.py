#!/usr/bin/env python3
"""The published HTTP contract, kept true: openapi.yaml must validate as OpenAPI 3.1, the server
must serve it at /openapi.json, and schemathesis (PyPI) runs --checks all against a live
`actionable serve` on SQLite (its settings in schemathesis.toml), failing on any failure.

Usage: check_openapi.py ACTIONABLE_BINARY [--max-examples N]
"""
import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import urllib.request

import yaml
from openapi_spec_validator import validate

TOKEN = "schemathesis-token-0123456789abcdef"


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
    # One token for both the backend and the operators, so that one header signs every request in.
    server = subprocess.Popen(
        [os.path.abspath(arguments.binary), "serve", "--port", str(port), "--storage", "sqlite:openapi.sqlite",
         "--admin-token", TOKEN, "--backend-token", TOKEN],
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
        print("openapi: all checks passed")
    finally:
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
