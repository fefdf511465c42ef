"""
Writes the render conformance fixtures. Run from the repository root with the reference interpreter:

    .ref/bin/python scripts/gen-render-fixtures.py

- fixtures/render/<template>.json: `caps.readsContentParts` / `caps.readsArgumentsAsString` (the probes' answers) and in
  `pairs`, for every fixture conversation, `{"prompt": ...}` (what transformers
  renders) or `{"error": ..., "kind": ...}` (the exception it raises; kind `invalid_request` means the
  request normaliser rejects it and `error` is the field it names), plus `"input"`: which entry of
  _normalized.json the template was given.
- fixtures/render/_normalized.json: per conversation, the distinct canonical conversations
  `{messages, tools}` the normaliser produced across templates (they differ only by the developer-role
  and content-part rules). The conformance test checks our request normaliser against these, which
  tells a normalisation mismatch apart from a rendering one.

Output is deterministic (sorted keys, pinned clock): re-running on unchanged inputs changes nothing.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from ref_normalize import reads_arguments_as_string, reads_content_parts  # noqa: E402
from ref_render import ROOT, expected, load_conversations, load_templates, prober  # noqa: E402

OUT = os.path.join(ROOT, "fixtures", "render")


def write_json(path, value):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(value, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    conversations = load_conversations()
    normalized = {name: [] for name, _ in conversations}
    prompts = errors = 0
    for name, source, bos, eos in load_templates():
        results = {}
        for conv_name, conv in conversations:
            result, canonical = expected(source, bos, eos, conv)
            if canonical is not None:
                variants = normalized[conv_name]
                if canonical not in variants:
                    variants.append(canonical)
                result["input"] = variants.index(canonical)
            results[conv_name] = result
            if "prompt" in result:
                prompts += 1
            else:
                errors += 1
        probe = prober(source, bos, eos)
        caps = {"readsContentParts": reads_content_parts(probe), "readsArgumentsAsString": reads_arguments_as_string(probe)}
        write_json(os.path.join(OUT, name + ".json"), {"caps": caps, "pairs": results})
    write_json(os.path.join(OUT, "_normalized.json"), normalized)
    print(f"{prompts + errors} pairs: {prompts} prompts, {errors} errors -> {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
