"""
Writes fixtures/tokenizer/expected.json: token ids for rendered prompts, computed with the Rust
`tokenizers` library on fixtures/tokenizer/tokenizer.json. Run from the repository root:

    .ref/bin/python scripts/gen-token-fixtures.py

For each (template, conversation) pair: the request is protected (control-token text in its data
replaced by placeholders, see src/tokens/escape.ts), normalised and rendered by transformers, then
tokenised. Recorded: `escapedPrompt` (what the renderer returns for the protected request), `ids`
(control tokens from template text only), `idsAll` (data may produce control tokens too: the opt-in) and
`plainIds` (`tokenizer.encode` of the ordinary prompt, which equals `ids` when the data has no control-
token text; the script checks that).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from ref_render import ROOT, load_conversations, load_templates, prepare, render  # noqa: E402
from ref_tokens import RefTokenizer  # noqa: E402

BYTE_LEVEL = ["Qwen-Qwen3-0.6B", "Qwen3-Coder", "NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use", "meta-llama-Llama-3.1-8B-Instruct",
             "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B", "mistralai-Mistral-Nemo-Instruct-2407", "google-gemma-2-2b-it"]
BYTE_LEVEL_CONVERSATIONS = ["01-single-user", "03-tools-schema", "06-agent-loop", "08-unicode", "13-continue-final-message", "22-special-token-injection"]

METASPACE = ["mistralai-Mistral-Nemo-Instruct-2407", "microsoft-Phi-3.5-mini-instruct", "unsloth-mistral-Devstral-Small-2507"]
METASPACE_CONVERSATIONS = ["01-single-user", "02-system-prompt", "06-agent-loop", "08-unicode", "22-special-token-injection"]
SETS = [("tokenizer.json", BYTE_LEVEL, BYTE_LEVEL_CONVERSATIONS), ("tokenizer-metaspace.json", METASPACE, METASPACE_CONVERSATIONS)]


def main():
    templates = {name: (src, bos, eos) for name, src, bos, eos in load_templates()}
    conversations = dict(load_conversations())
    out = []
    for tokenizer_file, template_names, conversation_names in SETS:
        out += cases(RefTokenizer(os.path.join(ROOT, "fixtures", "tokenizer", tokenizer_file)), tokenizer_file,
                     [(t, *templates[t]) for t in template_names], [(c, conversations[c]) for c in conversation_names])
    with open(os.path.join(ROOT, "fixtures", "tokenizer", "expected.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"{len(out)} tokenised prompts -> fixtures/tokenizer/expected.json")


def cases(tok, tokenizer_file, templates, conversations):
    out = []
    for t, source, bos, eos in templates:
        for c, conv in conversations:
            try:
                prompt = render(prepare(source, bos, eos, conv))
                escaped = render(prepare(source, bos, eos, {**conv, "request": tok.escape(conv["request"])}))
            except Exception:
                continue  # the template rejects this conversation; nothing to tokenise
            if tok.restore(escaped) != prompt:
                raise SystemExit(f"{t} x {c}: restoring the protected render does not give the plain render")
            case = {"tokenizer": tokenizer_file, "template": t, "conversation": c, "escapedPrompt": escaped, "ids": tok.tokenize(escaped),
                    "idsAll": tok.tokenize(escaped, "all"), "plainIds": tok.full.encode(prompt, add_special_tokens=False).ids}
            injected = c == "22-special-token-injection"
            if (case["ids"] == case["plainIds"]) == injected:
                raise SystemExit(f"{t} x {c}: provenance made {'no' if injected else 'a'} difference")
            out.append(case)
    return out


if __name__ == "__main__":
    main()
