"""
Writes fixtures/gguf/tiny.gguf with gguf-py (the library llama.cpp's converter uses), so the loader is
checked against the real writer's key names and layout, not only against our own test writer:

    .ref/bin/python scripts/gen-gguf-fixture.py

Metadata only (no tensors): a chat template and a `tool_use` variant, a five-token vocabulary, and the
special-token ids as the converter writes them (bos, eos, unknown, seperator [sic], padding).
"""
import os

import gguf

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))
OUT = os.path.join(ROOT, "fixtures", "gguf", "tiny.gguf")

writer = gguf.GGUFWriter(OUT, "llama")
writer.add_tokenizer_model("llama")
writer.add_token_list(["<unk>", "<s>", "</s>", "<sep>", "<pad>"])
writer.add_token_scores([0.0] * 5)
writer.add_token_types([2, 3, 3, 3, 3])
writer.add_bos_token_id(1)
writer.add_eos_token_id(2)
writer.add_unk_token_id(0)
writer.add_sep_token_id(3)
writer.add_pad_token_id(4)
writer.add_chat_template([
    {"name": "default", "template": "{{ bos_token }}{% for m in messages %}{{ m.content }}{{ sep_token }}{% endfor %}{{ pad_token }}|{{ unk_token }}{{ eos_token }}"},
    {"name": "tool_use", "template": "tools:{% for t in tools %}{{ t.function.name }}{% endfor %}"},
])
writer.write_header_to_file()
writer.write_kv_data_to_file()
writer.write_tensors_to_file()
writer.close()
print(f"{os.path.getsize(OUT)} bytes -> {os.path.relpath(OUT, ROOT)}")
