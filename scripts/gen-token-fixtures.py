"""
Writes the token-id fixtures, computed with the Rust `tokenizers` library and transformers. Run from the
repository root:

    .ref/bin/python scripts/gen-token-fixtures.py

1. fixtures/tokenizer/expected.json: the two small trained tokenizers (gen-tokenizer.py) on fixture
   templates x conversations. Per pair: `escapedPrompt` (the render of the request with protected token
   text replaced by placeholders, see src/tokens/escape.ts), `ids` (default protection: data cannot
   produce `special: true` tokens), `idsAdded` (data cannot produce any added token), `idsAll` (data is
   trusted) and `plainIds` (`tokenizer.encode` of the ordinary prompt).
2. fixtures/tokenizer/real/<config>/expected.json: the four published configs (tokenizer.json.gz +
   tokenizer_config.json, see fixtures/tokenizer/real/SOURCES.md) on every fixture conversation plus
   fixtures/tokenizer/conversations. Per rendered conversation: `prompt` (transformers' render), `ids`.
   When the data spells no protected token, `ids` is simply `Tokenizer.encode(prompt,
   add_special_tokens=False)`: the Rust tokenizer's own answer (and the mirror, ref_tokens.py, is checked
   to agree). When it does, `ids` comes from the mirror, and `specialCount` is the number of special ids
   `encode` gives for the same request with that text deleted: the template's own special tokens.
3. fixtures/tokenizer/generation/expected.json: transformers' `apply_chat_template(...,
   return_assistant_tokens_mask=True, return_dict=True)` for a ChatML template with `{% generation %}`
   blocks, with the Qwen3 and Gemma 3 tokenizers: prompt, generation spans (UTF-16 offsets), ids, mask.
"""
import gzip
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from ref_render import ROOT, load_conversations, load_templates, prepare, render  # noqa: E402
from ref_normalize import normalize  # noqa: E402
from ref_tokens import RefTokenizer  # noqa: E402

TOK = os.path.join(ROOT, "fixtures", "tokenizer")
REAL = ["qwen3", "deepseek_v3", "llama3_1", "gemma3"]

BYTE_LEVEL = ["Qwen-Qwen3-0.6B", "Qwen3-Coder", "NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use", "meta-llama-Llama-3.1-8B-Instruct",
             "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B", "mistralai-Mistral-Nemo-Instruct-2407", "google-gemma-2-2b-it"]
BYTE_LEVEL_CONVERSATIONS = ["01-single-user", "03-tools-schema", "06-agent-loop", "08-unicode", "13-continue-final-message", "22-special-token-injection"]
METASPACE = ["mistralai-Mistral-Nemo-Instruct-2407", "microsoft-Phi-3.5-mini-instruct", "unsloth-mistral-Devstral-Small-2507"]
METASPACE_CONVERSATIONS = ["01-single-user", "02-system-prompt", "06-agent-loop", "08-unicode", "22-special-token-injection"]
SETS = [("tokenizer.json", BYTE_LEVEL, BYTE_LEVEL_CONVERSATIONS), ("tokenizer-metaspace.json", METASPACE, METASPACE_CONVERSATIONS)]
MASK_CONFIGS = ["qwen3", "gemma3"]
MASK_CONVERSATIONS = ["01-single-user", "06-agent-loop", "08-unicode", "16-long-conversation", "t1-added-tokens-in-data"]


def write(path, value):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(value, f, ensure_ascii=False, indent=1)
        f.write("\n")


def token_conversations():
    d = os.path.join(TOK, "conversations")
    out = []
    for file in sorted(os.listdir(d)):
        if file.endswith(".json"):
            with open(os.path.join(d, file), encoding="utf-8") as f:
                out.append((file[: -len(".json")], json.load(f)))
    return out


def small_tokenizers():
    templates = {name: (src, bos, eos) for name, src, bos, eos in load_templates()}
    conversations = dict(load_conversations())
    out = []
    for tokenizer_file, template_names, conversation_names in SETS:
        tok = RefTokenizer(os.path.join(TOK, tokenizer_file))
        for t in template_names:
            source, bos, eos = templates[t]
            for c in conversation_names:
                conv = conversations[c]
                try:
                    prompt = render(prepare(source, bos, eos, conv))
                    escaped = render(prepare(source, bos, eos, {**conv, "request": tok.escape(conv["request"])}))
                    escaped_added = render(prepare(source, bos, eos, {**conv, "request": tok.escape(conv["request"], "added")}))
                except Exception:
                    continue  # the template rejects this conversation; nothing to tokenise
                if tok.restore(escaped) != prompt or tok.restore(escaped_added, "added") != prompt:
                    raise SystemExit(f"{t} x {c}: restoring the protected render does not give the plain render")
                case = {"tokenizer": tokenizer_file, "template": t, "conversation": c, "escapedPrompt": escaped,
                        "escapedPromptAdded": escaped_added, "ids": tok.tokenize(escaped), "idsAdded": tok.tokenize(escaped_added, "added"),
                        "idsAll": tok.tokenize(escaped, "none"), "plainIds": tok.full.encode(prompt, add_special_tokens=False).ids}
                injected = c == "22-special-token-injection"
                if (case["ids"] == case["plainIds"]) == injected:
                    raise SystemExit(f"{t} x {c}: provenance made {'no' if injected else 'a'} difference")
                out.append(case)
    write(os.path.join(TOK, "expected.json"), out)
    print(f"{len(out)} tokenised prompts -> fixtures/tokenizer/expected.json")


def load_real(name):
    d = os.path.join(TOK, "real", name)
    with gzip.open(os.path.join(d, "tokenizer.json.gz"), "rt", encoding="utf-8") as f:
        data = json.load(f)
    with open(os.path.join(d, "tokenizer_config.json"), encoding="utf-8") as f:
        config = json.load(f)
    return data, config


def token_text(value):
    return value.get("content") if isinstance(value, dict) else value


def strip_placeholders(value):
    """The request with every placeholder (protected token text in data) deleted."""
    if isinstance(value, str):
        import re
        return re.sub("\ue000[\ue100-\ue4ff][\ue100-\ue4ff]", "", value)
    if isinstance(value, list):
        return [strip_placeholders(v) for v in value]
    if isinstance(value, dict):
        return {k: strip_placeholders(v) for k, v in value.items()}
    return value


def real_configs():
    conversations = load_conversations() + token_conversations()
    for name in REAL:
        data, config = load_real(name)
        tok = RefTokenizer(data=data)
        source = config["chat_template"]
        bos, eos = token_text(config.get("bos_token")), token_text(config.get("eos_token"))
        cases, skipped = [], []
        for c, conv in conversations:
            try:
                prompt = render(prepare(source, bos, eos, conv))
                escaped_request = tok.escape(conv["request"])
                escaped = render(prepare(source, bos, eos, {**conv, "request": escaped_request}))
            except Exception as e:  # the template (or the request rules) reject this conversation
                skipped.append({"conversation": c, "reason": f"{type(e).__name__}: {str(e)[:160]}"})
                continue
            if tok.restore(escaped) != prompt:
                raise SystemExit(f"{name} x {c}: restoring the protected render does not give the plain render")
            encoded = tok.full.encode(prompt, add_special_tokens=False).ids
            case = {"conversation": c, "prompt": prompt}
            if escaped == prompt:
                if tok.tokenize(escaped) != encoded:
                    raise SystemExit(f"{name} x {c}: the mirror disagrees with Tokenizer.encode")
                case["ids"] = encoded
            else:
                case["ids"] = tok.tokenize(escaped)
                clean = render(prepare(source, bos, eos, {**conv, "request": strip_placeholders(escaped_request)}))
                case["specialCount"] = sum(1 for i in tok.full.encode(clean, add_special_tokens=False).ids if i in tok.special_ids)
                case["forgedWithoutProtection"] = sum(1 for i in encoded if i in tok.special_ids) - case["specialCount"]
            cases.append(case)
        write(os.path.join(TOK, "real", name, "expected.json"), {"cases": cases, "skipped": skipped})
        print(f"{name}: {len(cases)} tokenised prompts, {len(skipped)} conversations the template rejects")


def utf16(text, index):
    return len(text[:index].encode("utf-16-le")) // 2


def generation_masks():
    from transformers import AutoTokenizer
    from transformers.utils import chat_template_utils as ctu

    with open(os.path.join(TOK, "generation", "chatml-generation.jinja"), encoding="utf-8") as f:
        source = f.read()
    conversations = dict(load_conversations() + token_conversations())
    out = []
    for name in MASK_CONFIGS:
        data, config = load_real(name)
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "tokenizer.json"), "w", encoding="utf-8") as f:
                json.dump(data, f)
            with open(os.path.join(d, "tokenizer_config.json"), "w", encoding="utf-8") as f:
                json.dump({k: v for k, v in config.items() if k != "chat_template"}, f)
            hf = AutoTokenizer.from_pretrained(d)
        for c in MASK_CONVERSATIONS:
            conv = conversations[c]
            messages, tools, _ = normalize(conv["request"], source, lambda m: "")
            kwargs = dict(tools=tools, chat_template=source, add_generation_prompt=conv.get("options", {}).get("addGenerationPrompt", True))
            rendered, indices = ctu.render_jinja_template(conversations=[messages], return_assistant_tokens_mask=True, **kwargs)
            prompt = rendered[0]
            enc = hf.apply_chat_template(messages, tokenize=True, return_dict=True, return_assistant_tokens_mask=True, **kwargs)
            out.append({"tokenizer": name, "conversation": c, "prompt": prompt,
                        "generation": [[utf16(prompt, s), utf16(prompt, e)] for s, e in indices[0]],
                        "ids": list(enc["input_ids"]), "assistantMask": list(enc["assistant_masks"])})
    write(os.path.join(TOK, "generation", "expected.json"), out)
    print(f"{len(out)} assistant masks -> fixtures/tokenizer/generation/expected.json")


def main():
    small_tokenizers()
    real_configs()
    generation_masks()


if __name__ == "__main__":
    main()
