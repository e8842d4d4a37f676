// The scanner's words in the page's language (DESIGN 29): the page carries them, read by the
// service from the same catalogues as the office's pages (language/catalogue.py), so there is no
// build step. t("Send now") gives the words; t("%(count)s waiting", { count }) fills the places.
// Numbers and dates are written by the browser's Intl in the same language.

const element = typeof document === "undefined" ? null : document.getElementById("words");
const words = element ? JSON.parse(element.textContent || "{}") : {};
export const language = (typeof document !== "undefined" && document.documentElement.lang) || "en";

export function t(english, values = {}) {
  const text = words[english] || english;
  return text.replace(/%\((\w+)\)[sd]/g, (_, name) => String(values[name] ?? ""));
}

/** A moment as the language writes it: 27. 11. 2026 14:05 (sl), 27.11.2026, 14:05 (de). */
export function moment(value) {
  return new Intl.DateTimeFormat(language, { dateStyle: "short", timeStyle: "short" }).format(new Date(value));
}

/** Thousandths as the language writes the amount: 1500 -> 1,5 in sl and de. */
export function amount(milli) {
  return number(milli / 1000);
}

/** A number as the language writes it: 1.234,5 in sl and de. */
export function number(value) {
  return new Intl.NumberFormat(language, { maximumFractionDigits: 3 }).format(value);
}
