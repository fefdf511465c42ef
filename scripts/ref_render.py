"""
Renders (template, conversation) pairs exactly as transformers does, for the fixture and benchmark scripts.
The clock behind `strftime_now` is pinned (2026-01-02 03:04:05) by replacing the `datetime` the
transformers module looks up at call time, so dated templates (Llama 3.x, gpt-oss...) are reproducible.
"""
import datetime as _dt
import hashlib
import json
import os

from transformers.utils import chat_template_utils as ctu

import ref_polyfill
from ref_normalize import SHAPES, InvalidRequest, has_calls, leads_with_system, normalize, probed_shape, renders_tool_definitions, tool_probe

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))
TEMPLATES = os.path.join(ROOT, "fixtures", "templates")
REAL_CONFIGS = os.path.join(ROOT, "fixtures", "real-configs")
SPECIAL_TOKENS = ["bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token"]
CONVERSATIONS = os.path.join(ROOT, "fixtures", "conversations")
FIXED_NOW = _dt.datetime(2026, 1, 2, 3, 4, 5)


class _PinnedDatetime(_dt.datetime):
    @classmethod
    def now(cls, tz=None):
        return FIXED_NOW


ctu.datetime = _PinnedDatetime


def load_templates():
    """[(name, source, bos, eos)] for every fixture template, sorted by name."""
    with open(os.path.join(TEMPLATES, "special-tokens.json"), encoding="utf-8") as f:
        table = json.load(f)
    out = []
    for file in sorted(os.listdir(TEMPLATES)):
        if not file.endswith(".jinja"):
            continue
        name = file[: -len(".jinja")]
        with open(os.path.join(TEMPLATES, file), encoding="utf-8") as f:
            source = f.read()
        tokens = table["templates"].get(name, table["default"])
        out.append((name, source, tokens["bos_token"], tokens["eos_token"]))
    return out


def load_real_configs():
    """[(name, source, bos, eos, extra)] for the published tokenizer_config.json files in
    fixtures/real-configs/<name>/ (named `real-<name>`): every special token the config sets, as
    transformers' apply_chat_template passes them (`extra` holds the ones besides bos/eos)."""
    out = []
    for name in sorted(os.listdir(REAL_CONFIGS)):
        path = os.path.join(REAL_CONFIGS, name, "tokenizer_config.json")
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8") as f:
            config = json.load(f)
        tokens = {}
        for key in SPECIAL_TOKENS:
            value = config.get(key)
            if isinstance(value, dict):
                value = value.get("content")
            if isinstance(value, str):
                tokens[key] = value
        bos, eos = tokens.pop("bos_token", None), tokens.pop("eos_token", None)
        out.append(("real-" + name, config["chat_template"], bos, eos, tokens))
    return out


def load_conversations():
    """[(name, {"request", "options"})] for every fixture conversation, sorted by name."""
    out = []
    for file in sorted(os.listdir(CONVERSATIONS)):
        if file.endswith(".json"):
            with open(os.path.join(CONVERSATIONS, file), encoding="utf-8") as f:
                out.append((file[: -len(".json")], json.load(f)))
    return out


def prober(source, bos, eos, extra=None):
    """The probe render the spec rules use (content parts, tool-call shape, tool definitions): messages
    and tools (None unless given), no generation prompt."""
    tokens = _token_kwargs(bos, eos, extra)

    def probe(messages, tools=None):
        rendered, _ = ctu.render_jinja_template(
            conversations=[messages], tools=tools, chat_template=source, add_generation_prompt=False, **tokens
        )
        return rendered[0]

    return probe


def request_variables(body):
    """Spec rule 10: top-level `documents`, `reasoning_effort` (else Responses `reasoning.effort`), then
    `chat_template_kwargs`, which win; the caller's explicit variables win over all of them."""
    out = {}
    if body.get("documents") is not None:
        if not isinstance(body["documents"], list):
            raise InvalidRequest("documents", "must be an array of documents")
        for i, doc in enumerate(body["documents"]):
            if not isinstance(doc, dict):
                raise InvalidRequest(f"documents[{i}]", "must be an object")
        out["documents"] = body["documents"]
    if body.get("reasoning_effort") is not None:
        if not isinstance(body["reasoning_effort"], str):
            raise InvalidRequest("reasoning_effort", "must be a string")
        out["reasoning_effort"] = body["reasoning_effort"]
    elif body.get("reasoning") is not None:
        if not isinstance(body["reasoning"], dict):
            raise InvalidRequest("reasoning", "must be an object")
        effort = body["reasoning"].get("effort")
        if effort is not None:
            if not isinstance(effort, str):
                raise InvalidRequest("reasoning.effort", "must be a string")
            out["reasoning_effort"] = effort
    if body.get("chat_template_kwargs") is not None:
        out.update(body["chat_template_kwargs"])
    return out


def probed_caps(probe):
    """The tool caps the polyfill reads, probed with transformers."""
    tools = tool_probe(probe)
    return {
        "rendersToolDefinitions": renders_tool_definitions(probe),
        "rendersToolDefinitionsAfterSystem": renders_tool_definitions(probe, after_system=True),
        "rendersToolCalls": tools["shape"] is not None,
        "rendersToolResults": tools["results"],
    }


def caps_for(caps, messages):
    """The caps a request's polyfill plan reads: a conversation that starts with a system message takes
    the definitions answer probed after one."""
    if not leads_with_system(messages):
        return caps
    return {**caps, "rendersToolDefinitions": caps["rendersToolDefinitionsAfterSystem"]}


def _token_kwargs(bos, eos, extra):
    out = {k: v for k, v in (("bos_token", bos), ("eos_token", eos)) if v is not None}
    out.update(extra or {})
    return out


def prepare(source, bos, eos, conversation, extra=None, polyfill=False, shape=None):
    """Normalises the request for this template; returns the kwargs render_jinja_template takes.
    `polyfill`: rewrite as `polyfill: "auto"` does (docs/polyfills.md), from caps probed here.
    `shape`: the tool-call shape (content_none, as_string) instead of the probed one."""
    tokens = _token_kwargs(bos, eos, extra)
    probe = prober(source, bos, eos, extra)
    options = conversation.get("options", {})
    body = conversation["request"]
    messages, tools, _warnings = normalize(body, source, probe, shape)
    if polyfill:
        the_plan = ref_polyfill.plan(bool(tools), ref_polyfill.has_history_calls(messages), caps_for(probed_caps(probe), messages))
        if the_plan is not None:
            parallel = body.get("parallel_tool_calls") is not False
            messages = ref_polyfill.rewrite(messages, tools, body.get("tool_choice"), parallel, the_plan, ref_polyfill.supports_system(probe))
            if the_plan["json_block"]:
                tools = None
    variables = {**request_variables(body), **options.get("variables", {})}
    return dict(
        conversations=[messages],
        tools=tools,
        chat_template=source,
        add_generation_prompt=options.get("addGenerationPrompt", True),
        continue_final_message=options.get("continueFinalMessage", False),
        **tokens,
        **variables,
    )


def render(kwargs):
    rendered, _ = ctu.render_jinja_template(**kwargs)
    return rendered[0]


def _normalized(kwargs):
    return {"messages": kwargs["conversations"][0], "tools": kwargs["tools"]}


def expected(source, bos, eos, conversation, extra=None, polyfill=False):
    """(result, normalized): result is {"prompt": str} or {"error": str, "kind": str}, what the reference
    does with this pair; normalized is {"messages", "tools"} handed to the template (None if the request
    itself was rejected).

    The render's fallback (spec rule 3c): when the template raises on a conversation with tool calls in
    the probed shape, the other shapes are tried in SHAPES order, and the first that renders wins
    (result["shape"] names it); when every shape raises, the probed shape's error stands. A recursion
    limit is not a shape problem: it is reported at once."""
    try:
        kwargs = prepare(source, bos, eos, conversation, extra, polyfill)
    except InvalidRequest as e:
        return {"error": e.field, "kind": "invalid_request"}, None
    normalized = _normalized(kwargs)
    try:
        return {"prompt": render(kwargs)}, normalized
    except Exception as e:  # the template raised (raise_exception, a Jinja or Python error)
        first = {"error": str(e), "kind": type(e).__name__}
        probe = prober(source, bos, eos, extra)
        # Calls of the normalised request, before any polyfill rewrite turned them into text.
        if isinstance(e, RecursionError) or not has_calls(normalize(conversation["request"], source, probe)[0]):
            return first, normalized
    probed = probed_shape(probe)
    for shape in SHAPES:
        if shape == probed:
            continue
        retry = prepare(source, bos, eos, conversation, extra, polyfill, shape)
        try:
            prompt = render(retry)
        except Exception:
            continue
        return {"prompt": prompt, "shape": {"contentNone": shape[0], "argumentsAsString": shape[1]}}, _normalized(retry)
    return first, normalized


def shape_results(source, bos, eos, conversation, extra=None):
    """For a request with tool calls that the normaliser accepts: what transformers does with it in every
    tool-call shape (SHAPES order, no fallback, no polyfill), each {"sha256": the prompt's first 16 hex
    digits} or {"error": str, "kind": str}. None for a request without calls or one rejected as invalid."""
    probe = prober(source, bos, eos, extra)
    try:
        if not has_calls(normalize(conversation["request"], source, probe)[0]):
            return None
    except InvalidRequest:
        return None
    out = []
    for shape in SHAPES:
        try:
            prompt = render(prepare(source, bos, eos, conversation, extra, False, shape))
            out.append({"sha256": hashlib.sha256(prompt.encode("utf-8")).hexdigest()[:16]})
        except Exception as e:
            out.append({"error": str(e), "kind": type(e).__name__})
    return out
