// What a scan does in the open flow (DESIGN 24): the code resolved on the device from the catalogue,
// no request per scan; checked (known, active, on the order); for a product kept by lot, its lot
// asked (the lot prompt); added as one more of its unit, more than the order has left asked first;
// and told at once. Each flow takes a scan through its module's scanned(); scanProduct is the way
// every flow has so far.

import * as rules from "./flow.js";
import { amountText, tell } from "./lines.js";
import { $, confirm, focusScan } from "./screen.js";
import { keepFlow, screenOf, state } from "./state.js";
import { amount, day, t } from "./words.js";

/** input.js's one callback: a code from the trigger, the keyboard or the camera. */
export async function scanned(text) {
  const flow = state.flow;
  if (!flow) return;
  const startedAt = performance.now();
  if (!$("lot-form").hidden) {
    // A lot label scanned while the lot is asked for: it is the lot.
    $("lot").value = text;
    return;
  }
  await screenOf(flow.kind).scanned(flow, text, startedAt);
}

/** A product's code: checked, then its lot asked or one of it added. */
export async function scanProduct(flow, text, startedAt) {
  const found = state.catalogue.resolve(text);
  if (!found) return tell("error", t("Unknown code: %(code)s", { code: text }), "", startedAt);
  const product = found.product;
  if (!product.active) return tell("error", t("%(product)s is not active: it cannot be booked.", { product: product.name }), text, startedAt);
  if (flow.order && !rules.isOnOrder(flow, product.product_code)) {
    return tell("error", t("Not on order %(order)s: %(product)s", { order: flow.order.document_number, product: product.name }),
                product.product_code, startedAt);
  }
  if (product.lot_level) {
    askLot(found);
    return tell("warning", t("%(product)s: which lot?", { product: product.name }), "", startedAt);
  }
  await add(found, {}, startedAt);
}

function beyondValues(found, beyond) {
  return { product: found.product.name, amount: amount(beyond), unit: found.product.base_unit,
           order: state.flow.order.document_number };
}

async function add(found, { lot = "", date_exp = "" }, startedAt = performance.now()) {
  const flow = state.flow;
  const code = found.product.product_code;
  const before = rules.beyondOrder(flow, code);
  const location = screenOf(flow.kind).placeOf(flow, code, lot);
  const index = rules.addScan(flow, found, { lot, date_exp, location });
  const beyond = rules.beyondOrder(flow, code);
  if (beyond > before && !(await confirm(
    rules.KINDS[flow.kind].direction === "O"
      ? t("%(product)s: that is %(amount)s %(unit)s more than is left on order %(order)s. Take it anyway? The rest is booked as a shipment beyond the order.", beyondValues(found, beyond))
      : t("%(product)s: that is %(amount)s %(unit)s more than is left on order %(order)s. Take it anyway? The rest is booked as a receipt beyond the order.", beyondValues(found, beyond)),
    t("Take it")))) {
    rules.setAmount(flow, index, flow.lines[index].amount_milli - 1000);
    await keepFlow();
    return tell("warning", t("Not taken: %(product)s", { product: found.product.name }), "", startedAt);
  }
  await keepFlow();
  const line = flow.lines[flow.last];
  const problem = rules.amountProblem(line);
  tell(problem ? "warning" : beyond ? "warning" : "ok", line.name, amountText(line), startedAt, problem);
}

// --- the lot prompt: what it offers first and whether it asks the best-before are the flow's ---------

function askLot(found) {
  const flow = state.flow;
  const screen = screenOf(flow.kind);
  state.pending = found;
  $("lot-for").textContent = `${found.product.name} (${found.product.product_code})`;
  $("lot").value = screen.firstLot(flow, found.product.product_code);
  $("best-before").value = "";
  $("best-before-label").hidden = !screen.bestBefore;
  const choices = $("lot-choices");
  choices.replaceChildren(...screen.lots(flow, found.product.product_code).map((pick) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "quiet small";
    button.textContent = `${pick.lot}${pick.date_exp ? ` · ${day(pick.date_exp)}` : ""} · ${amount(pick.amount_milli)}`;
    button.addEventListener("click", () => { $("lot").value = pick.lot; $("lot").focus(); });
    return button;
  }));
  $("lot-form").hidden = false;
  $("quantity-form").hidden = true;
  $("lot").focus();
}

/** The lot prompt put away: when its lot is given or cancelled, and when its flow ends (booked or left),
 *  so that the next flow's first scan is not taken for a lot. */
export function closeLot() {
  state.pending = null;
  $("lot-form").hidden = true;
  $("quantity-form").hidden = false;
  focusScan();
}

export async function lotGiven(event) {
  event.preventDefault();
  const found = state.pending;
  const lot = $("lot").value.trim();
  if (!found || !lot) return;
  const date_exp = screenOf(state.flow.kind).bestBefore ? $("best-before").value : "";
  closeLot();
  await add(found, { lot, date_exp });
}

export function lotCancelled() {
  closeLot();
  tell("warning", t("Not added"), "", performance.now());
}

/** A phone without a trigger: its own keyboard, to type a code (Type). */
export function typeCode() {
  $("scan").inputMode = $("scan").inputMode === "none" ? "text" : "none";
  $("scan").blur();
  $("scan").focus();
}
