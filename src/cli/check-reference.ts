/**
 * The reference renderer of `chatwire check --reference PYTHON`: one child process of the given Python
 * (with transformers installed) renders every job with transformers' own `render_jinja_template`, the
 * clock pinned to the job's time.
 */
import { spawn } from "node:child_process";
import { ChatwireError } from "../errors.js";
import { jobsToJson, type ReferenceJob, type ReferenceRenderer, type ReferenceResult } from "../check/index.js";

const SCRIPT = String.raw`
import datetime as dt, json, sys
from transformers.utils import chat_template_utils as ctu
jobs = json.load(sys.stdin)
out = []
for job in jobs:
    now = dt.datetime.fromisoformat(job["now"].replace("Z", "+00:00")).replace(tzinfo=None)
    class Pinned(dt.datetime):
        @classmethod
        def now(cls, tz=None):
            return now
    ctu.datetime = Pinned
    try:
        kwargs = dict(job["special_tokens"])
        kwargs.update(job["variables"])
        rendered, _ = ctu.render_jinja_template(
            conversations=[job["messages"]], tools=job.get("tools"), chat_template=job["chat_template"],
            add_generation_prompt=job["add_generation_prompt"], continue_final_message=job["continue_final_message"], **kwargs)
        out.append({"prompt": rendered[0]})
    except Exception as e:
        out.append({"error": f"{type(e).__name__}: {e}"})
json.dump(out, sys.stdout)
`;

export function pythonReference(python: string): ReferenceRenderer {
  return (jobs: ReferenceJob[]) =>
    new Promise<ReferenceResult[]>((resolve, reject) => {
      const child = spawn(python, ["-c", SCRIPT], { stdio: ["pipe", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
      child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
      child.on("error", (err) => reject(new ChatwireError("io_error", `--reference ${python}: ${err.message}`)));
      child.on("close", (code) => {
        if (code !== 0) return reject(new ChatwireError("io_error", `--reference ${python}: exited with ${code}: ${stderr.trim().split("\n").at(-1) ?? ""}`));
        try {
          resolve(JSON.parse(stdout) as ReferenceResult[]);
        } catch {
          reject(new ChatwireError("io_error", `--reference ${python}: did not print the rendered prompts as JSON`));
        }
      });
      child.stdin.end(jobsToJson(jobs));
    });
}
