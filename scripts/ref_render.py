"""
Renders (template, conversation) pairs exactly as transformers does, for the fixture and benchmark scripts.
The clock behind `strftime_now` is pinned (2026-01-02 03:04:05) by replacing the `datetime` the
transformers module looks up at call time, so dated templates (Llama 3.x, gpt-oss...) are reproducible.
"""
import datetime as _dt
import json
import os

from transformers.utils import chat_template_utils as ctu

from ref_normalize import InvalidRequest, normalize

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))
TEMPLATES = os.path.join(ROOT, "fixtures", "templates")
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


def load_conversations():
    """[(name, {"request", "options"})] for every fixture conversation, sorted by name."""
    out = []
    for file in sorted(os.listdir(CONVERSATIONS)):
        if file.endswith(".json"):
            with open(os.path.join(CONVERSATIONS, file), encoding="utf-8") as f:
                out.append((file[: -len(".json")], json.load(f)))
    return out


def prober(source, bos, eos):
    """The probe render spec rule 7 uses to decide whether a template reads content parts."""
    def probe(messages):
        rendered, _ = ctu.render_jinja_template(
            conversations=[messages], chat_template=source, add_generation_prompt=False, bos_token=bos, eos_token=eos
        )
        return rendered[0]

    return probe


def prepare(source, bos, eos, conversation):
    """Normalises the request for this template; returns the kwargs render_jinja_template takes."""
    probe = prober(source, bos, eos)
    options = conversation.get("options", {})
    messages, tools, _warnings = normalize(conversation["request"], source, probe)
    return dict(
        conversations=[messages],
        tools=tools,
        chat_template=source,
        add_generation_prompt=options.get("addGenerationPrompt", True),
        continue_final_message=options.get("continueFinalMessage", False),
        bos_token=bos,
        eos_token=eos,
        **options.get("variables", {}),
    )


def render(kwargs):
    rendered, _ = ctu.render_jinja_template(**kwargs)
    return rendered[0]


def expected(source, bos, eos, conversation):
    """(result, normalized): result is {"prompt": str} or {"error": str, "kind": str}, what the reference
    does with this pair; normalized is {"messages", "tools"} handed to the template (None if the request
    itself was rejected)."""
    try:
        kwargs = prepare(source, bos, eos, conversation)
    except InvalidRequest as e:
        return {"error": e.field, "kind": "invalid_request"}, None
    normalized = {"messages": kwargs["conversations"][0], "tools": kwargs["tools"]}
    try:
        return {"prompt": render(kwargs)}, normalized
    except Exception as e:  # the template raised (raise_exception, a Jinja or Python error)
        return {"error": str(e), "kind": type(e).__name__}, normalized
