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


def _role_ok(role, source):
    """The six OpenAI roles, or one the template names as a string literal ('ipython', "observation")."""
    return isinstance(role, str) and (role in ROLES or (role != "" and (f"'{role}'" in source or f'"{role}"' in source)))


def _check_content(content, field):
    if content is not None and not isinstance(content, (str, list)):
        raise InvalidRequest(field, "must be a string, null or an array of content parts")


def _check_call(call, where):
    """A tool call's function: an object with a non-empty string name and string or object arguments."""
    if not isinstance(call, dict):
        raise InvalidRequest(where, "a tool call must be an object")
    fn = call.get("function")
    if not isinstance(fn, dict):
        raise InvalidRequest(f"{where}.function", "must be an object with name and arguments")
    if not isinstance(fn.get("name"), str) or not fn["name"]:
        raise InvalidRequest(f"{where}.function.name", "must be a non-empty string")
    if not isinstance(fn.get("arguments"), (str, dict)):
        raise InvalidRequest(f"{where}.function.arguments", "must be a JSON string (or an object)")


def _assistant_content(msg, content_none):
    """Spec 3: empty assistant content is "", or None for a message with calls when the template needs it."""
    if msg.get("content") in (None, ""):
        msg["content"] = None if (msg.get("tool_calls") and content_none) else ""
TEXT_PART_TYPES = {"text", "input_text", "output_text"}
PROBE = "CHATWIRE_PROBE"


class InvalidRequest(Exception):
    """A malformed request; `field` is the JSON path the TypeScript error must name."""

    def __init__(self, field, message):
        super().__init__(f"{field}: {message}")
        self.field = field


def _prints_part_text(render, messages):
    try:
        out = render(messages, None)
    except Exception:
        return False
    return PROBE in out and f"'text': '{PROBE}'" not in out and f'"text": "{PROBE}"' not in out


def reads_content_parts(render):
    """Spec 7: a probe render decides whether the template prints content parts itself (in user turns)."""
    return _prints_part_text(render, [{"role": "user", "content": [{"type": "text", "text": PROBE}]}])


def part_role(role):
    """The role whose parts probe decides for `role`: developer is probed as system, tool-result roles
    (tool, function, ipython...) as tool."""
    if role in ("user", "assistant", "system"):
        return role
    return "system" if role == "developer" else "tool"


def reads_content_parts_in(render, role):
    """Spec 7 per role: only the message in `role` has text parts (a system turn before a user turn, an
    assistant answer after one, a tool result answering the probe's first call in the probed shape)."""
    role = part_role(role)
    if role == "user":
        return reads_content_parts(render)
    parts = [{"type": "text", "text": PROBE}]
    if role == "system":
        return _prints_part_text(render, [{"role": "system", "content": parts}, {"role": "user", "content": "x"}])
    if role == "assistant":
        return _prints_part_text(render, [{"role": "user", "content": "x"}, {"role": "assistant", "content": parts}])
    history = _call_history(*probed_shape(render))
    call_id, name = PROBE_CALLS[0][0], PROBE_CALLS[0][1]
    return _prints_part_text(render, history[:2] + [{"role": "tool", "tool_call_id": call_id, "content": parts, "name": name}])


def parts_reader(render):
    """role -> whether text parts are kept as a list for messages in that role (probed once per role)."""
    answers = {}

    def keep(role):
        key = part_role(role)
        if key not in answers:
            answers[key] = reads_content_parts_in(render, key)
        return answers[key]

    return keep


def _is_text_parts(content):
    return isinstance(content, list) and all(
        isinstance(p, dict) and p.get("type") in TEXT_PART_TYPES and isinstance(p.get("text"), str) for p in content
    )


def _content(content, keep_parts, role):
    """Spec 7 for a message in `role`; `keep_parts(role)` is asked only for a list of parts."""
    if not isinstance(content, list):
        return content
    if _is_text_parts(content) and not keep_parts(role):
        return "\n".join(p["text"] for p in content)
    out = []
    for p in content:
        if isinstance(p, dict) and p.get("type") in ("input_text", "output_text"):
            p = {**p, "type": "text"}
        out.append(p)
    return out


# Spec 3/4 and their exception: the shapes an assistant tool call can take, in order of preference
# (content_none, arguments_as_string). The first under which transformers prints every call of a probe
# history wins; none: the first (the template cannot print calls; the polyfill then writes them as text).
SHAPES = [(False, False), (False, True), (True, False), (True, True)]
PROBE_TOOL = {
    "type": "function",
    "function": {"name": "chatwire_probe_defined", "description": "CHATWIRE_PROBE_DESCRIPTION", "parameters": {"type": "object", "properties": {}}},
}
PROBE_CALLS = [
    ("a1b2c3d4e", "chatwire_probe_one", "chatwire_key_one", "CHATWIRE_VALUE_ONE", "CHATWIRE_RESULT_ONE"),
    ("f5g6h7i8j", "chatwire_probe_two", "chatwire_key_two", "CHATWIRE_VALUE_TWO", "CHATWIRE_RESULT_TWO"),
]


def _call_history(content_none, as_string):
    messages = [{"role": "user", "content": "x"}]
    for call_id, name, key, value, result in PROBE_CALLS:
        args = json.dumps({key: value}) if as_string else {key: value}
        messages.append({"role": "assistant", "content": None if content_none else "",
                         "tool_calls": [{"id": call_id, "type": "function", "function": {"name": name, "arguments": args}}]})
        # A result as rule 5 hands it over: with the called function's name (functionary v2.2 prints it).
        messages.append({"role": "tool", "tool_call_id": call_id, "content": result, "name": name})
    return messages


def _try_render(render, messages, tools=None):
    try:
        return render(messages, tools)
    except Exception:
        return None


def _shows_every_call(out):
    return out is not None and all(n in out and k in out and v in out for _, n, k, v, _ in PROBE_CALLS)


def _parallel_history(content_none, as_string):
    """The probe history with both calls in one assistant message, both answered."""
    seq = _call_history(content_none, as_string)
    calls = [c for m in seq for c in m.get("tool_calls", [])]
    return [seq[0], {"role": "assistant", "content": None if content_none else "", "tool_calls": calls}] + [m for m in seq if m["role"] == "tool"]


def tool_probe(render):
    """{"shape": (content_none, as_string) or None, "one_per_message": bool, "results": bool}: the first
    shape under which every probe call (name, argument key and value) is printed, whether two calls in
    one message are not both printed in it (they are then split), and whether tool results are printed."""
    first = None
    for shape in SHAPES:
        out = _try_render(render, _call_history(*shape), [PROBE_TOOL])
        if shape == SHAPES[0]:
            first = out
        if _shows_every_call(out):
            parallel = _try_render(render, _parallel_history(*shape), [PROBE_TOOL])
            return {"shape": shape, "one_per_message": not _shows_every_call(parallel), "results": all(r in out for *_, r in PROBE_CALLS)}
    return {"shape": None, "one_per_message": False, "results": first is not None and all(r in first for *_, r in PROBE_CALLS)}


def calls_one_per_message(render):
    return tool_probe(render)["one_per_message"]


def _split_calls(messages, content_none):
    """Spec 3b: for templates that print one call per message, a message with several calls becomes one
    message per call (the first keeps its other fields; the rest are {role, content, tool_calls})."""
    out = []
    for m in messages:
        calls = m.get("tool_calls")
        if m["role"] != "assistant" or not isinstance(calls, list) or len(calls) < 2:
            out.append(m)
            continue
        out.append({**m, "tool_calls": [calls[0]]})
        for call in calls[1:]:
            out.append({"role": "assistant", "content": None if content_none else "", "tool_calls": [call]})
    return out


PROBE_SYSTEM = "You are a helpful assistant."


def renders_tool_definitions(render, after_system=False):
    """The probe tool's name is printed; `after_system`: in a conversation that starts with a system
    message (functiongemma prints the tools only inside one). A template that raises on that one
    (granite 20b fc rejects every system message) keeps the answer without it."""
    lead = [{"role": "system", "content": PROBE_SYSTEM}] if after_system else []
    out = _try_render(render, lead + [{"role": "user", "content": "x"}], [PROBE_TOOL])
    if out is None and after_system:
        return renders_tool_definitions(render)
    return out is not None and PROBE_TOOL["function"]["name"] in out


def leads_with_system(messages):
    """The normalised conversation starts with a system (or developer) message."""
    return bool(messages) and messages[0].get("role") in ("system", "developer")


def reads_arguments_as_string(render):
    shape = tool_probe(render)["shape"]
    return shape is not None and shape[1]


def call_content_as_none(render):
    shape = tool_probe(render)["shape"]
    return shape is not None and shape[0]


def _arguments(args, warnings, field, keep_strings=False):
    if keep_strings:
        return json.dumps(args, ensure_ascii=False) if isinstance(args, dict) else args
    if not isinstance(args, str):
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
        if any(t["function"]["name"] == fn["name"] for t in out):
            raise InvalidRequest(f"{where}.name", "duplicate tool name")
        out.append(converted)
    return out or None


def _responses_messages(body, keep_parts, warnings, keep_strings, source, content_none):
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
            if not isinstance(item.get("arguments"), (str, dict)):
                raise InvalidRequest(f"input[{i}].arguments", "must be a JSON string (or an object)")
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
            _check_content(out, f"input[{i}].output")
            msg = {"role": "tool", "tool_call_id": item["call_id"]}
            if item["call_id"] in call_names:
                msg["name"] = call_names[item["call_id"]]
            msg["content"] = _content(out, keep_parts, "tool")
            messages.append(msg)
            continue
        if kind in (None, "message") and "role" in item:
            role = item["role"]
            if not _role_ok(role, source):
                raise InvalidRequest(f"input[{i}].role", f"unknown role {role!r}")
            _check_content(item.get("content"), f"input[{i}].content")
            msg = {"role": role, "content": _content(item.get("content"), keep_parts, role)}
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
        if m["role"] == "assistant":
            _assistant_content(m, content_none)
    return messages


def _chat_messages(body, keep_parts, warnings, keep_strings, source, content_none):
    if not isinstance(body["messages"], list):
        raise InvalidRequest("messages", "must be an array")
    messages = []
    call_names = {}
    for i, src in enumerate(body["messages"]):
        if not isinstance(src, dict):
            raise InvalidRequest(f"messages[{i}]", "a message must be an object")
        msg = copy.deepcopy(src)
        role = msg.get("role")
        if not _role_ok(role, source):
            raise InvalidRequest(f"messages[{i}].role", f"unknown role {role!r}")
        if "content" in msg:
            _check_content(msg["content"], f"messages[{i}].content")
            msg["content"] = _content(msg["content"], keep_parts, role)
        calls = msg.get("tool_calls")
        if calls is not None and not isinstance(calls, list):
            raise InvalidRequest(f"messages[{i}].tool_calls", "must be an array of tool calls")
        for j, call in enumerate(calls or []):
            _check_call(call, f"messages[{i}].tool_calls[{j}]")
            fn = call["function"]
            fn["arguments"] = _arguments(fn["arguments"], warnings, f"messages[{i}].tool_calls[{j}].function.arguments", keep_strings)
            if "id" in call:
                call_names[call["id"]] = fn.get("name")
        if role == "assistant":
            _assistant_content(msg, content_none)
        if role == "tool" and "tool_call_id" in msg:
            if msg["tool_call_id"] not in call_names:
                raise InvalidRequest(f"messages[{i}].tool_call_id", f"matches no earlier tool call ({msg['tool_call_id']!r})")
            if "name" not in msg:
                msg["name"] = call_names[msg["tool_call_id"]]
        messages.append(msg)
    return messages


def probed_shape(render_probe):
    """The tool-call shape the probe picked, or the first when no shape prints the probe's calls."""
    return tool_probe(render_probe)["shape"] or SHAPES[0]


def has_calls(messages):
    """A normalised conversation with an assistant tool call: the only kind whose render the shape changes."""
    return any(m.get("role") == "assistant" and m.get("tool_calls") for m in messages)


def normalize(body, template_source, render_probe, shape=None):
    """Returns (messages, tools, warnings). `render_probe(messages)` renders with the target template.
    `shape` (content_none, as_string) overrides the probed tool-call shape (the render's fallback)."""
    keep_parts = parts_reader(render_probe)
    probed = tool_probe(render_probe)
    content_none, keep_strings = shape or probed_shape(render_probe)
    warnings = []
    if "messages" in body:
        messages = _chat_messages(body, keep_parts, warnings, keep_strings, template_source, content_none)
    elif "input" in body:
        messages = _responses_messages(body, keep_parts, warnings, keep_strings, template_source, content_none)
    else:
        raise InvalidRequest("messages", "is required (or `input` for a Responses body)")
    if probed["one_per_message"]:
        messages = _split_calls(messages, content_none)
    if "developer" not in template_source:
        for m in messages:
            if m["role"] == "developer":
                m["role"] = "system"
    return messages, _tools(body.get("tools")), warnings
