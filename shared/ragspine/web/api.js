// Calls to the service's own routes; citations arrive as data, never parsed out of prose.
import { authHeaders } from "./auth.js";

async function call(url, options = {}) {
  const response = await fetch(url, { headers: { "Content-Type": "application/json", ...authHeaders() }, ...options });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    const message = body?.error?.message || body?.detail?.[0]?.msg || response.statusText;
    throw Object.assign(new Error(message), { status: response.status });
  }
  return body;
}

export function ask(question, history) {
  return call("/v1/ask", { method: "POST", body: JSON.stringify({ question, history }) });
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
