// The scanner's words in the page's language (DESIGN 29): the page carries them, read by the
// service from the same catalogues as the office's pages (language/catalogue.py), so there is no
// build step. t("Send now") gives the words; t("%(count)s waiting", { count }) fills the places.
// Numbers and dates are written by the browser's Intl in the same language.

const element = typeof document === "undefined" ? null : document.getElementById("words");
const words = element ? JSON.parse(element.textContent || "{}") : {};
export const language = (typeof document !== "undefined" && document.documentElement.lang) || "en";

export function t(english, values = {}) {
  const text = words[english] || english;
  return fill(text, values);
}

// The catalogue's forms of a count's message in its order (gettext's Plural-Forms), by the
// category Intl.PluralRules names: Slovenian says 1 vrstica, 2 vrstici, 3 vrstice, 5 vrstic.
const FORMS = { sl: ["one", "two", "few", "other"], de: ["one", "other"] };

/** A message about `count` things: tn("%(count)s line", "%(count)s lines", 3) in the page's language. */
export function tn(one, many, count, values = {}) {
  const forms = words[one];
  const all = { count, ...values };
  if (!Array.isArray(forms)) return fill(count === 1 ? one : many, all);
  const category = new Intl.PluralRules(language).select(count);
  const index = (FORMS[language] || ["one", "other"]).indexOf(category);
  return fill(forms[index < 0 ? forms.length - 1 : index] || many, all);
}

function fill(text, values) {
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
