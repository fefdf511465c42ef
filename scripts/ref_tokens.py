"""
Python mirror of src/tokens (escape placeholders, provenance-aware tokenisation), written from the same
description, with the Rust `tokenizers` library as the encoder. Used to compute the expected token ids.
"""
import json
import re

from tokenizers import Tokenizer

ESC = "\ue000"
BASE = 0xE100
SPAN = 1024
SENTINEL = "\ue4ff\ue4fe\ue4ff"
PLACEHOLDER = re.compile("\ue000([\ue100-\ue4ff])([\ue100-\ue4ff])")


class RefTokenizer:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        self.full = Tokenizer.from_str(json.dumps(data))
        self.plain = Tokenizer.from_str(json.dumps({**data, "added_tokens": []}))
        # Text that follows other sections is encoded after a sentinel added token, so position-dependent
        # pre-tokenizers (Metaspace prepend_scheme "first") see it where it really is: not at offset 0.
        sentinel = {"id": 10**6, "content": SENTINEL, "single_word": False, "lstrip": False, "rstrip": False,
                    "normalized": False, "special": True}
        self.after = Tokenizer.from_str(json.dumps({**data, "added_tokens": [sentinel]}))
        added = sorted(data.get("added_tokens", []), key=lambda t: t["id"])
        self.controls = {t["content"]: t for t in added}
        self.texts = [ESC] + [t["content"] for t in added]
        self.index = {t: i for i, t in reversed(list(enumerate(self.texts)))}
        alternatives = sorted({t for t in self.texts if t}, key=len, reverse=True)
        self.pattern = re.compile("|".join(re.escape(t) for t in alternatives))

    def escape(self, value):
        """Deep copy with every control-token text in string values replaced by its placeholder."""
        if isinstance(value, str):
            return self.pattern.sub(lambda m: self._placeholder(self.index[m.group(0)]), value)
        if isinstance(value, list):
            return [self.escape(v) for v in value]
        if isinstance(value, dict):
            return {k: self.escape(v) for k, v in value.items()}
        return value

    @staticmethod
    def _placeholder(k):
        return ESC + chr(BASE + k // SPAN) + chr(BASE + k % SPAN)

    def restore(self, text):
        def back(m):
            k = (ord(m.group(1)) - BASE) * SPAN + (ord(m.group(2)) - BASE)
            return self.texts[k] if k < len(self.texts) else m.group(0)

        return PLACEHOLDER.sub(back, text)

    def tokenize(self, prompt, special_tokens="template"):
        if special_tokens == "all":
            return self.full.encode(self.restore(prompt), add_special_tokens=False).ids
        sections = []  # str for text, dict for a control token
        last = 0
        for m in self.pattern.finditer(prompt):
            if m.group(0) in self.controls:
                sections += [prompt[last : m.start()], self.controls[m.group(0)]]
                last = m.end()
        sections.append(prompt[last:])
        for i, sec in enumerate(sections):
            if isinstance(sec, dict):
                if sec.get("lstrip") and i > 0 and isinstance(sections[i - 1], str):
                    sections[i - 1] = sections[i - 1].rstrip()
                if sec.get("rstrip") and i + 1 < len(sections) and isinstance(sections[i + 1], str):
                    sections[i + 1] = sections[i + 1].lstrip()
        ids = []
        for i, sec in enumerate(sections):
            if isinstance(sec, dict):
                ids.append(sec["id"])
            elif sec and i == 0:
                ids += self.plain.encode(self.restore(sec), add_special_tokens=False).ids
            elif sec:
                ids += self.after.encode(SENTINEL + self.restore(sec), add_special_tokens=False).ids[1:]
        return ids
