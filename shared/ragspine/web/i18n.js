// Interface strings: one JSON file per locale; <html lang> follows the chosen locale.
export const LOCALES = ["en", "zh", "ja"];
const KEY = "ragspine.locale";
let strings = {};

export function pickLocale() {
  const saved = localStorage.getItem(KEY);
  if (LOCALES.includes(saved)) return saved;
  const wanted = (navigator.language || "en").slice(0, 2).toLowerCase();
  return LOCALES.includes(wanted) ? wanted : "en";
}

export async function setLocale(locale) {
  const response = await fetch(`/ui/locales/${locale}.json`);
  strings = await response.json();
  localStorage.setItem(KEY, locale);
  document.documentElement.lang = locale;
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  document.title = t("title");
}

export function t(key, vars = {}) {
  const text = strings[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (vars[name] ?? ""));
}
