// What the bar and the home screen say of the device and the service: online, offline or not
// paired, and the batches on the device, each with its state and, once refused, the service's reasons.

import * as queue from "./queue.js";
import { $ } from "./screen.js";
import { state } from "./state.js";
import { said, t, tn } from "./words.js";

export function drawStatus() {
  const net = $("net");
  net.textContent = state.unpaired ? t("Not paired") : state.online ? t("Online") : t("Offline");
  net.className = `net ${state.unpaired ? "bad" : state.online ? "good" : "away"}`;
}

export async function drawQueue() {
  state.entries = await queue.entries();
  const { waiting, attention } = queue.counts(state.entries);
  document.querySelector("[data-queue-waiting]").textContent = String(waiting);
  document.querySelector("[data-queue-attention]").textContent = String(attention);
  const shown = [...state.entries].reverse();
  $("queue-empty").hidden = shown.length > 0;
  $("queue-list").replaceChildren(...shown.map(entryItem));
}

const STATES = { waiting: () => t("waiting"), sending: () => t("sending"), booked: () => t("booked"),
                 attention: () => t("needs attention") };

/** What an entry is, said in the device's language when it is shown: a move by its ends, a put-back
 * by its order; a batch by its name. An entry queued before its summary kept those keeps its title. */
export function entryTitle(summary) {
  if (summary.kind === "move" && summary.from !== undefined) {
    return t("Move %(from)s → %(to)s", { from: summary.from, to: summary.to });
  }
  if (summary.kind === "release" && summary.document_number) {
    return t("Put back %(order)s", { order: summary.document_number });
  }
  return summary.title;
}

function entryItem(entry) {
  const li = document.createElement("li");
  li.className = `entry ${entry.state}`;
  li.dataset.state = entry.state;
  const head = document.createElement("div");
  const title = entry.number ? t("#%(number)s %(title)s", { number: entry.number, title: entryTitle(entry.summary) })
    : entryTitle(entry.summary);
  const values = { title, warehouse: entry.summary.warehouse, state: STATES[entry.state]() };
  // Apart from the t() it fills: pybabel's JavaScript reader misses a call inside another's arguments.
  const lines = tn("%(count)s line", "%(count)s lines", entry.summary.lines);
  head.textContent = entry.summary.lines
    ? t("%(title)s · %(warehouse)s · %(lines)s — %(state)s", { ...values, lines })
    : t("%(title)s · %(warehouse)s — %(state)s", values);
  li.append(head);
  if (entry.answer && entry.state !== "booked") {
    const why = document.createElement("p");
    why.className = "why";
    // Kept as the service answered it, in English: read in the device's language as it is shown.
    why.textContent = `${entry.answer.status ? `${entry.answer.status}: ` : ""}${said(entry.answer.message)}`;
    li.append(why);
    for (const [problem] of itemProblems(entry)) {
      const p = document.createElement("p");
      p.className = "why";
      p.textContent = problem;
      li.append(p);
    }
  }
  if (entry.state === "attention") {
    // Their clicks are attention.js's.
    const row = document.createElement("div");
    row.className = "row";
    for (const [act, label] of [["again", t("Send again")], ["edit", t("Edit")], ["delete", t("Delete")]]) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "small quiet";
      Object.assign(button.dataset, { entry: entry.id, act });
      button.textContent = label;
      row.append(button);
    }
    li.append(row);
  }
  return li;
}

/** The service's message by item: "Line 2 (Milk 1 l): amount: More than ordered, by 2." */
function itemProblems(entry) {
  const data = entry.answer?.fields?.data || {};
  const items = data.batch_items || data.items || {}; // a batch's lines, a move's items
  return Object.entries(items).map(([index, fields]) => {
    const item = (entry.body?.batch_items || entry.body?.items)?.[Number(index)];
    const what = Object.entries(fields).map(([field, messages]) => `${field}: ${[].concat(messages).map(said).join(" ")}`).join("; ");
    const number = Number(index) + 1;
    return [item ? t("Line %(number)s (%(product)s): %(problems)s", { number, product: item.name || item.product_code, problems: what })
      : t("Line %(number)s: %(problems)s", { number, problems: what })];
  });
}
