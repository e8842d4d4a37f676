// The scanner's words in the page's language (DESIGN 29): the page carries them, read by the
// service from the same catalogues as the office's pages (language/catalogue.py), so there is no
// build step. t("Send now") gives the words; t("%(count)s waiting", { count }) fills the places.
// Numbers and dates are written as the pages write them. said(message) reads a
// refusal of the service, which answers in English, back into the same language.

import { fromMilli, toMilli } from "./amounts.js";

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
  return fill(formOf(forms, count), all);
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
// What a value may be, where the English says: a count and %d a whole number; %r a Python repr
// (a quoted text, or a number), so that a value never swallows the words before its quote.
const VALUE = { count: /^\d+$/, d: /^-?\d+$/, r: /^(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|-?\d+)$/ };
let patterns = null;

/** Each message with places as its words between them ("Must be greater than ", ".") and its
 * places, the longest English first. A message that is only its places would match anything,
 * and never does; one without places is looked up as it is. */
function patternsOf() {
  const made = [];
  for (const [english, words] of Object.entries(refusals)) {
    const parts = [""];
    const places = [];
    let at = 0;
    for (const place of english.matchAll(PLACE)) {
      parts[parts.length - 1] += english.slice(at, place.index);
      at = place.index + place[0].length;
      if (place[0] === "%%") parts[parts.length - 1] += "%";
      else {
        places.push([place[1], place[2]]);
        parts.push("");
      }
    }
    parts[parts.length - 1] += english.slice(at);
    const literal = parts.join("").length;
    if (places.length && literal) made.push({ parts, places, words, literal });
  }
  return made.sort((a, b) => b.literal - a.literal);
}

/** Every way `text` reads as `pattern`: {name: value} for each, values checked by VALUE. */
function* matches({ parts, places }, text, at = parts[0].length, index = 0, values = {}) {
  if (index === 0 && !(text.startsWith(parts[0]) && text.endsWith(parts[parts.length - 1])
                       && text.length >= parts[0].length + parts[parts.length - 1].length)) return;
  if (index === places.length) {
    if (at === text.length) yield values;
    return;
  }
  const [name, kind] = places[index];
  const next = parts[index + 1];
  const last = index === places.length - 1;
  // The value ends where the next words begin: at the text's end for the last, else at any of
  // their places.
  const ends = [];
  if (last) ends.push(text.length - next.length);
  else for (let end = text.indexOf(next, at); end >= 0 && end <= text.length; end = text.indexOf(next, end + 1)) {
    ends.push(end);
    if (end === text.length) break;
  }
  for (const end of ends) {
    if (end < at) continue;
    const value = text.slice(at, end);
    const allowed = VALUE[name === "count" ? "count" : kind];
    if ((allowed && !allowed.test(value)) || (name in values && values[name] !== value)) continue;
    yield* matches({ parts, places }, text, end + next.length, index + 1, { ...values, [name]: value });
  }
}

// The page's language is fixed for its life: each text is read once, however often the queue's
// list is drawn again (a refused thousand-line batch has a message a line).
const readings = new Map();

/** The best reading of `text`: the one that explains most of its words, a value that is a message
 * of its own ("lot L1", the first refused line inside the count's message) counted with its own.
 * So "Milk, 1 l, without a lot, in Main" names the product "Milk, 1 l", and "1 item(s) refused,
 * e.g.: ..." is read whole rather than as the inner message with a long value before it. */
function reading(text) {
  if (readings.has(text)) return readings.get(text);
  readings.set(text, null); // (a value is shorter than its text: no reading waits on itself)
  let best = Object.hasOwn(refusals, text) ? { score: text.length, words: refusals[text], values: {}, places: [] } : null;
  if (!best) {
    patterns ??= patternsOf();
    for (const pattern of patterns) {
      if (best && best.score === text.length) break; // every word explained: none reads it better
      for (const values of matches(pattern, text)) {
        let score = pattern.literal;
        for (const [name, kind] of pattern.places) {
          if (kind === "s" && MESSAGE_PLACES.has(name)) score += reading(values[name])?.score || 0;
        }
        if (!best || score > best.score) best = { score, words: pattern.words, values, places: pattern.places };
      }
    }
  }
  readings.set(text, best);
  return best;
}

/** A message of the service (error.message, a field's message) in the page's language: read back
 * by its English, its values in place; as it came where the catalogue has no such message. */
export function said(message) {
  if (typeof message !== "string" || !message || language === "en") return message;
  return written(message);
}

// Places whose value may be a message of its own (stock/naming.py's "lot L1" and "warehouse 2",
// the first refused line, an inner error): a product's, a warehouse's or a person's name stays
// as it came, even where it reads like a message ("lot 5 screws").
const MESSAGE_PLACES = new Set(["lot", "warehouse", "first", "message", "error"]);
// Places that hold an amount (stock/quantities.py from_milli) or a day (a date passed as one):
// written as the language writes them. A location's or a lot's code ("01.02", "2026-11-28") is
// no amount and no day, and stays as the shelf's label says it.
const AMOUNT_PLACES = new Set(["amount", "short", "base", "delivered", "returned", "free", "wanted", "available",
                               "min", "max"]);
const DAY_PLACES = new Set(["day", "today"]);

function written(text) {
  const found = reading(text);
  if (!found) return text;
  const { words, values, places } = found;
  // A %(name)r value is quoted as the API wrote it (a code, a unit): it stays as it came.
  const filled = Object.fromEntries(places.map(([name, kind]) =>
    [name, kind === "s" ? valueOf(name, values[name]) : values[name]]));
  return fill(formOf(words, /^\d+$/.test(values.count ?? "") ? Number(values.count) : null), filled);
}

/** A message's words; a count's message in its form for `count`, by the category Intl.PluralRules
 * names (one whose English leaves the count out comes as one form already; without a count, the
 * form of many). tn() and a refusal read back choose alike. */
function formOf(translation, count) {
  if (!Array.isArray(translation)) return translation;
  const category = count === null ? "other" : new Intl.PluralRules(language).select(count);
  const index = (FORMS[language] || ["one", "other"]).indexOf(category);
  return translation[index < 0 ? translation.length - 1 : index] || translation[translation.length - 1];
}

/** A value read out of a message by its place: a message of its own in the language too; an
 * amount with a fraction with the language's decimal sign, a day as the language writes it.
 * Whole numbers, names and codes stay as they are. */
function valueOf(name, value) {
  if (MESSAGE_PLACES.has(name) && reading(value)) return written(value);
  if (AMOUNT_PLACES.has(name) && /^-?\d+\.\d+$/.test(value)) return amountOf(value);
  if (DAY_PLACES.has(name) && /^\d{4}-\d{2}-\d{2}$/.test(value)) return day(value);
  return value;
}

/** An amount as the API wrote it ("-1234.5"), as the language writes it; as it came when it has more
 * places than an amount has. */
function amountOf(value) {
  const milli = toMilli(value.replace(/^-/, ""));
  if (milli === null) return value;
  return amount(value.startsWith("-") ? -milli : milli);
}

// As the pages (language/formats.py): Slovenian and German write days and amounts as their people
// do; English keeps the API's own forms (2026-11-27, 1234.5), which the office reads everywhere.
const OWN_FORMS = language === "sl" || language === "de";

/** An ISO day as the pages write it: 2026-12-05 (en), 5. 12. 2026 (sl), 05.12.2026 (de); built from
 * its digits, as Babel's patterns do (a Date would read the year 26 as 1926). */
export function day(iso) {
  const found = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!OWN_FORMS || !found) return iso;
  const [year, month, date] = found.slice(1).map(Number);
  if (language === "de") return `${found[3]}.${found[2]}.${year}`;
  return `${date}. ${month}. ${year}`;
}

/** A moment as the pages write it, on the device's clock: its day, then a 24-hour time: 2026-11-27
 * 14:05 (en), 27. 11. 2026 14:05 (sl), 27.11.2026 14:05 (de). */
export function moment(value) {
  const at = new Date(value);
  const two = (n) => String(n).padStart(2, "0");
  return `${day(`${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}`)} ${two(at.getHours())}:${two(at.getMinutes())}`;
}

/** Thousandths as the pages write the amount (language/formats.py amount_text): 1234.5 as the API
 * writes it in English, 1.234,5 in sl and de. Grouped by hand: the browser's own Slovenian writes
 * 1234,5 and a minus sign U+2212, and an older phone's browser knows no way to ask it otherwise. */
export function amount(milli) {
  if (!OWN_FORMS) return fromMilli(milli);
  const [whole, part] = fromMilli(Math.abs(milli)).split(".");
  return `${milli < 0 ? "-" : ""}${grouped(whole, ".")}${part ? `,${part}` : ""}`;
}

/** Thousandths as a person types the amount (language/formats.py amount_to_type): ungrouped, with
 * the language's decimal sign: 1234,5 in sl and de. */
export function amountToType(milli) {
  const text = fromMilli(milli);
  return OWN_FORMS ? text.replace(".", ",") : text;
}

/** A count as the pages group it (language/formats.py count_text): 12,345 (en), 12.345 (sl, de). */
export function number(value) {
  return `${value < 0 ? "-" : ""}${grouped(String(Math.abs(Math.trunc(value))), OWN_FORMS ? "." : ",")}`;
}

/** "1234567" -> "1.234.567": a separator before each group of three digits from the right. */
function grouped(digits, separator) {
  return digits.replace(/\B(?=(\d{3})+$)/g, separator);
}
