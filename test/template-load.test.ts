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
