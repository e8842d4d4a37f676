// The scanner's words in the page's language (DESIGN 29): the page carries them, read by the
// service from the same catalogues as the office's pages (language/catalogue.py), so there is no
// build step. t("Send now") gives the words; t("%(count)s waiting", { count }) fills the places.
// Numbers and dates are written by the browser's Intl in the same language. said(message) reads a
// refusal of the service, which answers in English, back into the same language.

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
  return text.replace(/%\((\w+)\)[sdr]/g, (_, name) => String(values[name] ?? ""));
}

// The service's refusals (DESIGN 29): the API answers in English, word for word, and the device
// reads a message back by its English pattern (language/catalogue.py scanner_refusals), so that a
// refusal kept on the queue reads in the language chosen when it is shown, not when it came.
const refusalsElement = typeof document === "undefined" ? null : document.getElementById("refusals");
const refusals = refusalsElement ? JSON.parse(refusalsElement.textContent || "{}") : {};
const PLACE = /%\((\w+)\)([sdr])|%%/g;
let patterns = null;

/** Each message with places as a pattern, the longest English first: "Must be greater than or
 * equal to %(min)s." is tried before "Must be greater than %(min)s.". A message that is only its
 * places would match anything, and never does. */
function patternsOf() {
  const made = [];
  for (const [english, words] of Object.entries(refusals)) {
    const names = [];
    let source = "";
    let literal = 0;
    let at = 0;
    for (const place of english.matchAll(PLACE)) {
      const text = english.slice(at, place.index);
      source += escaped(text);
      literal += text.length;
      at = place.index + place[0].length;
      if (place[0] === "%%") {
        source += "%";
        literal += 1;
      } else if (names.some(([name]) => name === place[1])) {
        source += `\\${names.findIndex(([name]) => name === place[1]) + 1}`; // the same value again
      } else {
        names.push([place[1], place[2]]);
        source += "([\\s\\S]*?)";
      }
    }
    if (!names.length) continue; // looked up as it is
    const rest = english.slice(at);
    source += escaped(rest);
    literal += rest.length;
    if (literal) made.push({ pattern: new RegExp(`^${source}$`), names, words, literal });
  }
  return made.sort((a, b) => b.literal - a.literal);
}

function escaped(text) {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** A message of the service (error.message, a field's message) in the page's language: read back
 * by its English, its values in place; as it came where the catalogue has no such message. */
export function said(message) {
  if (typeof message !== "string" || !message || language === "en") return message;
  const exact = Object.hasOwn(refusals, message) ? refusals[message] : null;
  if (exact !== null) return formOf(exact, null);
  patterns ??= patternsOf();
  for (const { pattern, names, words: translation } of patterns) {
    const found = pattern.exec(message);
    if (!found) continue;
    const values = Object.fromEntries(names.map(([name], i) => [name, found[i + 1]]));
    // A %(name)r value is quoted as the API wrote it (a code, a unit): it stays as it came.
    const shown = Object.fromEntries(names.map(([name, kind]) => [name, kind === "s" ? valueOf(values[name]) : values[name]]));
    return fill(formOf(translation, /^\d+$/.test(values.count ?? "") ? Number(values.count) : null), shown);
  }
  return message;
}

/** A message's words; a count's message in its form for `count`, as tn() chooses it. A count the
 * English leaves out ("Unknown event(s).") takes the form of many. */
function formOf(translation, count) {
  if (!Array.isArray(translation)) return translation;
  const category = count === null ? "other" : new Intl.PluralRules(language).select(count);
  const index = (FORMS[language] || ["one", "other"]).indexOf(category);
  return translation[index < 0 ? translation.length - 1 : index] || translation[translation.length - 1];
}

/** A value read out of a message: a message of its own ("lot L1", the first of many refusals) in
 * the language too; an amount with a fraction with the language's decimal sign, a day as the
 * language writes it. Whole numbers, names, codes and quoted values stay as they are. */
function valueOf(value) {
  const inner = said(value);
  if (inner !== value) return inner;
  if (/^-?\d+\.\d+$/.test(value)) return number(Number(value));
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return day(value);
  return value;
}

/** An ISO day as the pages write it (language/formats.py): 5. 12. 2026 (sl), 05.12.2026 (de). */
export function day(iso) {
  const [year, month, date] = iso.split("-").map(Number);
  const digits = language === "de" ? "2-digit" : "numeric";
  return new Intl.DateTimeFormat(language, { timeZone: "UTC", year: "numeric", month: digits, day: digits })
    .format(new Date(Date.UTC(year, month - 1, date)));
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
