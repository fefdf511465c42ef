"""
Python mirror of src/tokens (escape placeholders, provenance-aware tokenisation), written from the same
description, with the Rust `tokenizers` library as the encoder. Used to compute the expected token ids
for prompts whose request data spells protected tokens; for every other prompt the expected ids are
simply `Tokenizer.encode(prompt, add_special_tokens=False)` (gen-token-fixtures.py checks the mirror
agrees with that).

Protection modes (src/tokens/tokenizer.ts ProtectMode): "special" (default: data cannot produce
`special: true` added tokens), "added" (data cannot produce any added token), "none" (data is trusted).
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
    def __init__(self, path=None, data=None):
        if data is None:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        self.full = Tokenizer.from_str(json.dumps(data))
        self.plain = Tokenizer.from_str(json.dumps({**data, "added_tokens": []}))
        # Text that follows other sections is encoded after a sentinel added token, so position-dependent
        # pre-tokenizers (Metaspace prepend_scheme "first") see it where it really is: not at offset 0.
        sentinel = {"id": 10**7, "content": SENTINEL, "single_word": False, "lstrip": False, "rstrip": False,
                    "normalized": False, "special": True}
        self.after = Tokenizer.from_str(json.dumps({**data, "added_tokens": [sentinel]}))
        self.added = sorted(data.get("added_tokens", []), key=lambda t: t["id"])
        self.by_content = {}
        for t in self.added:
            self.by_content.setdefault(t["content"], t)
        self.special_ids = {t["id"] for t in self.added if t.get("special")}
        self.split_pattern = _alternation(t["content"] for t in self.added)
        self.tables = {}

    def table(self, mode):
        if mode not in self.tables:
            # Placeholders index the whole added-token list (shared by every mode); only the protected
            # texts are escaped.
            protected = [] if mode == "none" else [t["content"] for t in self.added if mode == "added" or t.get("special")]
            texts = [ESC] + [t["content"] for t in self.added]
            index = {t: i for i, t in reversed(list(enumerate(texts)))}
            self.tables[mode] = (texts, index, _alternation([ESC] + protected))
        return self.tables[mode]

    def escape(self, value, mode="special"):
        """Deep copy with every protected token text in string values replaced by its placeholder."""
        texts, index, pattern = self.table(mode)
        if mode == "none":
            return value
        if isinstance(value, str):
            return pattern.sub(lambda m: _placeholder(index[m.group(0)]), value) if pattern else value
        if isinstance(value, list):
            return [self.escape(v, mode) for v in value]
        if isinstance(value, dict):
            return {k: self.escape(v, mode) for k, v in value.items()}
        return value

    def restore(self, text, mode="special"):
        texts = self.table(mode)[0]

        def back(m):
            k = (ord(m.group(1)) - BASE) * SPAN + (ord(m.group(2)) - BASE)
            return texts[k] if k < len(texts) else m.group(0)

        return PLACEHOLDER.sub(back, text)

    def tokenize(self, prompt, mode="special"):
        """Ids of a prompt rendered from escape(request, mode): every added token the prompt spells outside
        placeholders is a token; text sections (placeholders put back) are encoded as ordinary text."""
        if mode == "none":
            return self.full.encode(self.restore(prompt, mode), add_special_tokens=False).ids
        sections = []  # str for text, dict for an added token
        last = 0
        for m in self.split_pattern.finditer(prompt) if self.split_pattern else []:
            sections += [prompt[last : m.start()], self.by_content[m.group(0)]]
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
                ids += self.plain.encode(self.restore(sec, mode), add_special_tokens=False).ids
            elif sec:
                ids += self.after.encode(SENTINEL + self.restore(sec, mode), add_special_tokens=False).ids[1:]
        return ids


def _placeholder(k):
    return ESC + chr(BASE + k // SPAN) + chr(BASE + k % SPAN)


def _alternation(texts):
    """Leftmost-longest matching of literal texts (longest alternative first), or None when empty."""
    alternatives = sorted({t for t in texts if t}, key=len, reverse=True)
    return re.compile("|".join(re.escape(t) for t in alternatives)) if alternatives else None
