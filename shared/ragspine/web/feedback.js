// The administrator's list of readers' feedback; a source opens its cited region, as on the ask page.
import { el } from "./answer.js";
import { feedbackList } from "./api.js";
import { signIn } from "./auth.js";
import "./evidence.js";
import { pickLocale, setLocale, t } from "./i18n.js";

const body = document.getElementById("feedback");
const panel = document.getElementById("evidence");
const status = document.getElementById("status");

await setLocale(pickLocale());
let items = [];
let failure = "";
try {
  await signIn();  // on AWS: the company's identity provider; the list needs the administrators' group
  items = await feedbackList(200);
} catch (error) {
  failure = t("error", { message: error.message });
}
for (const item of items) {
  const source = item.doc
    ? el("button", { type: "button", class: "source", dir: "auto",
      onclick: (event) => panel.show({ source: { doc: item.doc, locator: item.locator, version: item.version },
        opener: event.currentTarget }) }, `${item.doc} · ${item.locator}`)
    : "—";
  body.append(el("tr", {},
    el("td", { text: item.created_at }), el("td", { text: t(`reason.${item.reason}`) }),
    el("td", { text: item.value ?? "—" }), el("td", {}, source), el("td", { dir: "auto", text: item.question })));
}
status.textContent = failure || (items.length ? t("feedback_count", { n: items.length }) : t("no_feedback"));
document.body.dataset.ready = "true";
