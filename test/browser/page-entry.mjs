/** The browser side of the bundle test: imports the package by name, as an application would. */
import * as cw from "chatwire";
import { runCases } from "./cases.mjs";

const done = (value) => {
  window.__result = JSON.stringify(value);
};
fetch("/inputs.json")
  .then((r) => r.json())
  .then((inputs) => runCases(cw, inputs))
  .then(done, (err) => done({ crash: String(err?.stack ?? err) }));
