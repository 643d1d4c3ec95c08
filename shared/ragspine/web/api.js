// Calls to the service's own routes; citations arrive as data, never parsed out of prose.
import { authHeaders } from "./auth.js";

async function call(url, options = {}) {
  const response = await fetch(url, { headers: { "Content-Type": "application/json", ...authHeaders() }, ...options });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    const message = body?.error?.message || body?.meta?.error?.message || body?.detail?.[0]?.msg
      || response.statusText;
    throw Object.assign(new Error(message), { status: response.status });
  }
  return body;
}

export function ask(question, history) {
  return call("/v1/ask", { method: "POST", body: JSON.stringify({ question, history }) });
}

// The same answer as ask(), as server-sent events: onReading(sources) for each retrieval before the answer.
export async function askStream(question, history, onReading) {
  const response = await fetch("/v1/ask/stream", { method: "POST", body: JSON.stringify({ question, history }),
    headers: { "Content-Type": "application/json", Accept: "text/event-stream", ...authHeaders() } });
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    throw Object.assign(new Error(body?.error?.message || body?.detail?.[0]?.msg || response.statusText),
      { status: response.status });
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the answer stream ended without an answer");
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields = Object.fromEntries(block.split("\n").filter((line) => !line.startsWith(":"))
        .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()]));
      if (!fields.event) continue;
      const data = JSON.parse(fields.data);
      if (fields.event === "reading") onReading(data.sources);
      else if (fields.event === "answer") return data;
      else if (fields.event === "error") throw new Error(data.error.message);
    }
  }
}

export function evidence({ doc, locator, version, find }) {
  const query = new URLSearchParams({ doc, locator });
  if (version) query.set("version", version);
  if (find) query.set("find", find);
  return call(`/v1/evidence?${query}`);
}

export function feedback(item) {
  return call("/v1/feedback", { method: "POST", body: JSON.stringify(item) });
}

export function feedbackList(limit = 200) {
  return call(`/v1/feedback?limit=${limit}`);
}

// The documents the service answers from, each with how many facts it states.
export function documents() {
  return call("/v1/documents");
}

// One document's stored versions and its facts, each with the locator the evidence view opens.
export function documentFacts(doc) {
  return call(`/v1/documents/facts?${new URLSearchParams({ doc })}`);
}
