#!/usr/bin/env python3
"""Validates JSON answers of the server against openapi.yaml: each line of FILE is
{"method","path","routedPath","routedSegments","status","contentType","body"} (as fuzz-http-application writes them with
ACTIONABLE_FUZZ_RESPONSES=FILE). The operation is found by method and path template; the body
must validate against the schema the document gives for that status and content type. An
unknown path must answer a 404 problem, a known path with another method a 405 problem; a
status the operation does not document fails.

Usage: check_fuzz_responses.py FILE
"""
import json
import os
import sys

import yaml
from jsonschema import Draft202012Validator

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
document = yaml.safe_load(open(os.path.join(root, "openapi.yaml"), encoding="utf-8"))
components = document["components"]


def resolve(node):
    while isinstance(node, dict) and "$ref" in node:
        parts = node["$ref"].lstrip("#/").split("/")
        node = document
        for part in parts:
            node = node[part]
    return node


def validator(schema):
    return Draft202012Validator(dict(schema, components=components))


templates = []
for template, item in document["paths"].items():
    segments = [s for s in template.split("/") if s]
    templates.append((segments, item))


def route_path(path):
    """The part of a request target the router matches: before any query."""
    return path.split("?")[0]


def operation(method, path, segments=None):
    if segments is None:
        segments = [s for s in route_path(path).split("/") if s]
    best = None
    for pattern, item in templates:
        if len(pattern) != len(segments):
            continue
        if all(p.startswith("{") or p == s for p, s in zip(pattern, segments)):
            literal = [not p.startswith("{") for p in pattern]
            if best is None or literal > best[0]:
                best = (literal, item)
    if best is None:
        return None, None
    item = best[1]
    method = method.lower()
    if method == "head":
        method = "get"
    return item, item.get(method)


problem = validator({"$ref": "#/components/schemas/Problem"})
failures = {}
checked = 0
for line in open(sys.argv[1], encoding="utf-8"):
    record = json.loads(line)
    checked += 1
    # The path as the router read it (Hummingbird's URI parser), where the target has one.
    method, path, status, body = record["method"], record.get("routedPath", record["path"]), record["status"], record["body"]
    kind = record["contentType"].split(";")[0].strip()
    # The router splits by grapheme cluster ("/" then a combining mark is no separator): the
    # harness writes the segments as the router saw them.
    item, op = operation(method, path, record.get("routedSegments"))
    if item is None or op is None:
        expected = 404 if item is None else 405
        errors = [] if status == expected else [f"expected {expected}, got {status}"]
        errors += [e.message for e in problem.iter_errors(body)]
    else:
        response = resolve(op["responses"].get(str(status)) or op["responses"].get(f"{str(status)[0]}XX") or {})
        content = response.get("content", {}).get(kind)
        if not response:
            errors = [f"status {status} is not documented"]
        elif content is None:
            errors = [f"{kind} is not documented for {status}"]
        else:
            errors = [e.message for e in validator(content.get("schema", {})).iter_errors(body)]
    if errors:
        key = (method, route_path(path) if item is None else next(t for t, i in document["paths"].items() if i is item), status)
        failures.setdefault(key, (errors[0], body))

if failures:
    for (method, path, status), (error, body) in sorted(failures.items()):
        print(f"FAIL {method} {path} {status}: {error}\n     {json.dumps(body)[:300]}")
    sys.exit(1)
print(f"ok   {checked} JSON answers valid against openapi.yaml")
