// The documents page: spaces, documents, upload with its stages, enable / disable / delete,
// all through the Knowledge Gateway's own routes and rules (its identity, lockVersion, Idempotency-Key).
import { el } from "./answer.js";
import { pickLocale, setLocale, t } from "./i18n.js";

const BASE = "/internal/v1/knowledge";
const KEY = "ragspine.gateway";
const session = crypto.randomUUID();
const status = document.getElementById("status");
const spaces = document.getElementById("space");
const rows = document.getElementById("documents");
const progress = document.getElementById("progress");
let identity = JSON.parse(sessionStorage.getItem(KEY) || "null");

async function gateway(method, path, body, { idempotent = false } = {}) {
  const headers = { Authorization: `Bearer ${identity.token}`, "X-User-Assertion": identity.assertion,
    "X-Harness-Session-Id": session, "X-Tool-Call-Id": crypto.randomUUID() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (idempotent) headers["Idempotency-Key"] = crypto.randomUUID();
  const response = await fetch(BASE + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const reply = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(reply?.meta?.error?.message || reply?.error?.message || response.statusText);
  return reply.data;
}

function say(text) {
  status.textContent = text;
}

async function loadSpaces() {
  const listed = await gateway("GET", "/spaces?pageSize=100");
  const items = listed.items || listed;
  spaces.replaceChildren(...items.map((s) => el("option", { value: s.knowledgeSpaceId, text: `${s.name} (${s.code})` })));
  document.getElementById("workspace").hidden = false;
  say(t("spaces_loaded", { n: items.length }));
  if (items.length) await loadDocuments();
}

async function loadDocuments() {
  const listed = await gateway("GET", `/spaces/${spaces.value}/documents?pageSize=100`);
  const items = listed.items || listed;
  rows.replaceChildren(...items.map(documentRow));
}

function documentRow(doc) {
  const act = (label, path, method = "POST") => el("button", { type: "button", class: "action", text: label,
    "data-action": label, onclick: () => change(doc, method, path) });
  const actions = el("td", { class: "actions-cell" },
    doc.status === "DISABLED" ? act(t("enable"), `/documents/${doc.documentId}:enable`)
      : act(t("disable"), `/documents/${doc.documentId}:disable`),
    el("button", { type: "button", class: "action", text: t("replace"), "data-action": "replace",
      onclick: () => replacePicker(doc) }),
    act(t("delete"), `/documents/${doc.documentId}`, "DELETE"));
  return el("tr", { "data-document": doc.documentId },
    el("th", { scope: "row", dir: "auto", text: doc.documentName }), el("td", { text: doc.status }),
    el("td", { text: doc.activeVersionNo ?? "—" }), el("td", { text: doc.searchable ? t("yes") : t("no") }), actions);
}

async function change(doc, method, path) {
  try {
    await gateway(method, path, { expectedVersion: doc.lockVersion }, { idempotent: true });
    say(t("changed", { name: doc.documentName }));
  } catch (error) {
    say(t("error", { message: error.message }));
  }
  await loadDocuments();
}

const MIME = { pdf: "application/pdf", md: "text/markdown", markdown: "text/markdown", txt: "text/plain",
  html: "text/html", htm: "text/html",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  xlsm: "application/vnd.ms-excel.sheet.macroEnabled.12" };

// A picker per replace: the chosen file becomes the document's next version.
function replacePicker(doc) {
  const input = el("input", { type: "file", hidden: true, "aria-label": t("replace") });
  input.addEventListener("change", async () => {
    const file = input.files[0];
    input.remove();
    if (!file) return;
    try {
      await upload(file, doc);
      say(t("uploaded", { name: file.name }));
    } catch (error) {
      say(t("error", { message: error.message }));
    }
  });
  document.body.append(input);
  input.click();
}

// Upload ``file`` as a new document, or as the next version of ``replacing``; show each stage.
async function upload(file, replacing = null) {
  const step = (text) => progress.append(el("li", { text }));
  progress.replaceChildren();
  const mimeType = MIME[file.name.split(".").pop().toLowerCase()] || "application/octet-stream";
  const ticket = await gateway("POST", `/spaces/${spaces.value}/file-resources`,
    { fileName: file.name, mimeType, fileSize: file.size }, { idempotent: true });
  step(t("stage.sending"));
  const sent = await fetch(ticket.uploadUrl, { method: "PUT", body: file, headers: { "Content-Type": "application/octet-stream" } });
  if (!sent.ok) throw new Error(`${sent.status} ${sent.statusText}`);
  const change = replacing
    ? await gateway("POST", `/documents/${replacing.documentId}:replace`,
      { expectedVersion: replacing.lockVersion, fileResourceId: ticket.fileResourceId }, { idempotent: true })
    : await gateway("POST", `/spaces/${spaces.value}/documents`,
      { fileResourceId: ticket.fileResourceId, documentName: file.name }, { idempotent: true });
  let last = "";
  for (;;) {
    const doc = await gateway("GET", `/documents/${change.documentId}`);
    const version = doc.candidateVersion || doc.activeVersion;
    const stage = version ? version.status : doc.status;
    if (stage !== last) {
      last = stage;
      const percent = version?.progress?.percent;
      step(`${t(`stage.${stage}`)}${percent !== null && percent !== undefined ? ` (${percent}%)` : ""}`);
    }
    if (["READY", "FAILED", "CANCELLED"].includes(stage)) break;
    if (version?.error) {
      step(t("error", { message: version.error.message }));
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 700));
  }
  await loadDocuments();
}

document.getElementById("login").addEventListener("submit", async (event) => {
  event.preventDefault();
  identity = { token: document.getElementById("token").value.trim(),
    assertion: document.getElementById("assertion").value.trim() };
  sessionStorage.setItem(KEY, JSON.stringify(identity));
  try {
    await loadSpaces();
  } catch (error) {
    say(t("error", { message: error.message }));
  }
});
spaces.addEventListener("change", loadDocuments);
document.getElementById("upload").addEventListener("submit", async (event) => {
  event.preventDefault();
  const file = document.getElementById("file").files[0];
  if (!file) return;
  try {
    await upload(file);
    say(t("uploaded", { name: file.name }));
  } catch (error) {
    say(t("error", { message: error.message }));
  }
});

await setLocale(pickLocale());
if (identity) await loadSpaces().catch((error) => say(t("error", { message: error.message })));
document.body.dataset.ready = "true";
