"""
Writes the render conformance fixtures. Run from the repository root with the reference interpreter:

    .ref/bin/python scripts/gen-render-fixtures.py

- fixtures/render/<template>.json, for every corpus template (fixtures/templates) and every published
  config (fixtures/real-configs/<name>, as `real-<name>`):
  - `caps`: the probes' answers, found by rendering with transformers (scripts/ref_normalize.py,
    ref_polyfill.py): readsContentParts, contentPartsByRole (the same per role), readsArgumentsAsString, callContentAsNone (the tool-call shape
    under which every call of the history is printed), callsOnePerMessage (several calls of one message
    are split), rendersToolDefinitions, rendersToolDefinitionsAfterSystem (the same in a conversation
    that starts with a system message), rendersToolCalls,
    rendersToolResults, supportsSystem;
  - `pairs`: for every fixture conversation, `{"prompt": ...}` (what transformers renders) or
    `{"error": ..., "kind": ...}` (the exception it raises; kind `invalid_request` means the request
    normaliser rejects it and `error` is the field it names), plus `"input"`: which entry of
    _normalized.json the template was given. No polyfill (`polyfill: "never"`);
    A pair rendered in a tool-call shape other than the probed one (the render's fallback, spec rule
    3c) says which in `"shape": {contentNone, argumentsAsString}`;
  - `auto`: the same for the conversations in AUTO, rendered as `polyfill: "auto"` rewrites them;
  - `shapes`: for every conversation with tool calls that the normaliser accepts, what transformers does
    with it in each of the four tool-call shapes (ref_normalize.SHAPES order, no fallback): `{"sha256":
    first 16 hex digits of the prompt}` or `{"error", "kind"}`. test/template-tool-shapes.test.ts checks
    that chatwire renders one of those prompts whenever a shape renders, and raises only where all do.
- fixtures/render/_normalized.json: per conversation, the distinct canonical conversations
  `{messages, tools}` the normaliser produced across templates (they differ by the developer-role,
  content-part and tool-call-shape rules). The conformance test checks our request normaliser against
  these, which tells a normalisation mismatch apart from a rendering one.

Output is deterministic (sorted keys, pinned clock): re-running on unchanged inputs changes nothing.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from ref_normalize import call_content_as_none, calls_one_per_message, reads_arguments_as_string, reads_content_parts, reads_content_parts_in  # noqa: E402
from ref_polyfill import supports_system  # noqa: E402
from ref_render import ROOT, expected, load_conversations, load_real_configs, load_templates, probed_caps, prober, shape_results  # noqa: E402

OUT = os.path.join(ROOT, "fixtures", "render")
# Conversations also rendered with the polyfill's `auto` rewrite (tool calls in history, tool lists).
AUTO = ["03-tools-schema", "05-parallel-calls", "06-agent-loop", "09-content-null-float-args", "30-tool-history-content-null", "36-integer-like-keys"]


def write_json(path, value):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(value, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    conversations = load_conversations()
    normalized = {name: [] for name, _ in conversations}
    counts = {"prompts": 0, "errors": 0}

    def run(source, bos, eos, extra, conv_name, conv, polyfill):
        result, canonical = expected(source, bos, eos, conv, extra, polyfill)
        if canonical is not None:
            variants = normalized[conv_name]
            if canonical not in variants:
                variants.append(canonical)
            result["input"] = variants.index(canonical)
        counts["prompts" if "prompt" in result else "errors"] += 1
        return result

    templates = [(n, s, b, e, None) for n, s, b, e in load_templates()] + load_real_configs()
    for name, source, bos, eos, extra in templates:
        pairs = {c: run(source, bos, eos, extra, c, conv, False) for c, conv in conversations}
        auto = {c: run(source, bos, eos, extra, c, conv, True) for c, conv in conversations if c in AUTO}
        shapes = {c: r for c, r in ((c, shape_results(source, bos, eos, conv, extra)) for c, conv in conversations) if r is not None}
        probe = prober(source, bos, eos, extra)
        caps = {
            "readsContentParts": reads_content_parts(probe),
            "contentPartsByRole": {role: reads_content_parts_in(probe, role) for role in ("user", "system", "assistant", "tool")},
            "readsArgumentsAsString": reads_arguments_as_string(probe),
            "callContentAsNone": call_content_as_none(probe),
            "callsOnePerMessage": calls_one_per_message(probe),
            "supportsSystem": supports_system(probe),
            **probed_caps(probe),
        }
        write_json(os.path.join(OUT, name + ".json"), {"caps": caps, "pairs": pairs, "auto": auto, "shapes": shapes})
    write_json(os.path.join(OUT, "_normalized.json"), normalized)
    total = counts["prompts"] + counts["errors"]
    print(f"{total} renders: {counts['prompts']} prompts, {counts['errors']} errors -> {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
