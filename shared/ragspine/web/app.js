// The ask page: question box, answers with number chips, the evidence beside them, history in this browser.
import * as api from "./api.js";
import { renderAnswer } from "./answer.js";
import { signIn } from "./auth.js";
import "./evidence.js";
import * as history from "./history.js";
import { pickLocale, setLocale, t } from "./i18n.js";

const form = document.getElementById("ask");
const box = document.getElementById("question");
const status = document.getElementById("status");
const answers = document.getElementById("answers");
const panel = document.getElementById("evidence");
const locale = document.getElementById("locale");
let items = history.load();
let streaming = false;  // the local service streams answers; the deployed API answers with one response

function show(item) {
  answers.prepend(renderAnswer(item, { onEvidence, onAsk: askQuestion, onFeedback }));
}

function redraw() {
  answers.replaceChildren();
  items.forEach(show);
}

function onEvidence({ source, part, item, opener, find }) {
  panel.show({ source, part, item, opener, find, onFeedback });
}

async function onFeedback({ item, part, source, reason }, where) {
  try {
    await api.feedback({ reason, question: item.question, answer: item.response.answer, value: part?.value ?? null,
      fact_id: part?.id ?? null, doc: source?.doc ?? null, locator: source?.locator ?? null,
      version: source?.version ?? null });
    where.textContent = t("thanks");
  } catch (error) {
    where.textContent = t("error", { message: error.message });
  }
}

async function askQuestion(question) {
  question = question.trim();
  if (!question) return;
  box.value = question;
  status.textContent = t("asking");
  form.setAttribute("aria-busy", "true");
  try {
    const response = streaming
      ? await api.askStream(question, history.turns(items), (sources) => {
        status.textContent = t(sources.length === 1 ? "reading_one" : "reading", { n: sources.length,
          docs: [...new Set(sources.map((s) => s.doc))].join(", ") });
      })
      : await api.ask(question, history.turns(items));
    const item = { question, response, at: new Date().toISOString() };
    items.push(item);
    history.save(items);
    show(item);
    const count = new Set([...(response.parts || []).flatMap((p) => p.sources || []), ...(response.sources || [])]
      .map((s) => `${s.doc}\u0000${s.locator}`)).size;
    status.textContent = t(count === 1 ? "ready_one" : "ready", { n: count });
    box.value = "";
  } catch (error) {
    status.textContent = t("error", { message: error.message });
  } finally {
    form.removeAttribute("aria-busy");
  }
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  askQuestion(box.value);
});
box.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) form.requestSubmit();
});
document.getElementById("clear").addEventListener("click", () => {
  items = [];
  history.clear();
  redraw();
});
locale.addEventListener("change", async () => {
  await setLocale(locale.value);
  redraw();
});

const chosen = pickLocale();
locale.value = chosen;
await setLocale(chosen);
redraw();
try {
  // the deployed page signs in through the company's identity provider; locally nothing happens
  streaming = Boolean((await signIn()).stream);
} catch (error) {
  status.textContent = error.message;
}
document.body.dataset.ready = "true";
