// One answer in the thread: its text with a chip for every number and a button for every citation.
import { t } from "./i18n.js";

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : value);
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

// Every source the answer cites, numbered once, in order of first citation.
export function sourceList(response) {
  const list = [];
  const seen = new Map();
  const add = (source) => {
    const key = `${source.doc}\u0000${source.locator}`;
    if (!seen.has(key)) {
      seen.set(key, list.length + 1);
      list.push({ version: null, ...source });
    }
    return seen.get(key);
  };
  for (const part of response.parts || []) for (const source of part.sources || []) add(source);
  for (const source of response.sources || []) add(source);
  return { list, number: add };
}

// The answer and its sources as plain text, for the clipboard.
export function plainText(item) {
  const { list } = sourceList(item.response);
  const lines = list.map((s, i) => `[${i + 1}] ${s.doc} · ${s.locator}${s.version ? ` (${s.version.slice(0, 19)})` : ""}`);
  return `${item.question}\n\n${item.response.answer}\n\n${t("sources")}:\n${lines.join("\n")}`;
}

export function renderAnswer(item, { onEvidence, onAsk, onFeedback }) {
  const response = item.response;
  const { list, number } = sourceList(response);
  const language = response.language || textLanguage(item.question);
  const text = el("p", { class: "answer-text", dir: "auto", lang: language });
  const parts = response.parts?.length ? response.parts : [{ type: "text", text: response.answer }];
  let before = "";
  for (const part of parts) {
    if (part.type === "text") before += part.text;
    if (part.type === "number") {
      before += part.text;
      const kind = part.kind || "unverified";
      const source = part.sources?.[0];
      const label = t("chip", { value: part.value, unit: part.unit || "", kind: t(`kind.${kind}`) });
      text.append(el("button", {
        type: "button", class: `chip kind-${kind}`, "aria-label": label, title: label, "data-kind": kind,
        "data-value": part.value,
        onclick: (event) => onEvidence({ source, part, item, opener: event.currentTarget }),
      }, el("span", { class: "chip-mark", "aria-hidden": "true", text: markFor(kind) }), part.text));
    } else if (part.type === "citation") {
      const wrap = el("span", { class: "cites" });
      const find = lastSentence(before);
      before = "";
      for (const source of part.sources || []) {
        const n = number(source);
        wrap.append(el("button", {
          type: "button", class: "cite", text: `[${n}]`,
          "aria-label": t("source", { n, doc: source.doc, locator: source.locator }),
          onclick: (event) => onEvidence({ source: list[n - 1], item, find, opener: event.currentTarget }),
        }));
      }
      text.append(el("span", { class: "citation-text", hidden: true, text: part.text }), wrap);
    } else {
      text.append(el("span", { lang: partLanguage(part.text, language) }, part.text));
    }
  }
  const meta = el("p", { class: "meta" },
    el("span", { class: `route route-${response.route}`, text: t(`route.${response.route}`) }), " · ",
    el("span", { class: "state", text: t(`status.${response.status}`) }));
  const card = el("li", { class: "answer", "data-route": response.route, "data-status": response.status },
    el("p", { class: "question", dir: "auto", lang: textLanguage(item.question), text: item.question }), meta, text);
  const note = narrativeNote(response.narrative_detail);
  if (note) card.append(note);
  if (response.assumptions?.length) {
    card.append(el("p", { class: "assumed" }, el("strong", { text: `${t("assumed")}: ` }),
      response.assumptions.map((a) => `${a.slot}=${a.value}`).join(", ")));
  }
  const options = [
    ...(response.refinements || []).map((o) => ({ ...o, group: "refine" })),
    ...(response.clarification?.options || []).map((o) => ({ ...o, group: "choose" })),
  ];
  if (options.length) {
    const groupLabel = options[0].group === "choose" ? t("choose") : t("refine");
    const row = el("div", { class: "options", role: "group", "aria-label": groupLabel },
      el("span", { class: "options-label", text: `${groupLabel}:` }));
    for (const option of options) {
      row.append(el("button", { type: "button", class: "option", "data-question": option.question, dir: "auto",
        text: option.label, onclick: () => onAsk(option.question) }));
    }
    card.append(row);
  }
  if (list.length) {
    const sources = el("ol", { class: "sources", "aria-label": t("sources") });
    list.forEach((source, index) => sources.append(el("li", {}, el("button", {
      type: "button", class: "source", "data-doc": source.doc,
      onclick: (event) => onEvidence({ source, item, opener: event.currentTarget }),
    }, `[${index + 1}] ${source.doc} · ${source.locator}`))));
    card.append(sources);
  }
  const status = el("span", { class: "feedback-status", role: "status" });
  card.append(el("div", { class: "actions" },
    iconButton(ICONS.copy, t("copy"), "copy", async () => {
      await navigator.clipboard?.writeText(plainText(item)).catch(() => {});
      status.textContent = t("copied");
    }),
    iconButton(ICONS.up, t("helpful"), "helpful", () => onFeedback({ item, reason: "helpful" }, status)),
    iconButton(ICONS.down, t("not_helpful"), "not_helpful", () => onFeedback({ item, reason: "not_helpful" }, status)),
    status));
  return card;
}

// What became of the model's reply when it is not simply the model's answer in the question's
// language: a rejection (with the unsupported values), a timeout or error (with its retry hint),
// the model declining, or a reply kept in another language.
function narrativeNote(detail) {
  if (!detail) return null;
  const said = [];
  if (detail.kind !== "model_answer") said.push(t(`narrative.${detail.kind}`));
  if (detail.unsupported?.length) said.push(t("narrative.unsupported", { values: detail.unsupported.join(", ") }));
  if (detail.language_kept === false) said.push(t("narrative.language_not_kept"));
  if (detail.hint) said.push(detail.hint);
  if (!said.length) return null;
  return el("p", { class: "narrative-note", role: "note", "data-kind": detail.kind, dir: "auto", text: said.join(" ") });
}

// The language of a run of answer text, so CJK glyphs follow the text and not the interface:
// kana means Japanese, Han alone Chinese, Latin letters English (the same rule as the evidence view).
export function textLanguage(text) {
  if (/[\u3040-\u30ff]/.test(text)) return "ja";
  if (/[\u3400-\u9fff]/.test(text)) return "zh";
  return /[A-Za-z]{2,}/.test(text) ? "en" : undefined;
}

// A run's own language where its script says it differs from the answer's (a Chinese passage quoted
// in an English answer); Han without kana in a Japanese answer stays Japanese.
function partLanguage(text, answer) {
  const found = textLanguage(text);
  if (!found || found === answer || (found === "zh" && answer === "ja")) return undefined;
  if (found === "en" && /[\u3040-\u30ff\u3400-\u9fff]/.test(text)) return undefined;
  return found;
}

// The start of the sentence a citation closes: the text to box on a PDF page.
function lastSentence(text) {
  const lines = text.split(/\n|(?<=[。！？.!?])\s*/).map((line) => line.trim()).filter(Boolean);
  return (lines.at(-1) || "").split(/\s+/).slice(0, 8).join(" ");
}

// Icons as inline SVG paths: no icon font to fetch, and no glyph that a system may lack.
const ICONS = {
  copy: "M8 3h11v13H8zM5 7v14h11",
  up: "M4 11h4v10H4zM8 11l4-8c2 0 3 1 3 3v3h5l-2 12H8",
  down: "M4 3h4v10H4zM8 13l4 8c2 0 3-1 3-3v-3h5L18 3H8",
  close: "M5 5l14 14M19 5L5 19",
};

export function svgIcon(path) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const line = document.createElementNS("http://www.w3.org/2000/svg", "path");
  line.setAttribute("d", path);
  svg.append(line);
  return svg;
}

function iconButton(path, name, id, onclick) {
  return el("button", { type: "button", class: `icon icon-${id}`, "aria-label": name, title: name, onclick },
    svgIcon(path));
}

function markFor(kind) {
  return { fact: "◆", computed: "∑", quoted: "❝", unverified: "?" }[kind] || "?";
}

export { el, ICONS };
