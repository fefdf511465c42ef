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

export async function readText(file: string): Promise<string> {
  const { fs } = await nodeFs();
  try {
    return await fs.readFile(file, "utf8");
  } catch (err) {
    throw new ChatwireError("io_error", `${file}: ${describe(err)}`);
  }
}

/** "file", "dir", or undefined when nothing is there. */
export async function kindOf(file: string): Promise<"file" | "dir" | undefined> {
  const { fs } = await nodeFs();
  try {
    const st = await fs.stat(file);
    return st.isDirectory() ? "dir" : "file";
  } catch (err) {
    if ((err as { code?: unknown }).code === "ENOENT" || (err as { code?: unknown }).code === "ENOTDIR") return undefined;
    throw new ChatwireError("io_error", `${file}: ${describe(err)}`);
  }
}
