/**
 * The Node file-system pieces the loaders use, imported on first use so that the library core (an
 * in-memory template, `render`, `parse`) still bundles for browsers. File errors become ChatwireError
 * `io_error` naming the path.
 */
import { ChatwireError } from "../errors.js";

export type FsPromises = typeof import("node:fs/promises");
export type PathModule = typeof import("node:path");

export async function nodeFs(): Promise<{ fs: FsPromises; path: PathModule }> {
  const [fs, path] = await Promise.all([import("node:fs/promises"), import("node:path")]);
  return { fs, path };
}

function describe(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  if (code === "ENOENT") return "no such file or folder";
  if (code === "EACCES") return "permission denied";
  if (code === "EISDIR") return "is a folder";
  return err instanceof Error ? err.message : String(err);
}

/** Text files larger than this are refused: configs and templates are kilobytes to a few megabytes. */
const MAX_TEXT_BYTES = 256 << 20;

export type FileHandle = Awaited<ReturnType<FsPromises["open"]>>;

/**
 * Opens a regular file for reading, and only that: a FIFO, socket or device named like a model file
 * would block or stream forever. Opened non-blocking (so opening a FIFO cannot hang) and checked with
 * fstat on the same handle (no race between the check and the read). The caller closes the handle.
 */
export async function openRegular(file: string): Promise<{ handle: FileHandle; size: number }> {
  const { fs } = await nodeFs();
  const { constants } = await import("node:fs");
  let handle: FileHandle;
  try {
    handle = await fs.open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    throw new ChatwireError("io_error", `${file}: ${describe(err)}`);
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new ChatwireError("io_error", `${file}: not a regular file (${st.isDirectory() ? "a folder" : "a FIFO, socket or device"}); refused`);
    return { handle, size: st.size };
  } catch (err) {
    await handle.close();
    throw err instanceof ChatwireError ? err : new ChatwireError("io_error", `${file}: ${describe(err)}`);
  }
}

export async function readText(file: string): Promise<string> {
  const { handle, size } = await openRegular(file);
  try {
    if (size > MAX_TEXT_BYTES) throw new ChatwireError("io_error", `${file}: ${size} bytes is too large for a template or config (limit ${MAX_TEXT_BYTES})`);
    return await handle.readFile("utf8");
  } catch (err) {
    throw err instanceof ChatwireError ? err : new ChatwireError("io_error", `${file}: ${describe(err)}`);
  } finally {
    await handle.close();
  }
}

/** "file", "dir", "other" (a FIFO, socket or device), or undefined when nothing is there. Follows symlinks. */
export async function kindOf(file: string): Promise<"file" | "dir" | "other" | undefined> {
  const { fs } = await nodeFs();
  try {
    const st = await fs.stat(file);
    return st.isDirectory() ? "dir" : st.isFile() ? "file" : "other";
  } catch (err) {
    if ((err as { code?: unknown }).code === "ENOENT" || (err as { code?: unknown }).code === "ENOTDIR") return undefined;
    throw new ChatwireError("io_error", `${file}: ${describe(err)}`);
  }
}
