"""Dumps the response templates transformers ships (cli/serving/utils.py, _RESPONSE_TEMPLATE_FALLBACKS)
into fixtures/response-templates/fallbacks.json, with the version and where they come from; fills in
transformers' loader errors for fixtures/response-templates/invalid.json; and writes references.json:
transformers' `parse_response` on every completion of each fallback's family (fixtures/completions/)
and on the hand-written cases.json, with the family's tools.

Run with the reference environment: /work/main/.ref/bin/python scripts/dump-response-templates.py
(transformers 5.x installed; the suite reads the JSON and needs no Python).
"""
import json
import os
import sys

import transformers
from transformers.cli.serving.utils import _RESPONSE_TEMPLATE_FALLBACKS
from transformers.utils.chat_parsing import parse_response
from transformers.utils.chat_parsing.response_templates import load_response_template

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The completion fixtures (fixtures/completions/<format>.json) that each fallback's models write.
FAMILY = {"qwen2": "hermes", "qwen3_5": "qwen3-coder", "gemma4": "gemma4"}


def main() -> None:
    out = {
        "about": "The fallback response templates of `transformers serve` (transformers/cli/serving/utils.py, "
        "_RESPONSE_TEMPLATE_FALLBACKS), Apache-2.0, The HuggingFace Team; dumped by scripts/dump-response-templates.py.",
        "transformers": transformers.__version__,
        "templates": [],
    }
    for model_types, template in _RESPONSE_TEMPLATE_FALLBACKS.items():
        out["templates"].append(
            {"id": model_types[0], "model_types": list(model_types), "family": FAMILY[model_types[0]], "response_template": template}
        )
    path = os.path.join(ROOT, "fixtures", "response-templates", "fallbacks.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=2, ensure_ascii=False)
        f.write("\n")
    print(f"wrote {path} ({len(out['templates'])} templates)", file=sys.stderr)
    refusals()
    with open(os.path.join(ROOT, "fixtures", "response-templates", "transformers-tests.json"), encoding="utf-8") as f:
        tested = [t for t in json.load(f)["templates"] if t["family"] is not None]
    references(out["templates"] + tested)


def refusals() -> None:
    """Fills in, for each hand-written invalid template, the error transformers' loader raises."""
    path = os.path.join(ROOT, "fixtures", "response-templates", "invalid.json")
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    for case in data["cases"]:
        try:
            load_response_template(case["response_template"])
            case["transformers_error"] = None
        except (ValueError, TypeError, AttributeError) as e:
            case["transformers_error"] = f"{type(e).__name__}: {e}"
    data["transformers"] = transformers.__version__
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2, ensure_ascii=False)
        f.write("\n")
    print(f"wrote {path} ({len(data['cases'])} refused templates)", file=sys.stderr)


def reference(template: dict, completion: str, prefix: str, tools: list | None) -> dict:
    try:
        return {"message": parse_response(completion, template, prefix=prefix, tools=tools)}
    except (ValueError, KeyError, TypeError) as e:
        return {"error": f"{type(e).__name__}: {e}"}


def references(templates: list) -> None:
    """transformers' parse of each completion: the family fixture's cases, then the hand-written ones."""
    with open(os.path.join(ROOT, "fixtures", "response-templates", "cases.json"), encoding="utf-8") as f:
        hand = json.load(f)["cases"]
    out = {
        "about": "transformers' parse_response (prefix = the case's promptSuffix, else empty) for every completion of "
        "each fallback template's family (and of transformers-tests.json's) and the hand-written cases.json; written by scripts/dump-response-templates.py.",
        "transformers": transformers.__version__,
        "cases": [],
    }
    for entry in templates:
        with open(os.path.join(ROOT, "fixtures", "completions", f"{entry['family']}.json"), encoding="utf-8") as f:
            family = json.load(f)
        sources = [(f"completions/{entry['family']}.json", c) for c in family["cases"]]
        sources += [("response-templates/cases.json", c) for c in hand.get(entry["id"], [])]
        for source, case in sources:
            tools = case["tools"] if "tools" in case else family["tools"]
            prefix = case.get("promptSuffix", "")
            out["cases"].append(
                {
                    "template": entry["id"],
                    "source": source,
                    "name": case["name"],
                    "completion": case["completion"],
                    "promptSuffix": prefix,
                    "tools": tools,
                    "transformers": reference(entry["response_template"], case["completion"], prefix, tools),
                }
            )
    path = os.path.join(ROOT, "fixtures", "response-templates", "references.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"wrote {path} ({len(out['cases'])} references)", file=sys.stderr)


if __name__ == "__main__":
    main()
