// The Quantity field and its keypad: the highlighted line's amount set (0 takes the line out, but in
// a count: "found none"), more than the order has left asked first. A tap on a line highlights it
// and opens the keypad on its amount.

import { toMilli } from "./amounts.js";
import * as rules from "./flow.js";
import { amountText, drawFlow, tell } from "./lines.js";
import { $, confirm } from "./screen.js";
import { keepFlow, state } from "./state.js";
import { amount, amountToType, t } from "./words.js";

/** The keypad opens with the quantity, so that the scanned lines keep the screen the rest of the time. */
export function openKeypad() {
  $("quantity-form").classList.add("open");
}

export function keypad(event) {
  const key = event.target.closest("button[data-key]")?.dataset.key;
  if (!key) return;
  const field = $("quantity");
  field.value = key === "⌫" ? field.value.slice(0, -1) : field.value + key;
}

export async function setQuantity(event) {
  event.preventDefault();
  const flow = state.flow;
  if (!flow || flow.last < 0) return tell("error", t("Scan something first"), "", performance.now());
  const milli = toMilli($("quantity").value);
  if (milli === null) return tell("error", t("Not a quantity"), $("quantity").value, performance.now());
  const line = flow.lines[flow.last];
  const before = line.amount_milli;
  rules.setAmount(flow, flow.last, milli);
  const beyond = rules.beyondOrder(flow, line.product_code);
  if (beyond > 0 && milli > before && !(await confirm(
    t("%(product)s: that is %(amount)s %(unit)s more than is left on order %(order)s. Take it anyway?",
      { product: line.name, amount: amount(beyond), unit: line.base_unit, order: flow.order.document_number }),
    t("Take it")))) {
    rules.setAmount(flow, flow.lines.indexOf(line), before);
  }
  $("quantity").value = "";
  $("quantity-form").classList.remove("open");
  await keepFlow();
  const now = flow.lines.includes(line) ? line : null;
  tell(now && rules.amountProblem(now) ? "warning" : "ok", now ? now.name : t("%(product)s: taken out", { product: line.name }),
       now ? amountText(now) : "", performance.now(), now ? rules.amountProblem(now) : "");
}

/** A tap on a scanned line: it is highlighted, and the keypad opens on its amount. */
export function chooseLine(event) {
  const li = event.target.closest("li[data-index]");
  if (!li || !state.flow) return;
  state.flow.last = Number(li.dataset.index);
  keepFlow();
  drawFlow();
  $("quantity").value = amountToType(state.flow.lines[state.flow.last].amount_milli);
  openKeypad();
}
