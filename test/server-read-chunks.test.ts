/**
 * The serve path's replacements for Readable's async iterator and AbortController: ChunkReader (a
 * backend's streamed answer, src/server/read-chunks.ts) and ClientGone (a client request's cancel,
 * src/server/client-gone.ts). What the iterator and the AbortSignal gave must hold: every chunk in
 * order then the end, the stream's error after the chunks before it, a premature close as Node's
 * readers report it, the stream held back while nobody reads, a stream left early destroyed; a cancel
 * that fires its listeners once, not those that left, and an AbortSignal made before or after it.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { ClientGone } from "../src/server/client-gone.js";
import { ChunkReader } from "../src/server/read-chunks.js";

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function drain(reader: ChunkReader): Promise<string[]> {
  const out: string[] = [];
  for (let c = await reader.next(); c !== undefined; c = await reader.next()) out.push(c.toString());
  return out;
}

describe("ChunkReader", () => {
  it("gives every chunk in order, then the end, whether written before or while it waits", async () => {
    const stream = new PassThrough();
    const reader = new ChunkReader(stream);
    stream.write("a");
    stream.write("b");
    const done = drain(reader);
    await tick();
    stream.write("c");
    await tick();
    stream.end("d");
    expect((await done).join("")).toBe("abcd");
    expect(await reader.next()).toBeUndefined();
  });

  it("holds the stream back while nobody asks for the next chunk", async () => {
    const stream = new PassThrough({ highWaterMark: 4 });
    const reader = new ChunkReader(stream);
    stream.write("1234");
    await tick();
    expect(stream.isPaused()).toBe(true);
    // The writer sees the pressure: the readable side's buffer fills up.
    let accepted = 0;
    while (stream.write("5678")) if (++accepted > 100) break;
    expect(accepted).toBeLessThan(100);
    expect((await reader.next())?.toString()).toBe("1234");
    reader.stop();
  });

  it("gives the chunks before an error, then the error", async () => {
    const stream = new PassThrough();
    const reader = new ChunkReader(stream);
    stream.write("x");
    await tick();
    stream.destroy(new Error("boom"));
    expect((await reader.next())?.toString()).toBe("x");
    await expect(reader.next()).rejects.toThrow("boom");
  });

  it("reports a stream closed before its end as Node's readers do", async () => {
    const stream = new PassThrough();
    const reader = new ChunkReader(stream);
    const next = reader.next();
    stream.destroy();
    await expect(next).rejects.toMatchObject({ message: "Premature close", code: "ERR_STREAM_PREMATURE_CLOSE" });
    const late = new ChunkReader(stream);
    await expect(late.next()).rejects.toMatchObject({ code: "ERR_STREAM_PREMATURE_CLOSE" });
  });

  it("destroys a stream left before its end, and leaves an ended one alone; a late error is not unhandled", async () => {
    const open = new PassThrough();
    const reader = new ChunkReader(open);
    open.write("x");
    await reader.next();
    reader.stop();
    expect(open.destroyed).toBe(true);
    const ended = new PassThrough();
    const whole = new ChunkReader(ended);
    ended.end("y");
    expect(await drain(whole)).toEqual(["y"]);
    whole.stop();
    // An error after the end (a cancel that raced it) is listened to.
    expect(() => ended.emit("error", new Error("late"))).not.toThrow();
  });
});

describe("ClientGone", () => {
  it("fires each listener once, not one that left, and gives an AbortSignal aborted with it", () => {
    const gone = new ClientGone();
    const before = gone.signal;
    const calls: string[] = [];
    gone.listen(() => calls.push("a"));
    const leave = gone.listen(() => calls.push("b"));
    gone.listen(() => calls.push("c"));
    leave();
    expect(gone.aborted).toBe(false);
    expect(before.aborted).toBe(false);
    gone.fire();
    gone.fire();
    expect(calls).toEqual(["a", "c"]);
    expect(gone.aborted).toBe(true);
    expect(before.aborted).toBe(true);
    // Made after the client left: aborted already.
    const late = new ClientGone();
    late.fire();
    expect(late.signal.aborted).toBe(true);
  });
});
