/**
 * Runs cases.mjs in Node against a built entry: `node node-run.mjs <module> <inputs.json>`, the JSON
 * result on stdout. The test runs it also under --disallow-code-generation-from-strings, Node's
 * equivalent of a CSP without 'unsafe-eval'.
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { runCases } from "./cases.mjs";

const [entry, inputsFile] = process.argv.slice(2);
const cw = await import(pathToFileURL(entry).href);
process.stdout.write(JSON.stringify(await runCases(cw, JSON.parse(readFileSync(inputsFile, "utf8")))));
