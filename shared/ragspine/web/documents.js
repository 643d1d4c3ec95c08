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
    el("button", { type: "button", class: "action", text: t("details"), "data-action": "details",
      "aria-expanded": "false", onclick: (event) => toggleDetails(doc, event.currentTarget) }),
    act(t("delete"), `/documents/${doc.documentId}`, "DELETE"));
  return el("tr", { "data-document": doc.documentId },
    el("th", { scope: "row", dir: "auto", text: doc.documentName }), el("td", { text: doc.status }),
    el("td", { text: doc.activeVersionNo ?? "—" }), el("td", { text: doc.searchable ? t("yes") : t("no") }), actions);
}

// Pages parsed and pages per second of a run, when the run has counted pages.
function pagesText(version) {
  if (!version?.pages) return "";
  return t("pages_rate", { pages: version.pages, rate: version.pagesPerSecond ?? "—" });
}

// A row under the document: its version's run report (warnings, pages), its facts and a passages preview.
async function toggleDetails(doc, button) {
  const id = `details-${doc.documentId}`;
  const open = document.getElementById(id);
  if (open) {
    open.remove();
    button.setAttribute("aria-expanded", "false");
    return;
  }
  const detail = await gateway("GET", `/documents/${doc.documentId}`).catch((error) => {
    say(t("error", { message: error.message }));
    return null;
  });
  if (!detail) return;
  const version = detail.activeVersion || detail.candidateVersion;
  const warnings = version?.warnings || [];
  const heading = (text) => el("h3", { text });
  const results = el("ol", { class: "passages", "aria-live": "polite" });
  const query = el("input", { type: "search", id: `${id}-query`, value: doc.documentName.replace(/\.[^.]+$/, "") });
  const preview = el("form", { class: "preview", onsubmit: (event) => {
    event.preventDefault();
    showPassages(doc, query.value, results);
  } }, el("label", { for: query.id, text: t("passages_query") }), query,
  el("button", { type: "submit", text: t("passages_button") }));
  const cell = el("td", { colspan: "5", class: "details" },
    el("p", { class: "run", text: [t("version_no", { n: version?.versionNo ?? "—" }), pagesText(version)].filter(Boolean).join(" · ") }),
    heading(t("warnings")),
    warnings.length ? el("ul", { class: "warnings" }, ...warnings.map((w) => el("li", { dir: "auto", text: w })))
      : el("p", { text: t("no_warnings") }),
    heading(t("facts")), el("p", { class: "facts", text: t("facts_in_space") }),
    heading(t("passages")), preview, results);
  button.closest("tr").after(el("tr", { id, class: "details-row" }, cell));
  button.setAttribute("aria-expanded", "true");
  await showPassages(doc, query.value, results);
}

// The document's passages for a query, through the Gateway's own search limited to this document.
async function showPassages(doc, query, list) {
  if (!query.trim()) return;
  try {
    const found = await gateway("POST", "/search", { query, knowledgeSpaceIds: [spaces.value],
      documentIds: [doc.documentId], limit: 8 });
    const hits = found.hits || [];
    list.replaceChildren(...hits.map((hit) => el("li", { class: "passage" },
      el("span", { class: "where", text: [(hit.chapterPath || []).join(" › "), hit.page ? t("page", { n: hit.page }) : ""]
        .filter(Boolean).join(" · ") }),
      el("span", { class: "quote", dir: "auto", text: hit.text.length > 400 ? `${hit.text.slice(0, 400)}…` : hit.text }))));
    if (!hits.length) list.replaceChildren(el("li", { text: t("no_passages") }));
  } catch (error) {
    list.replaceChildren(el("li", { text: t("error", { message: error.message }) }));
  }
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
    const percent = version?.progress?.percent;
    const line = [`${t(`stage.${stage}`)}${percent !== null && percent !== undefined ? ` (${percent}%)` : ""}`,
      pagesText(version)].filter(Boolean).join(" · ");
    if (stage !== last) {
      last = stage;
      step(line);
    } else {
      progress.lastElementChild.textContent = line;  // the same stage, with its percent and pages/s now
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
