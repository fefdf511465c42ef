/**
 * chatwire's public API for Node: the core (src/core.ts) with a loadTemplate that also reads
 * templates from files, model folders and `.gguf` files. package.json maps `chatwire` to this module
 * under the "node" condition and to the core everywhere else. Nothing but re-exports lives here.
 */
export * from "./core.js";
// A local export wins over the same name from `export *`.
export { loadTemplate } from "./template/index.js";
