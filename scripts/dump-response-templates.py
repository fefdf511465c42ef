"""Dumps the response templates transformers ships (cli/serving/utils.py, _RESPONSE_TEMPLATE_FALLBACKS)
into fixtures/response-templates/fallbacks.json, with the version and where they come from.

Run with the reference environment: /work/main/.ref/bin/python scripts/dump-response-templates.py
(transformers 5.x installed; the suite reads the JSON and needs no Python).
"""
import json
import os
import sys

import transformers
from transformers.cli.serving.utils import _RESPONSE_TEMPLATE_FALLBACKS
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


if __name__ == "__main__":
    main()
