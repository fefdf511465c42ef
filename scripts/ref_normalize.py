"""
An independent Python mirror of chatwire's request normalisation (the spec in issue 2 / DESIGN.md), used
as the oracle for the render conformance fixtures. It is written from the spec, not from the TypeScript
code, so a disagreement between the two shows up as a fixture mismatch instead of being copied over.

JSON floats need no special care here: Python's json module already reads `1.0` as a float and prints it
back as `1.0`, which is exactly what the TypeScript side emulates with PyFloat.
"""
import copy
import json

ROLES = {"system", "developer", "user", "assistant", "tool", "function"}
TEXT_PART_TYPES = {"text", "input_text", "output_text"}
PROBE = "CHATWIRE_PROBE"


class InvalidRequest(Exception):
    """A malformed request; `field` is the JSON path the TypeScript error must name."""

    def __init__(self, field, message):
        super().__init__(f"{field}: {message}")
        self.field = field


def reads_content_parts(render):
    """Spec 7: a probe render decides whether the template prints content parts itself."""
    try:
        out = render([{"role": "user", "content": [{"type": "text", "text": PROBE}]}])
    except Exception:
        return False
    return PROBE in out and f"'text': '{PROBE}'" not in out and f'"text": "{PROBE}"' not in out


def _is_text_parts(content):
    return isinstance(content, list) and all(
        isinstance(p, dict) and p.get("type") in TEXT_PART_TYPES and isinstance(p.get("text"), str) for p in content
    )


def _content(content, keep_parts):
    if not isinstance(content, list):
        return content
    if _is_text_parts(content) and not keep_parts:
        return "\n".join(p["text"] for p in content)
    out = []
    for p in content:
        if isinstance(p, dict) and p.get("type") in ("input_text", "output_text"):
            p = {**p, "type": "text"}
        out.append(p)
    return out


def reads_arguments_as_string(render):
    """Spec 4's exception: a template that raises on object arguments but not on the same call with a
    JSON-string `arguments` (functionary v3.2 concatenates them) gets them as strings."""
    def call_with(arguments):
        return [
            {"role": "user", "content": "x"},
            {"role": "assistant", "content": "", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": arguments}}]},
        ]
    try:
        render(call_with({"a": 1}))
        return False
    except Exception:
        pass
    try:
        render(call_with('{"a": 1}'))
        return True
    except Exception:
        return False


def _arguments(args, warnings, field, keep_strings=False):
    if not isinstance(args, str) or keep_strings:
        return args
    try:
        return json.loads(args)
    except ValueError:
        warnings.append(f"{field}: arguments are not valid JSON; kept as a string")
        return args


def _tools(tools):
    if tools is None:
        return None
    if not isinstance(tools, list):
        raise InvalidRequest("tools", "must be an array of tools")
    out = []
    for i, tool in enumerate(tools):
        if not isinstance(tool, dict):
            raise InvalidRequest(f"tools[{i}]", "must be an object")
        if isinstance(tool.get("function"), dict):
            fn, where = tool["function"], f"tools[{i}].function"
            converted = tool
        else:
            fn, where = tool, f"tools[{i}]"
            converted = {"type": "function", "function": {k: v for k, v in tool.items() if k != "type"}}
        if not isinstance(fn.get("name"), str) or not fn["name"]:
            raise InvalidRequest(f"{where}.name", "must be a non-empty string")
        if "parameters" in fn and not isinstance(fn["parameters"], dict):
            raise InvalidRequest(f"{where}.parameters", "must be a JSON Schema object")
        out.append(converted)
    return out or None


def _responses_messages(body, keep_parts, warnings, keep_strings):
    messages = []
    if body.get("instructions") is not None:
        messages.append({"role": "system", "content": body["instructions"]})
    items = body["input"]
    if isinstance(items, str):
        messages.append({"role": "user", "content": items})
        return messages
    pending_reasoning = None
    call_names = {}
    for i, item in enumerate(items):
        kind = item.get("type")
        if kind == "reasoning":
            texts = [p.get("text", "") for p in item.get("summary") or []]
            pending_reasoning = "\n".join(texts)
            continue
        if kind == "function_call":
            args = _arguments(item.get("arguments"), warnings, f"input[{i}].arguments", keep_strings)
            call = {"id": item["call_id"], "type": "function", "function": {"name": item["name"], "arguments": args}}
            call_names[item["call_id"]] = item["name"]
            if messages and messages[-1]["role"] == "assistant" and messages[-1].get("_from_items"):
                messages[-1].setdefault("tool_calls", []).append(call)
            else:
                msg = {"role": "assistant", "content": "", "tool_calls": [call], "_from_items": True}
                if pending_reasoning is not None:
                    msg["reasoning_content"] = pending_reasoning
                    pending_reasoning = None
                messages.append(msg)
            continue
        if kind == "function_call_output":
            out = item.get("output")
            msg = {"role": "tool", "tool_call_id": item["call_id"]}
            if item["call_id"] in call_names:
                msg["name"] = call_names[item["call_id"]]
            msg["content"] = _content(out, keep_parts)
            messages.append(msg)
            continue
        if kind in (None, "message") and "role" in item:
            role = item["role"]
            if role not in ROLES:
                raise InvalidRequest(f"input[{i}].role", f"unknown role {role!r}")
            msg = {"role": role, "content": _content(item.get("content"), keep_parts)}
            if role == "assistant":
                msg["_from_items"] = True
                if msg["content"] is None:
                    msg["content"] = ""
                if pending_reasoning is not None:
                    msg["reasoning_content"] = pending_reasoning
                    pending_reasoning = None
            messages.append(msg)
            continue
        raise InvalidRequest(f"input[{i}].type", f"unsupported item type {kind!r}")
    for m in messages:
        m.pop("_from_items", None)
    return messages


def _chat_messages(body, keep_parts, warnings, keep_strings):
    if not isinstance(body["messages"], list):
        raise InvalidRequest("messages", "must be an array")
    messages = []
    call_names = {}
    for i, src in enumerate(body["messages"]):
        msg = copy.deepcopy(src)
        role = msg.get("role")
        if role not in ROLES:
            raise InvalidRequest(f"messages[{i}].role", f"unknown role {role!r}")
        if role == "assistant" and msg.get("content") is None:
            msg["content"] = ""
        if "content" in msg:
            msg["content"] = _content(msg["content"], keep_parts)
        for j, call in enumerate(msg.get("tool_calls") or []):
            fn = call.get("function") or {}
            if "arguments" in fn:
                fn["arguments"] = _arguments(fn["arguments"], warnings, f"messages[{i}].tool_calls[{j}].function.arguments", keep_strings)
            if "id" in call:
                call_names[call["id"]] = fn.get("name")
        if role == "tool" and "tool_call_id" in msg:
            if msg["tool_call_id"] not in call_names:
                raise InvalidRequest(f"messages[{i}].tool_call_id", f"matches no earlier tool call ({msg['tool_call_id']!r})")
            if "name" not in msg:
                msg["name"] = call_names[msg["tool_call_id"]]
        messages.append(msg)
    return messages


def normalize(body, template_source, render_probe):
    """Returns (messages, tools, warnings). `render_probe(messages)` renders with the target template."""
    keep_parts = reads_content_parts(render_probe)
    keep_strings = reads_arguments_as_string(render_probe)
    warnings = []
    if "messages" in body:
        messages = _chat_messages(body, keep_parts, warnings, keep_strings)
    elif "input" in body:
        messages = _responses_messages(body, keep_parts, warnings, keep_strings)
    else:
        raise InvalidRequest("messages", "is required (or `input` for a Responses body)")
    if "developer" not in template_source:
        for m in messages:
            if m["role"] == "developer":
                m["role"] = "system"
    return messages, _tools(body.get("tools")), warnings
