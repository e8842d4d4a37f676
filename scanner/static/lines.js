// The open flow's screen as drawn: the big line of the last scan (tell: its tone, its product and
// amount), the fields of its places, the lines scanned with the changed one highlighted, and what is
// left on the order. Each
// flow draws its screen through its module's draw(flow); drawLines is the way every flow has so far.

import { inBase } from "./amounts.js";
import { signal } from "./feedback.js";
import * as rules from "./flow.js";
import { $, focusScan } from "./screen.js";
import { screenOf, state } from "./state.js";
import { amount, day, t } from "./words.js";

/** A flow's title in the page's language (flow.js keeps the English one the batches are named by). */
const TITLES = { receive: () => t("Receive"), pick: () => t("Pick"), ship: () => t("Ship"), count: () => t("Count"),
                 move: () => t("Move"), write_off: () => t("Write off"), return: () => t("Return") };
export const flowTitle = (kind) => TITLES[kind]();

/** A line's amount as people read it: "2 crate (24 pc)". */
export function amountText(line) {
  const inUnit = `${amount(line.amount_milli)} ${line.unit}`;
  if (line.unit === line.base_unit) return inUnit;
  return `${inUnit} (${amount(inBase(line.amount_milli, line.factor_milli) ?? 0)} ${line.base_unit})`;
}

/** The feedback of a scan: tone, vibration, the big line, and the time it took (for make bench). */
export function tell(kind, what, quantity, startedAt, extra = "") {
  signal(kind);
  const last = $("last");
  last.className = `last ${kind}`;
  last.querySelector(".what").textContent = what;
  last.querySelector(".qty").textContent = extra ? `${quantity} · ${extra}` : quantity;
  drawFlow();
  document.body.dataset.feedback = kind;
  document.body.dataset.feedbacks = String(Number(document.body.dataset.feedbacks || 0) + 1);
  document.body.dataset.feedbackMs = (performance.now() - startedAt).toFixed(1);
  focusScan();
}

/** The open flow's screen, drawn by its flow's module. */
export function drawFlow() {
  if (state.flow) screenOf().draw(state.flow);
}

/** The title, the leave button (`leave` names it), the lines scanned and what the order has left. */
export function drawLines(flow, leave) {
  const kind = rules.KINDS[flow.kind];
  const to = flow.to && flow.to.id_warehouse !== flow.warehouse.id_warehouse ? ` → ${flow.to.name}` : "";
  $("flow-title").textContent = `${flowTitle(flow.kind)} · ${flow.warehouse.name}${to}${flow.order ? ` · ${flow.order.document_number}` : ""}`;
  $("leave").textContent = leave;
  $("where").hidden = true; // the next location of a pick (pick.js)
  $("reason-field").hidden = true; // a write-off's or a return's (reason.js)
  drawPlaces(flow);
  $("lines").replaceChildren(...flow.lines.map((line, index) => {
    const li = document.createElement("li");
    li.className = index === flow.last ? "changed" : "";
    li.dataset.index = String(index);
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = `${line.name}${line.lot ? ` · ${t("lot %(lot)s", { lot: line.lot })}` : ""}${line.date_exp ? ` · ${day(line.date_exp)}` : ""}`
      + `${line.location ? ` · ${t("at %(location)s", { location: line.location })}` : ""}`;
    const amount = document.createElement("span");
    amount.className = "amount";
    amount.textContent = amountText(line);
    li.append(name, amount);
    return li;
  }));
  const left = flow.order ? flow.order.items.filter((line) => line.direction === kind.direction) : [];
  $("left-title").hidden = $("left").hidden = !left.length;
  $("left").replaceChildren(...left.map((line) => {
    const product = state.catalogue.product(line.product_code);
    const still = Math.max(0, line.open_milli - rules.scannedBase(flow, line.product_code));
    const li = document.createElement("li");
    li.className = still ? "" : "done";
    const lots = line.picks.filter((pick) => pick.lot).map((pick) => `${pick.lot}${pick.date_exp ? ` (${day(pick.date_exp)})` : ""}`);
    li.textContent = t("%(product)s: %(still)s of %(ordered)s %(unit)s left", { product: product ? product.name : line.product_code,
                                                                                still: amount(still), ordered: amount(line.open_milli),
                                                                                unit: product ? product.base_unit : "" })
      + (lots.length ? ` · ${t("take %(lots)s", { lots: lots.join(", ") })}` : "");
    return li;
  }));
}

/** The fields of the places the flow asks (DESIGN 27): Location, or From and To; none in a warehouse
 * without locations. A field being typed into keeps its text. */
function drawPlaces(flow) {
  const asks = flow.places || [];
  $("places").hidden = !asks.length;
  for (const name of ["location", "from", "to"]) $(`${name}-field`).hidden = !asks.includes(name);
  $("to-warehouse").hidden = !asks.includes("to");
  const fill = (id, value, placeholder) => {
    if (document.activeElement !== $(id)) $(id).value = value;
    $(id).placeholder = placeholder;
  };
  fill("location", flow.location || "",
       flow.proposed ? t("%(location)s (proposed)", { location: flow.proposed }) : t("scan the location's label"));
  fill("from", flow.from?.location || "", t("unplaced stock of %(warehouse)s", { warehouse: flow.warehouse.name }));
  fill("to", flow.to?.location || "",
       flow.to ? t("unplaced stock of %(warehouse)s", { warehouse: flow.to.name }) : t("scan where it goes"));
}
