/**
 * loadTemplate for every source kind. Files (tokenizer_config.json, model folders, .gguf) are built in a
 * temp dir by the tests themselves; the .gguf is written byte by byte (GGUF v3, metadata only).
 */
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ChatwireError } from "../src/errors.js";
import { listBuiltins, loadTemplate } from "../src/template/index.js";

const dir = mkdtempSync(join(tmpdir(), "chatwire-load-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Prints the variant in use and the special tokens, so a render shows what was loaded. */
const probe = (tag: string) => `${tag}|{{ bos_token }}|{{ eos_token }}|{% if pad_token is defined %}{{ pad_token }}{% endif %}`;
const user = { messages: [{ role: "user", content: "hi" }] };
const withTools = { ...user, tools: [{ type: "function", function: { name: "f", parameters: { type: "object" } } }] };

function write(path: string, text: string | Uint8Array): string {
  const file = join(dir, path);
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, text);
  return file;
}

async function loadError(source: Parameters<typeof loadTemplate>[0], options = {}): Promise<ChatwireError> {
  try {
    await loadTemplate(source, options);
  } catch (err) {
    expect(err).toBeInstanceOf(ChatwireError);
    return err as ChatwireError;
  }
  throw new Error("expected loadTemplate to fail");
}

// --- a minimal GGUF v3 writer: header, then key/value metadata, no tensors ---
const GGUF_UINT32 = 4;
const GGUF_STRING = 8;
const GGUF_ARRAY = 9;
function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}
function u64(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
}
function ggufString(s: string): Buffer {
  const bytes = Buffer.from(s, "utf8");
  return Buffer.concat([u64(bytes.length), bytes]);
}
type GgufValue = string | number | string[];
function ggufValue(v: GgufValue): Buffer {
  if (typeof v === "string") return Buffer.concat([u32(GGUF_STRING), ggufString(v)]);
  if (typeof v === "number") return Buffer.concat([u32(GGUF_UINT32), u32(v)]);
  return Buffer.concat([u32(GGUF_ARRAY), u32(GGUF_STRING), u64(v.length), ...v.map(ggufString)]);
}
function ggufFile(metadata: Record<string, GgufValue>): Buffer {
  const entries = Object.entries(metadata);
  return Buffer.concat([
    Buffer.from("GGUF", "ascii"),
    u32(3), // version
    u64(0), // tensor count
    u64(entries.length),
    ...entries.map(([k, v]) => Buffer.concat([ggufString(k), ggufValue(v)])),
  ]);
}

describe("in-memory object", () => {
  it("a string chat_template with special tokens as strings or AddedToken objects", async () => {
    const t = await loadTemplate({ chat_template: probe("one"), bos_token: "<s>", eos_token: { content: "</s>", lstrip: false }, pad_token: null });
    expect(t.render(user)).toBe("one|<s>|</s>|");
    expect(t.origin).toBe("object");
    expect(t.variants).toEqual({ default: probe("one") });
  });
  it("the list form: tool_use with tools, default without", async () => {
    const t = await loadTemplate({
      chat_template: [
        { name: "default", template: probe("default") },
        { name: "tool_use", template: probe("tool_use") },
      ],
      bos_token: "B",
      eos_token: "E",
    });
    expect(t.render(user)).toBe("default|B|E|");
    expect(t.render(withTools)).toBe("tool_use|B|E|");
    expect(t.source).toBe(probe("tool_use"));
  });
  it("a named variant can be forced", async () => {
    const t = await loadTemplate({ chat_template: [{ name: "default", template: "d" }, { name: "rag", template: "r" }] }, { templateName: "rag" });
    expect(t.render(withTools)).toBe("r");
    expect((await loadError({ chat_template: "x" }, { templateName: "nope" })).code).toBe("invalid_template");
  });
  it("only tool_use: fine with tools, transformers' error without", async () => {
    const t = await loadTemplate({ chat_template: [{ name: "tool_use", template: "T" }] });
    expect(t.render(withTools)).toBe("T");
    expect(() => t.render(user)).toThrow(/multiple chat templates with no default/);
  });
  it("rejects objects without a usable chat_template", async () => {
    expect((await loadError({} as never)).code).toBe("invalid_template");
    expect((await loadError({ chat_template: [{ name: "x" }] } as never)).code).toBe("invalid_template");
    expect((await loadError({ chat_template: 5 } as never)).code).toBe("invalid_template");
  });
});

describe("files", () => {
  it("a .jinja file", async () => {
    const t = await loadTemplate(write("plain.jinja", probe("jinja")));
    expect(t.render(user)).toBe("jinja|||");
  });
  it("a tokenizer_config.json (any .json with chat_template), floats and all", async () => {
    const file = write(
      "cfg/tokenizer_config.json",
      JSON.stringify({ chat_template: probe("cfg"), bos_token: { __type: "AddedToken", content: "<|begin|>" }, eos_token: "<|end|>", pad_token: "<pad>" }),
    );
    expect((await loadTemplate(file)).render(user)).toBe("cfg|<|begin|>|<|end|>|<pad>");
    const other = write("any-name.json", JSON.stringify({ chat_template: [{ name: "default", template: "{{ 1.0 }}" }] }));
    expect((await loadTemplate(other)).variants).toEqual({ default: "{{ 1.0 }}" });
  });
  it("bad files: missing, not JSON, no template", async () => {
    expect((await loadError(join(dir, "nope.jinja"))).code).toBe("io_error");
    expect((await loadError(write("bad.json", "{oops"))).code).toBe("invalid_template");
    expect((await loadError(write("empty.json", "{}"))).code).toBe("invalid_template");
  });
});

describe("model folders", () => {
  it("tokenizer_config.json alone", async () => {
    write("m1/tokenizer_config.json", JSON.stringify({ chat_template: probe("m1"), bos_token: "<s>", eos_token: "</s>" }));
    const t = await loadTemplate(join(dir, "m1"));
    expect(t.render(user)).toBe("m1|<s>|</s>|");
    expect(t.origin).toBe(join(dir, "m1"));
  });
  it("chat_template.jinja and chat_templates/ win over the config; tokens still come from the config", async () => {
    write("m2/tokenizer_config.json", JSON.stringify({ chat_template: "old", bos_token: "<s>", eos_token: "</s>" }));
    write("m2/chat_template.jinja", probe("file"));
    write("m2/chat_templates/tool_use.jinja", probe("tools-file"));
    const t = await loadTemplate(join(dir, "m2"));
    expect(t.render(user)).toBe("file|<s>|</s>|");
    expect(t.render(withTools)).toBe("tools-file|<s>|</s>|");
  });
  it("chat_template.json (processor config)", async () => {
    write("m3/tokenizer_config.json", JSON.stringify({ eos_token: "<eos>" }));
    write("m3/chat_template.json", JSON.stringify({ chat_template: probe("processor") }));
    expect((await loadTemplate(join(dir, "m3"))).render(user)).toBe("processor||<eos>|");
  });
  it("a folder with no template says where it looked", async () => {
    mkdirSync(join(dir, "m4"), { recursive: true });
    const err = await loadError(join(dir, "m4"));
    expect(err.code).toBe("invalid_template");
    expect(err.message).toContain("chat_template.jinja");
  });
});

describe(".gguf files", () => {
  it("reads tokenizer.chat_template and the bos/eos token strings", async () => {
    const file = write(
      "model.gguf",
      ggufFile({
        "general.architecture": "llama",
        "tokenizer.chat_template": probe("gguf"),
        "tokenizer.chat_template.tool_use": probe("gguf-tools"),
        "tokenizer.ggml.tokens": ["<unk>", "<|begin▁of▁sentence|>", "<|end|>", "hello"],
        "tokenizer.ggml.bos_token_id": 1,
        "tokenizer.ggml.eos_token_id": 2,
      }),
    );
    const t = await loadTemplate(file);
    expect(t.specialTokens).toEqual({ bos_token: "<|begin▁of▁sentence|>", eos_token: "<|end|>" });
    expect(t.render(user)).toBe("gguf|<|begin▁of▁sentence|>|<|end|>|");
    expect(t.render(withTools)).toBe("gguf-tools|<|begin▁of▁sentence|>|<|end|>|");
  });
  it("a GGUF without a template, and a file that is not GGUF", async () => {
    const noTemplate = write("bare.gguf", ggufFile({ "general.architecture": "llama" }));
    expect((await loadError(noTemplate)).message).toContain("tokenizer.chat_template");
    expect((await loadError(write("fake.gguf", "not a gguf file at all"))).code).toBe("invalid_template");
  });
});

describe("built-in templates", () => {
  it("loads each by name", async () => {
    const names = (await listBuiltins()).map((b) => b.name);
    expect(names).toEqual(expect.arrayContaining(["chatml-tools", "qwen3"]));
    for (const name of names) {
      const t = await loadTemplate(name);
      expect(t.origin).toBe(`builtin:${name}`);
      expect(t.render(user)).toContain("hi");
    }
  });
  it("qwen3 is byte-identical to the corpus copy in fixtures", async () => {
    const t = await loadTemplate("qwen3");
    expect(t.source).toBe(readFileSync(new URL("../fixtures/templates/Qwen-Qwen3-0.6B.jinja", import.meta.url), "utf8"));
  });
  it("every built-in is documented in templates/README.md", async () => {
    const readme = readFileSync(new URL("../templates/README.md", import.meta.url), "utf8");
    for (const b of await listBuiltins()) expect(readme).toContain(`| \`${b.name}\` | \`${b.file}\``);
  });
  it("an unknown name lists the built-ins", async () => {
    const err = await loadError("no-such-template");
    expect(err.code).toBe("io_error");
    expect(err.message).toContain("chatml-tools");
  });
});

describe("untrusted model files (issue 9)", () => {
  const good = () =>
    ggufFile({
      "general.architecture": "llama",
      "tokenizer.chat_template": probe("gguf"),
      "tokenizer.ggml.tokens": ["<unk>", "<s>", "</s>"],
      "tokenizer.ggml.bos_token_id": 1,
    });

  it("reads a GGUF written by gguf-py (llama.cpp's converter): pad/unk/sep from their real key names", async () => {
    const t = await loadTemplate(new URL("../fixtures/gguf/tiny.gguf", import.meta.url).pathname);
    expect(t.specialTokens).toEqual({ bos_token: "<s>", eos_token: "</s>", unk_token: "<unk>", sep_token: "<sep>", pad_token: "<pad>" });
    expect(t.render({ messages: [{ role: "user", content: "a" }, { role: "assistant", content: "b" }] })).toBe("<s>a<sep>b<sep><pad>|<unk></s>");
    expect(t.render(withTools)).toBe("tools:f");
  });

  it("a truncated GGUF is a typed error, at every cut", async () => {
    const whole = good();
    for (const cut of [3, 10, 30, 60, whole.length - 20, whole.length - 1]) {
      const err = await loadError(write(`cut-${cut}.gguf`, whole.subarray(0, cut)));
      expect(err.code, `cut at ${cut}`).toBe("invalid_template");
    }
    expect((await loadError(write("cut.gguf", whole.subarray(0, whole.length - 1)))).message).toMatch(/truncated or corrupt GGUF/);
  });

  it("a value claiming more bytes than the file has is refused, not read as NULs", async () => {
    const head = Buffer.concat([Buffer.from("GGUF"), u32(3), u64(0), u64(1), ggufString("tokenizer.chat_template"), u32(GGUF_STRING), u64(9_900_000)]);
    const file = write("liar.gguf", Buffer.concat([head, Buffer.alloc(200 - head.length, 0x61)]));
    const err = await loadError(file);
    expect(err.code).toBe("invalid_template");
    expect(err.message).toContain("needs 9900000 bytes");
    // A count of entries or array elements the file cannot hold is refused before looping or allocating.
    const manyEntries = Buffer.concat([Buffer.from("GGUF"), u32(3), u64(0), u64(2 ** 40)]);
    expect((await loadError(write("many.gguf", manyEntries))).message).toContain("metadata entries");
    const bigArray = Buffer.concat([Buffer.from("GGUF"), u32(3), u64(0), u64(1), ggufString("tokenizer.ggml.tokens"), u32(GGUF_ARRAY), u32(GGUF_STRING), u64(2 ** 50)]);
    expect((await loadError(write("bigarray.gguf", bigArray))).message).toContain("strings");
  });

  it("reads values that straddle the reader's 1 MiB chunks (a 200k-token vocabulary before the template)", async () => {
    const tokens = Array.from({ length: 200_000 }, (_, i) => `tok_${i}_${"x".repeat(i % 7)}`);
    const file = write("big.gguf", ggufFile({ "tokenizer.ggml.tokens": tokens, "tokenizer.ggml.bos_token_id": 123_456, "tokenizer.chat_template": probe("big") }));
    const t = await loadTemplate(file);
    expect(t.specialTokens).toEqual({ bos_token: tokens[123_456] });
    expect(t.render(user)).toBe(`big|${tokens[123_456]}||`);
  });

  it("a GGUF variant named __proto__ stays an ordinary variant", async () => {
    const file = write("proto.gguf", ggufFile({ "tokenizer.chat_template": "d", "tokenizer.chat_template.__proto__": "p" }));
    const t = await loadTemplate(file, { templateName: "__proto__" });
    expect(t.render(user)).toBe("p");
    expect(Object.keys(t.variants).sort()).toEqual(["__proto__", "default"]);
  });

  it.skipIf(process.platform === "win32")("a FIFO named model.gguf or tokenizer_config.json is refused at once (no hang)", async () => {
    const { execFileSync } = await import("node:child_process");
    const fifo = join(dir, "fifo.gguf");
    execFileSync("mkfifo", [fifo]);
    expect((await loadError(fifo)).message).toContain("not a regular file");
    mkdirSync(join(dir, "fifo-folder"));
    execFileSync("mkfifo", [join(dir, "fifo-folder", "tokenizer_config.json")]);
    expect((await loadError(join(dir, "fifo-folder"))).message).toContain("not a regular file");
  });

  it("symlinks out of a model folder are refused unless allowed; inside, and HF cache blobs, are fine", async () => {
    const { symlinkSync } = await import("node:fs");
    const outside = write("outside/secret.txt", "SECRET");
    write("linked/tokenizer_config.json", JSON.stringify({ eos_token: "</s>" }));
    symlinkSync(outside, join(dir, "linked", "chat_template.jinja"));
    const err = await loadError(join(dir, "linked"));
    expect([err.code, err.message.includes("symbolic link out of the model folder")]).toEqual(["io_error", true]);
    expect((await loadTemplate(join(dir, "linked"), { allowExternalSymlinks: true })).render(user)).toBe("SECRET");
    // A link that stays inside the folder.
    write("inner/real.jinja", "inner");
    symlinkSync(join(dir, "inner", "real.jinja"), join(dir, "inner", "chat_template.jinja"));
    expect((await loadTemplate(join(dir, "inner"))).render(user)).toBe("inner");
    // The Hugging Face cache: snapshots/<rev>/file -> ../../blobs/<hash>.
    const blob = write("hub/models--org--m/blobs/abc123", JSON.stringify({ chat_template: "hub" }));
    mkdirSync(join(dir, "hub/models--org--m/snapshots/rev1"), { recursive: true });
    symlinkSync("../../blobs/abc123", join(dir, "hub/models--org--m/snapshots/rev1/tokenizer_config.json"));
    expect(readFileSync(blob, "utf8")).toContain("hub");
    expect((await loadTemplate(join(dir, "hub/models--org--m/snapshots/rev1"))).render(user)).toBe("hub");
  });

  it("templateName toString / __proto__ / constructor is a typed error, not a TypeError", async () => {
    for (const name of ["toString", "__proto__", "constructor", "hasOwnProperty"]) {
      const err = await loadError({ chat_template: "x" }, { templateName: name });
      expect([name, err.code]).toEqual([name, "invalid_template"]);
    }
    const list = await loadError({ chat_template: [{ name: "tool_use", template: "T" }] }, { templateName: "valueOf" });
    expect(list.code).toBe("invalid_template");
    // And a variant really named __proto__ in a config is an own key.
    const t = await loadTemplate({ chat_template: [{ name: "default", template: "d" }, { name: "__proto__", template: "p" }] }, { templateName: "__proto__" });
    expect(t.render(user)).toBe("p");
  });
});
