"""
Trains the small, real tokenizers the token-id tests use: a byte-level BPE (GPT-2 / Llama 3 / Qwen style)
and a Metaspace BPE (SentencePiece style, fixtures/tokenizer/tokenizer-metaspace.json) (no model can be downloaded in
this project's environment), and writes them to fixtures/tokenizer/. Run from the repository root:

    .ref/bin/python scripts/gen-tokenizer.py

It is trained on the fixture templates' text (so adding conversations does not change it), with the control tokens those templates write
registered as added tokens (special ones like `<|im_start|>`, and non-special ones like `<tool_call>`,
as Qwen does). Training is deterministic for a fixed input, so re-running reproduces the same file.
"""
import glob
import json
import os

from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers, trainers

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))
OUT = os.path.join(ROOT, "fixtures", "tokenizer")

# Control tokens written by the fixture templates: ChatML (Qwen, Hermes), Llama 3, Mistral, DeepSeek, Gemma.
SPECIAL = [
    "<|endoftext|>", "<|im_start|>", "<|im_end|>",
    "<|begin_of_text|>", "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>", "<|eom_id|>", "<|python_tag|>",
    "<s>", "</s>", "[INST]", "[/INST]", "[TOOL_CALLS]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]",
    "[TOOL_RESULTS]", "[/TOOL_RESULTS]", "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]",
    "<｜begin▁of▁sentence｜>", "<｜end▁of▁sentence｜>", "<｜User｜>", "<｜Assistant｜>",
    "<bos>", "<eos>", "<start_of_turn>", "<end_of_turn>",
]
# Markers that Qwen-style tokenizers register as added but not special tokens.
NON_SPECIAL = ["<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>", "<think>", "</think>"]


def corpus():
    files = sorted(glob.glob(os.path.join(ROOT, "fixtures", "templates", "*.jinja")))
    for path in files:
        with open(path, encoding="utf-8") as f:
            yield f.read()


def write(tok, name):
    data = json.loads(tok.to_str())
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"vocab {tok.get_vocab_size()} -> fixtures/tokenizer/{name}")


def metaspace():
    """A SentencePiece-style tokenizer (Mistral, Llama 2): Metaspace with prepend_scheme "first", whose
    output depends on where a text section sits in the prompt; plus added tokens with lstrip / rstrip."""
    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="first")
    tok.decoder = decoders.Metaspace(replacement="\u2581", prepend_scheme="first")
    trainer = trainers.BpeTrainer(vocab_size=2500, min_frequency=2, show_progress=False, special_tokens=["<unk>"])
    tok.train_from_iterator(corpus(), trainer=trainer)
    tok.add_special_tokens([AddedToken(t, normalized=False, special=True) for t in ["<s>", "</s>", "[INST]", "[/INST]", "[TOOL_CALLS]",
                            "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]", "[TOOL_RESULTS]", "[/TOOL_RESULTS]"]])
    tok.add_special_tokens([AddedToken("<|end|>", normalized=False, special=True, rstrip=True),
                            AddedToken("<|assistant|>", normalized=False, special=True, lstrip=True),
                            AddedToken("<|user|>", normalized=False, special=True)])
    return tok


def main():
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=3000,
        min_frequency=2,
        show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tok.train_from_iterator(corpus(), trainer=trainer)
    tok.add_special_tokens([AddedToken(t, normalized=False, special=True) for t in SPECIAL])
    tok.add_tokens([AddedToken(t, normalized=False, special=False) for t in NON_SPECIAL])
    os.makedirs(OUT, exist_ok=True)
    write(tok, "tokenizer.json")
    write(metaspace(), "tokenizer-metaspace.json")


if __name__ == "__main__":
    main()
