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
PLACEHOLDER = re.compile("\ue000([\ue100-\ue4ff])([\ue100-\ue4ff])")


class RefTokenizer:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        self.full = Tokenizer.from_str(json.dumps(data))
        self.plain = Tokenizer.from_str(json.dumps({**data, "added_tokens": []}))
        added = sorted(data.get("added_tokens", []), key=lambda t: t["id"])
        self.control_ids = {t["content"]: t["id"] for t in added}
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
        ids = []
        last = 0
        for m in self.pattern.finditer(prompt):
            if m.group(0) not in self.control_ids:
                continue
            ids += self._plain(prompt[last : m.start()])
            ids.append(self.control_ids[m.group(0)])
            last = m.end()
        return ids + self._plain(prompt[last:])

    def _plain(self, text):
        return self.plain.encode(self.restore(text), add_special_tokens=False).ids if text else []
