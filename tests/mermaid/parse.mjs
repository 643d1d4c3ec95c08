// Reads a JSON list of Mermaid texts on stdin; prints one JSON list of {type, error} (the
// diagram type Mermaid's parser detected, or its error message), in the same order.
import { JSDOM } from "jsdom";

const dom = new JSDOM("<!doctype html><html><body></body></html>");
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const { default: mermaid } = await import("mermaid");
mermaid.initialize({ startOnLoad: false });

let input = "";
for await (const chunk of process.stdin) input += chunk;
const results = [];
for (const text of JSON.parse(input)) {
  try {
    const parsed = await mermaid.parse(text);
    results.push({ type: parsed ? parsed.diagramType : null, error: null });
  } catch (err) {
    results.push({ type: null, error: String(err && err.message ? err.message : err) });
  }
}
process.stdout.write(JSON.stringify(results));
