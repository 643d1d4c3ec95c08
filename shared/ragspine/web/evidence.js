// <rs-evidence>: the cited region beside the answer (cells, slide table, paragraph or PDF page).
import { evidence } from "./api.js";
import { el, ICONS, svgIcon } from "./answer.js";
import { t } from "./i18n.js";

class EvidencePanel extends HTMLElement {
  connectedCallback() {
    this.setAttribute("role", "region");
    this.setAttribute("aria-labelledby", "evidence-title");
    this.classList.add("evidence");
    this.heading = el("h2", { id: "evidence-title", tabindex: "-1", text: t("evidence") });
    this.closer = el("button", { type: "button", class: "icon close", "aria-label": t("close"), title: t("close"),
      onclick: () => this.close() }, svgIcon(ICONS.close));
    this.body = el("div", { class: "evidence-body" });
    this.replaceChildren(el("div", { class: "evidence-head" }, this.heading, this.closer), this.body);
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && !this.hidden) this.close();
    });
  }

  relabel() {
    this.heading.textContent = t("evidence");
    this.closer.setAttribute("aria-label", t("close"));
    this.closer.title = t("close");
  }

  close() {
    this.hidden = true;
    this.body.replaceChildren();
    this.opener?.focus();
  }

  async show({ source, part, opener, onFeedback, item, find }) {
    this.opener = opener;
    this.hidden = false;
    this.relabel();
    this.body.replaceChildren(el("p", { class: "loading", text: t("loading") }));
    this.heading.focus();
    if (!source) {
      this.body.replaceChildren(el("p", { class: "unverified", text: t("kind.unverified") }));
      return;
    }
    let region;
    try {
      region = await evidence({ doc: source.doc, locator: source.locator, version: source.version,
        find: part?.kind === "fact" || part?.kind === "quoted" ? part.value : find || undefined });
    } catch (error) {
      this.body.replaceChildren(el("p", { class: "error", text: error.status === 410 ? t("gone") : error.message }));
      return;
    }
    const head = el("dl", { class: "where" },
      el("dt", { text: "doc" }), el("dd", { text: source.doc }),
      el("dt", { text: "locator" }), el("dd", { text: source.locator }));
    if (region.version) head.append(el("dt", { text: "version" }), el("dd", { text: region.version_id || "" }));
    const nodes = [head];
    if (part?.kind === "computed" && part.sources?.length) {
      nodes.push(el("p", { class: "computed-from" }, `${t("computed_from")}: `,
        part.sources.map((s) => `${s.doc} · ${s.locator}`).join("; ")));
    }
    if (region.status === "withheld") {
      nodes.push(el("p", { class: "withheld", text: t("withheld") }));
    } else {
      if (!region.current) nodes.push(el("p", { class: "note", text: t("old_version") }));
      nodes.push(this.region(region));
    }
    if (part) {
      const status = el("span", { class: "feedback-status", role: "status" });
      nodes.push(el("div", { class: "actions" },
        el("button", { type: "button", class: "report", text: t("wrong_number"),
          onclick: () => onFeedback({ item, part, source, reason: "wrong_number" }, status) }),
        el("button", { type: "button", class: "report", text: t("wrong_source"),
          onclick: () => onFeedback({ item, part, source, reason: "wrong_source" }, status) }),
        status));
    }
    this.body.replaceChildren(...nodes);
    // On a narrow screen the table scrolls sideways: bring the cited cell into view.
    const cited = this.querySelector(".cited");
    const scroller = cited?.closest(".table-scroll");
    if (cited && scroller) scroller.scrollLeft = cited.offsetLeft - (scroller.clientWidth - cited.offsetWidth) / 2;
  }

  region(region) {
    const lang = region.lang || undefined;
    if (region.format === "table") return this.table(region, lang);
    if (region.format === "image") {
      const frame = el("div", { class: "page" },
        el("img", { src: region.image, alt: `${region.title} · ${region.doc}` }));
      if (region.box) {
        const image = frame.querySelector("img");
        const mark = el("div", { class: "box", "aria-hidden": "true" });
        const place = () => {
          const scale = image.clientWidth / image.naturalWidth || 1;
          const [x0, y0, x1, y1] = region.box;
          Object.assign(mark.style, { left: `${x0 * scale - 3}px`, top: `${y0 * scale - 3}px`,
            width: `${(x1 - x0) * scale + 6}px`, height: `${(y1 - y0) * scale + 6}px` });
        };
        image.addEventListener("load", place);
        new ResizeObserver(place).observe(image);
        frame.append(mark);
      }
      return frame;
    }
    return el("blockquote", { class: "passage", lang, dir: "auto" }, el("p", { class: "passage-title", text: region.title }),
      el("p", { text: region.text }));
  }

  table(region, lang) {
    const table = el("table", { class: "cells", lang }, el("caption", { text: region.title }));
    const [hr, hc] = region.highlight || [-1, -1];
    region.rows.forEach((row, r) => {
      const tr = el("tr");
      row.forEach((value, c) => {
        const header = r < region.header_rows || c < region.header_cols;
        const scope = r < region.header_rows ? "col" : "row";
        const cited = r === hr && c === hc;
        const cell = el(header ? "th" : "td", { scope: header ? scope : undefined,
          class: [cited ? "cited" : "", r === hr || c === hc ? "in-line" : ""].join(" ").trim() || undefined,
          "aria-current": cited ? "true" : undefined });
        if (cited) cell.append(el("mark", { text: value }), el("span", { class: "visually-hidden", text: ` (${t("cited_cell")})` }));
        else cell.textContent = value;
        tr.append(cell);
      });
      table.append(tr);
    });
    return el("div", { class: "table-scroll", tabindex: "0", role: "group", "aria-label": region.title }, table);
  }
}

customElements.define("rs-evidence", EvidencePanel);
