"""Renders what a model's template writes for assistant turns, with transformers' own renderer, to seed
completion fixtures (fixtures/completions/<id>.json) with real template output.

  .ref/bin/python scripts/render-turn.py TEMPLATE.jinja SPEC.json

SPEC: {"tools": [...], "variables": {...}, "turns": [{"content": ..., "reasoning_content": ...,
"tool_calls": [{"name": ..., "arguments": {...}}]}]}. Prints one JSON line per turn: the generation
prompt's tail and the text the template renders after it (the model's completion)."""
import json
import sys

from transformers.utils.chat_template_utils import render_jinja_template

template = open(sys.argv[1], encoding="utf-8").read()
spec = json.load(open(sys.argv[2], encoding="utf-8"))
tools = spec.get("tools")
variables = spec.get("variables", {})
user = {"role": "user", "content": "Please help."}


def render(messages, gen):
    out, _ = render_jinja_template(conversations=[messages], tools=tools, chat_template=template,
                                   add_generation_prompt=gen, bos_token=spec.get("bos_token", ""),
                                   eos_token=spec.get("eos_token", ""), **variables)
    return out[0]


for turn in spec["turns"]:
    msg = {"role": "assistant", "content": turn.get("content", "")}
    if "reasoning_content" in turn:
        msg["reasoning_content"] = turn["reasoning_content"]
    if turn.get("tool_calls"):
        msg["tool_calls"] = [{"id": f"call{i}abcd"[:9], "type": "function",
                              "function": {"name": c["name"], "arguments": c["arguments"]}}
                             for i, c in enumerate(turn["tool_calls"])]
    prompt = render([user], True)
    full = render([user, msg], False)
    k = 0
    while k < min(len(prompt), len(full)) and prompt[k] == full[k]:
        k += 1
    print(json.dumps({"promptTail": prompt[max(0, k - 40):k], "promptRest": prompt[k:], "completion": full[k:]}, ensure_ascii=False))
