/**
 * The metadata of a `.gguf` file (the key/value header before the tensors), read from an untrusted file:
 * every length and count is checked against the bytes the file really has before anything is read or
 * allocated, so a truncated or lying file is a typed error, never zeros past the end (which a reader
 * that trusts the header returns) nor a huge allocation. Only the values chatwire uses are decoded
 * (strings, integers, and arrays of strings or integers the caller asks for); others are skipped.
 *
 * Format (little-endian; https://github.com/ggml-org/ggml/blob/master/docs/gguf.md): magic "GGUF",
 * u32 version (2 or 3), u64 tensor count, u64 key/value count, then per entry: string key, u32 value
 * type, value. A string is u64 byte length + UTF-8 bytes; an array is u32 element type + u64 count +
 * elements.
 */
import { ChatwireError } from "../errors.js";
import type { FsPromises } from "./node-fs.js";

type FileHandle = Awaited<ReturnType<FsPromises["open"]>>;

const TYPE_SIZES: Readonly<Record<number, number>> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
const STRING = 8;
const ARRAY = 9;
const CHUNK = 1 << 20;
/** A decoded string larger than this is refused (chat templates are kilobytes; a lying length could claim gigabytes). */
const MAX_STRING = 64 << 20;

export type GgufValue = string | number | bigint | boolean | GgufValue[] | undefined;

/** Reads forward through the file in chunks, refusing to go past its end. */
class Cursor {
  private buffer = new Uint8Array(0);
  private view = new DataView(this.buffer.buffer);
  /** File offset of buffer[0]. */
  private start = 0;
  pos = 0;

  constructor(
    private readonly handle: FileHandle,
    readonly size: number,
    readonly file: string,
  ) {}

  truncated(what: string, need: number): ChatwireError {
    return new ChatwireError(
      "invalid_template",
      `${this.file}: truncated or corrupt GGUF: ${what} at byte ${this.pos} needs ${need} bytes, the file has ${this.size - this.pos} left`,
    );
  }

  /** Makes bytes [pos, pos + n) available in the buffer. */
  private async need(n: number, what: string): Promise<void> {
    if (n > this.size - this.pos) throw this.truncated(what, n);
    const end = this.pos + n;
    if (this.pos >= this.start && end <= this.start + this.view.byteLength) return;
    const length = Math.min(Math.max(n, CHUNK), this.size - this.pos);
    const buffer = new Uint8Array(length);
    const { bytesRead } = await this.handle.read(buffer, 0, length, this.pos);
    if (bytesRead < n) throw this.truncated(what, n); // the file shrank while we read it
    this.buffer = buffer;
    this.view = new DataView(buffer.buffer, 0, bytesRead);
    this.start = this.pos;
  }

  async u32(what: string): Promise<number> {
    await this.need(4, what);
    const v = this.view.getUint32(this.pos - this.start, true);
    this.pos += 4;
    return v;
  }

  async u64(what: string): Promise<number> {
    await this.need(8, what);
    const v = this.view.getBigUint64(this.pos - this.start, true);
    this.pos += 8;
    // Anything past the file's size is caught by the caller's bounds check; keep it a safe number.
    return v > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(v);
  }

  async bytes(n: number, what: string): Promise<Uint8Array> {
    await this.need(n, what);
    const out = this.buffer.subarray(this.pos - this.start, this.pos - this.start + n);
    this.pos += n;
    return out;
  }

  skip(n: number, what: string): void {
    if (n > this.size - this.pos) throw this.truncated(what, n);
    this.pos += n;
  }

  async scalar(type: number, what: string): Promise<number | bigint | boolean> {
    const size = TYPE_SIZES[type] as number;
    await this.need(size, what);
    const at = this.pos - this.start;
    this.pos += size;
    switch (type) {
      case 0: return this.view.getUint8(at);
      case 1: return this.view.getInt8(at);
      case 2: return this.view.getUint16(at, true);
      case 3: return this.view.getInt16(at, true);
      case 4: return this.view.getUint32(at, true);
      case 5: return this.view.getInt32(at, true);
      case 6: return this.view.getFloat32(at, true);
      case 7: return this.view.getUint8(at) !== 0;
      case 10: return this.view.getBigUint64(at, true);
      case 11: return this.view.getBigInt64(at, true);
      default: return this.view.getFloat64(at, true);
    }
  }
}

const decoder = new TextDecoder("utf-8");

async function readString(c: Cursor, what: string): Promise<string> {
  const length = await c.u64(`${what} length`);
  if (length > MAX_STRING && length <= c.size - c.pos) {
    throw new ChatwireError("invalid_template", `${c.file}: GGUF value ${what} is ${length} bytes (more than ${MAX_STRING} are not read)`);
  }
  return decoder.decode(await c.bytes(length, what));
}

async function skipString(c: Cursor, what: string): Promise<void> {
  c.skip(await c.u64(`${what} length`), what);
}

function badType(c: Cursor, type: number, what: string): ChatwireError {
  return new ChatwireError("invalid_template", `${c.file}: corrupt GGUF: ${what} has unknown value type ${type} (at byte ${c.pos})`);
}

/** One value; `decode` false skips it (checking bounds all the same). */
async function readValue(c: Cursor, type: number, what: string, decode: boolean): Promise<GgufValue> {
  if (type === STRING) {
    if (decode) return readString(c, what);
    await skipString(c, what);
    return undefined;
  }
  if (type === ARRAY) {
    const elementType = await c.u32(`${what} element type`);
    const count = await c.u64(`${what} count`);
    if (elementType === STRING) {
      // Each element is at least its 8-byte length: refuse a count the file cannot hold before looping.
      if (count > (c.size - c.pos) / 8) throw c.truncated(`${what} (${count} strings)`, count * 8);
      if (!decode) {
        for (let i = 0; i < count; i++) await skipString(c, `${what}[${i}]`);
        return undefined;
      }
      const out: string[] = new Array<string>(count);
      for (let i = 0; i < count; i++) out[i] = await readString(c, `${what}[${i}]`);
      return out;
    }
    const size = TYPE_SIZES[elementType];
    if (size === undefined) throw badType(c, elementType, `${what} (array)`); // nested arrays: not used by any key we read
    if (!decode) {
      c.skip(count * size, `${what} (${count} values)`);
      return undefined;
    }
    if (count * size > c.size - c.pos) throw c.truncated(`${what} (${count} values)`, count * size);
    const out: GgufValue[] = new Array<GgufValue>(count);
    for (let i = 0; i < count; i++) out[i] = await c.scalar(elementType, what);
    return out;
  }
  const size = TYPE_SIZES[type];
  if (size === undefined) throw badType(c, type, what);
  if (!decode) {
    c.skip(size, what);
    return undefined;
  }
  return c.scalar(type, what);
}

/**
 * The metadata entries whose key `wanted(key)` accepts, decoded; the rest are skipped. `size` is the
 * file's size (from fstat of the same handle).
 */
export async function readGgufMetadata(
  handle: FileHandle,
  size: number,
  file: string,
  wanted: (key: string) => boolean,
): Promise<Map<string, GgufValue>> {
  const c = new Cursor(handle, size, file);
  const magic = decoder.decode(await c.bytes(4, "magic"));
  if (magic !== "GGUF") throw new ChatwireError("invalid_template", `${file}: not a GGUF file (no GGUF magic)`);
  const version = await c.u32("version");
  if (version !== 2 && version !== 3) throw new ChatwireError("invalid_template", `${file}: unsupported GGUF version ${version} (2 and 3 are read)`);
  await c.u64("tensor count");
  const entries = await c.u64("metadata count");
  // The smallest entry is a 9-byte key (8-byte length + 1 byte), a 4-byte type and a 1-byte value.
  if (entries > (size - c.pos) / 14) throw c.truncated(`${entries} metadata entries`, entries * 14);
  const out = new Map<string, GgufValue>();
  for (let i = 0; i < entries; i++) {
    const key = await readString(c, `metadata key ${i}`);
    const type = await c.u32(`type of ${key}`);
    const value = await readValue(c, type, key, wanted(key));
    if (value !== undefined) out.set(key, value);
  }
  return out;
}
