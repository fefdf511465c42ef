"""
An independent Python mirror of the tool polyfill as docs/polyfills.md specifies it, for the fixtures
of renders with `polyfill: "auto"`. What to add is decided from caps this script probes with
transformers itself (ref_normalize.tool_probe, renders_tool_definitions, supports_system), never from
chatwire's answers; the wording is the documented one.
"""
import json

PROBE = "CHATWIRE_PROBE"


def _dumps(value):
    # Python's json.dumps defaults (", " / ": "), non-ASCII kept: what docs/polyfills.md specifies.
    return json.dumps(value, ensure_ascii=False)


def supports_system(render):
    try:
        out = render([{"role": "system", "content": PROBE}, {"role": "user", "content": "Hi"}], None)
    except Exception:
        return False
    return PROBE in out


def plan(has_tools, has_calls, caps):
    """What `auto` adds: {definitions, json_block, calls, results}, or None for nothing."""
    if not has_tools and not has_calls:
        return None
    calls = has_calls and not caps["rendersToolCalls"]
    results = has_calls and (calls or not caps["rendersToolResults"])
    definitions = has_tools and not caps["rendersToolDefinitions"]
    if not (definitions or calls or results):
        return None
    return {"definitions": definitions, "json_block": definitions and not caps["rendersToolCalls"], "calls": calls, "results": results}


def has_history_calls(messages):
    return any(m.get("tool_calls") or m.get("role") == "tool" for m in messages)


def _tool_line(tool):
    fn = tool["function"]
    entry = {"name": fn["name"]}
    if "description" in fn:
        entry["description"] = fn["description"]
    entry["parameters"] = fn.get("parameters") if fn.get("parameters") is not None else {"type": "object", "properties": {}}
    return _dumps(entry)


def _choice_line(choice, parallel):
    if choice == "none":
        return "Do not call any tool in your next answer; answer in plain text."
    if choice == "required":
        return "You must call at least one tool in your next answer." + ("" if parallel else " Call exactly one.")
    if isinstance(choice, dict):
        fn = choice.get("function") if isinstance(choice.get("function"), dict) else choice
        return f"You must call the tool {json.dumps(fn['name'])} in your next answer."
    return "Call tools only when they help." if parallel else "Call tools only when they help, and at most one at a time."


def _call_json(name, args):
    return _dumps({"name": name, "arguments": args if args is not None else {}})


def instructions(tools, choice, parallel, json_block):
    lines = ["You have access to the following tools:", *map(_tool_line, tools), ""]
    if json_block:
        lines += [
            "To call a tool, answer with a fenced JSON block that holds the call:",
            "```json",
            _call_json("tool_name", {"argument": "value"}),
            "```",
            "To call several tools at once, put a JSON list of such objects in one block. Write the block last; "
            'the tool results will come back in the next message, each starting with "Tool result". '
            "When no tool is needed, answer normally, without a JSON block.",
        ]
    lines.append(_choice_line(choice, parallel))
    return "\n".join(lines)


def _text(content):
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return "" if content is None else str(content)


def _join(*parts):
    return "\n\n".join(p for p in parts if p != "")


def _calls_block(calls):
    objects = [_call_json(c.get("function", {}).get("name"), c.get("function", {}).get("arguments")) for c in calls]
    body = objects[0] if len(objects) == 1 else "[" + ", ".join(objects) + "]"
    return f"```json\n{body}\n```"


def _result_text(name, call_id, content):
    who = ""
    if isinstance(name, str) and name:
        who = f" ({name}" + (f", {call_id}" if isinstance(call_id, str) else "") + ")"
    return f"Tool result{who}:\n{content}"


def rewrite(messages, tools, choice, parallel, the_plan, system_ok):
    """The messages the template is given (docs/polyfills.md "What the template is given")."""
    text = instructions(tools or [], choice, parallel, the_plan["json_block"]) if the_plan["definitions"] else ""
    out = []
    from_tool = []  # per entry of `out`: made from tool results (merges with neighbouring user text)
    system = None

    def push_user(msg, is_result):
        if out and out[-1]["role"] == "user" and (is_result or from_tool[-1]):
            out[-1] = {**out[-1], "content": _join(_text(out[-1].get("content")), _text(msg.get("content")))}
            from_tool[-1] = True
            return
        out.append(msg)
        from_tool.append(is_result)

    def push(msg):
        out.append(msg)
        from_tool.append(False)

    for m in messages:
        role = m["role"]
        if role == "system" and system is None and not out and the_plan["definitions"]:
            system = _join(_text(m.get("content")), text)
            if system_ok:
                push({**m, "content": system})
        elif the_plan["calls"] and role == "assistant" and m.get("tool_calls"):
            rest = {k: v for k, v in m.items() if k != "tool_calls"}
            push({**rest, "content": _join(_text(m.get("content")), _calls_block(m["tool_calls"]))})
        elif the_plan["results"] and role in ("tool", "function"):
            push_user({"role": "user", "content": _result_text(m.get("name"), m.get("tool_call_id"), _text(m.get("content")))}, True)
        elif role == "user" or (role == "system" and not system_ok and the_plan["definitions"]):
            push_user({**m, "role": "user"}, False)
        else:
            push(m)
    if not the_plan["definitions"]:
        return out
    if system is None:
        system = text
        if system_ok:
            out.insert(0, {"role": "system", "content": system})
    if not system_ok:
        first = next((i for i, m in enumerate(out) if m["role"] == "user"), None)
        if first is None:
            out.insert(0, {"role": "user", "content": system})
        else:
            out[first] = {**out[first], "content": _join(system, _text(out[first].get("content")))}
    return out
