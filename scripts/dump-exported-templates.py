"""Writes fixtures/response-templates/exported.json: for every family with completion fixtures
(fixtures/completions/<format>.json), the response template `chatwire response-template --format ID`
exports (or why it refuses), whether transformers' loader accepts it, and transformers' `parse_response`
with it on each of the family's completions (the family's tools, prefix = the case's promptSuffix).
test/response-template/export.test.ts compares chatwire's parse with these references; the suite
needs no Python.

Run with the reference environment, from anywhere:
  /work/main/.ref/bin/python scripts/dump-exported-templates.py
It bundles the CLI with esbuild (as `npm run example` does) into .tmp/export-cli/.
"""
import glob
import json
import os
import subprocess
import sys

import transformers
from transformers.utils.chat_parsing import parse_response
from transformers.utils.chat_parsing.response_templates import load_response_template

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = os.path.join(ROOT, ".tmp", "export-cli", "main.js")


def bundle() -> None:
    subprocess.run(["node", "scripts/gen-families.mjs"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    subprocess.run(
        ["npx", "esbuild", "src/cli/main.ts", "--bundle", "--platform=node", "--format=esm", "--packages=external",
         "--log-level=warning", f"--outfile={CLI}"],
        cwd=ROOT, check=True,
    )


def export(format_id: str) -> dict:
    done = subprocess.run(["node", CLI, "response-template", "--format", format_id], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        return {"refused": done.stderr.strip().removeprefix("chatwire: ")}
    notes = [line.removeprefix("chatwire: note: ") for line in done.stderr.splitlines() if line.startswith("chatwire: note: ")]
    return {"response_template": json.loads(done.stdout)["response_template"], "omitted": notes}


def reference(template: dict, completion: str, prefix: str, tools: list | None) -> dict:
    try:
        return {"message": parse_response(completion, template, prefix=prefix, tools=tools)}
    except (ValueError, KeyError, TypeError) as e:
        return {"error": f"{type(e).__name__}: {e}"}


def main() -> None:
    bundle()
    out = {
        "about": "chatwire's exported response templates (chatwire response-template --format ID), transformers' loader "
        "verdict on each, and transformers' parse_response with it on every completion of the family "
        "(fixtures/completions/); written by scripts/dump-exported-templates.py.",
        "transformers": transformers.__version__,
        "families": [],
    }
    for path in sorted(glob.glob(os.path.join(ROOT, "fixtures", "completions", "*.json"))):
        with open(path, encoding="utf-8") as f:
            family = json.load(f)
        entry = {"format": family["format"], **export(family["format"])}
        if "response_template" in entry:
            try:
                load_response_template(entry["response_template"])
                entry["loads"] = True
            except (ValueError, TypeError) as e:
                entry["loads"] = f"{type(e).__name__}: {e}"
            if entry["loads"] is True:
                entry["references"] = []
                for case in family["cases"]:
                    tools = case["tools"] if "tools" in case else family["tools"]
                    prefix = case.get("promptSuffix", "")
                    entry["references"].append(
                        {"name": case["name"], "transformers": reference(entry["response_template"], case["completion"], prefix, tools)}
                    )
        out["families"].append(entry)
    target = os.path.join(ROOT, "fixtures", "response-templates", "exported.json")
    with open(target, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")
    exported = [e for e in out["families"] if e.get("loads") is True]
    print(f"wrote {target} ({len(exported)} of {len(out['families'])} families exported and loaded)", file=sys.stderr)


if __name__ == "__main__":
    main()
