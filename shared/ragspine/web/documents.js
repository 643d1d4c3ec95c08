// The documents page: the documents the answers come from, each with its facts (a value opens its cell);
// then spaces, documents, upload with its stages, enable / disable / delete, all through the Knowledge
// Gateway's own routes and rules (its identity, lockVersion, Idempotency-Key) where this origin serves it.
import * as api from "./api.js";
import { el } from "./answer.js";
import { signIn } from "./auth.js";
import "./evidence.js";
import { pickLocale, setLocale, t } from "./i18n.js";

const BASE = "/internal/v1/knowledge";
const KEY = "ragspine.gateway";
const session = crypto.randomUUID();
const status = document.getElementById("status");
const spaces = document.getElementById("space");
const rows = document.getElementById("documents");
const progress = document.getElementById("progress");
const corpusRows = document.getElementById("corpus-documents");
const panel = document.getElementById("evidence");
let identity = JSON.parse(sessionStorage.getItem(KEY) || "null");

// The service's own corpus: what /v1/ask answers from (never a RESTRICTED document).
async function loadCorpus() {
  try {
    const docs = await api.documents();
    corpusRows.replaceChildren(...docs.map(corpusRow));
    if (!docs.length) corpusRows.replaceChildren(el("tr", {}, el("td", { colspan: "5", text: t("no_corpus") })));
  } catch (error) {
    say(t("error", { message: error.message }));
  }
}

function corpusRow(doc) {
  const button = el("button", { type: "button", class: "action", "data-action": "facts", "aria-expanded": "false",
    text: t("show_facts"), onclick: (event) => toggleFacts(doc, event.currentTarget) });
  return el("tr", { "data-corpus": doc.doc },
    el("th", { scope: "row", dir: "auto", text: doc.doc }), el("td", { title: doc.version, text: doc.version_id }),
    el("td", { text: t(`sensitivity.${doc.sensitivity}`) }), el("td", { class: "fact-count", text: String(doc.facts) }),
    el("td", { class: "actions-cell" }, button));
}

// A row under the document: its stored versions and a table of its facts; a value opens its cell.
async function toggleFacts(doc, button) {
  const id = `facts-${[...doc.doc].map((c) => c.codePointAt(0).toString(36)).join("")}`;
  const open = document.getElementById(id);
  if (open) {
    open.remove();
    button.setAttribute("aria-expanded", "false");
    return;
  }
  let detail;
  try {
    detail = await api.documentFacts(doc.doc);
  } catch (error) {
    say(t("error", { message: error.message }));
    return;
  }
  const cell = el("td", { colspan: "5", class: "details" });
  if (detail.status === "withheld") {
    cell.append(el("p", { class: "withheld", text: t("withheld") }));
  } else {
    cell.append(el("p", { class: "run", text: t("versions", { n: detail.versions.length,
      list: detail.versions.map((v) => `${v.version_id}${v.active ? ` (${t("active")})` : ""}`).join(", ") }) }));
    cell.append(detail.count ? factsTable(doc, detail) : el("p", { text: t("no_facts") }));
  }
  button.closest("tr").after(el("tr", { id, class: "details-row" }, cell));
  button.setAttribute("aria-expanded", "true");
  say(t("facts_count", { n: detail.count, doc: doc.doc }));
}

function factsTable(doc, detail) {
  const head = ["col.metric", "col.entity", "col.period", "col.value", "col.unit", "col.source"]
    .map((key) => el("th", { scope: "col", text: t(key) }));
  const rows = detail.facts.map((fact) => {
    const label = t("fact_open", { value: fact.value, unit: fact.unit, locator: fact.locator });
    const value = el("button", { type: "button", class: "chip kind-fact", "data-kind": "fact", "data-fact": fact.id,
      "aria-label": label, title: label,
      onclick: (event) => panel.show({ source: { doc: doc.doc, locator: fact.locator, version: fact.version },
        opener: event.currentTarget, find: fact.value }) },
    el("span", { class: "chip-mark", "aria-hidden": "true", text: "◆" }), fact.value);
    return el("tr", {}, el("th", { scope: "row", dir: "auto", text: fact.metric }), el("td", { dir: "auto", text: fact.entity }),
      el("td", { text: fact.period }), el("td", {}, value), el("td", { text: fact.unit }),
      el("td", { class: "locator", dir: "auto", text: fact.locator }));
  });
  const caption = t("facts_of", { n: detail.count, doc: doc.doc });
  return el("div", { class: "table-scroll", tabindex: "0", role: "group", "aria-label": caption },
    el("table", { class: "cells facts-table" }, el("caption", { text: caption }),
      el("thead", {}, el("tr", {}, ...head)), el("tbody", {}, ...rows)));
}

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
let config = {};
try {
  config = await signIn();  // on AWS: the company's identity provider; locally nothing happens
} catch (error) {
  say(t("error", { message: error.message }));
}
// The Knowledge Gateway's own API is on this origin locally; on AWS it is the stack's KnowledgeApi.
document.getElementById("gateway").hidden = !config.gateway;
await loadCorpus();
if (config.gateway && identity) await loadSpaces().catch((error) => say(t("error", { message: error.message })));
document.body.dataset.ready = "true";
