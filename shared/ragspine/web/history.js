// The conversation kept in this browser: each answer with its parts, whose sources pin a version.
const KEY = "ragspine.history.v1";
const LIMIT = 50;

export function load() {
  try {
    const items = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(items) ? items : [];
  } catch {
    return [];
  }
}

export function save(items) {
  localStorage.setItem(KEY, JSON.stringify(items.slice(-LIMIT)));
}

export function clear() {
  localStorage.removeItem(KEY);
}

// The last turns as the ask route's history (question and answer text only).
export function turns(items, count = 3) {
  return items.slice(-count).flatMap((item) => [
    { role: "user", content: item.question },
    { role: "assistant", content: item.response.answer },
  ]);
}
