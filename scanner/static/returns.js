// Return (DESIGN 28): goods a customer sent back. The warehouse, then the delivered order they came
// back against (its number scanned, or typed into Scan), then what came back (its lot asked of a
// product kept by lot) and how much, and the Reason; in a warehouse with locations, where it is put
// (scanned, or typed into Location; none: the warehouse's hold location, chosen by the service).
// Booked as one return (POST /v1/returns/) whose return_id is fixed as it is queued: sent exactly once.
// Online, the order's number is checked as it is scanned; offline, the service checks it when it is sent.

import { call } from "./api.js";
import * as rules from "./flow.js";
import { flowScreen, whichWarehouse } from "./flow_screen.js";
import { drawLines, tell } from "./lines.js";
import { hasLocations, newId } from "./locations.js";
import { RETURN_REASONS, returnOf } from "./lot_flows.js";
import { scanOrPlace, setLocation } from "./places.js";
import * as queue from "./queue.js";
import { drawReason, reasonGiven, reasonWords } from "./reason.js";
import { $ } from "./screen.js";
import { keepFlow, state } from "./state.js";
import { t } from "./words.js";

const goodsOrPlace = scanOrPlace(setLocation);

export const takeBack = flowScreen("return", {
  ask: locatedWarehouse,
  hint: (flow) => (flow.document_number ? t("Scan what came back") : t("Scan or type the order's number")),
  scanned: (flow, text, startedAt) => (flow.document_number ? goodsOrPlace(flow, text, startedAt)
    : orderScanned(flow, text, startedAt)),
  draw: (flow) => {
    drawLines(flow, t("Discard"));
    if (flow.document_number) $("flow-title").textContent += ` · ${flow.document_number}`;
    drawReason(flow, RETURN_REASONS);
  },
  oneLocation: true, // the return's one location (lot_flows.js returnOf): a second shelf is refused
  readyToBook: async (flow) => reasonGiven(flow),
  queue: queueReturn,
});

async function locatedWarehouse() {
  const warehouse = await whichWarehouse("return");
  if (!warehouse) return null;
  const located = hasLocations(state.locations, warehouse.id_warehouse);
  return { ...rules.startFlow("return", warehouse, null, located ? { places: ["location"] } : {}),
           document_number: "", reason: "" };
}

/** The order's number: a product's code is not one; one the service does not know (or knows in
 * another warehouse) is refused at once while online. */
async function orderScanned(flow, text, startedAt) {
  const number = text.trim();
  if (state.catalogue.resolve(number)) {
    return tell("error", t("Scan the order's number first"), t("The delivered order the goods came back against"), startedAt);
  }
  const answer = await call(state.key, "GET", `/v1/documents/${encodeURIComponent(number)}`);
  if (answer.kind === "refused") return tell("error", t("No order %(order)s", { order: number }), "", startedAt);
  if (answer.kind === "ok" && answer.data.item.id_warehouse !== flow.warehouse.id_warehouse) {
    return tell("error", t("Order %(order)s is not of %(warehouse)s", { order: number, warehouse: flow.warehouse.name }),
                "", startedAt);
  }
  flow.document_number = number;
  await keepFlow();
  tell(answer.kind === "ok" ? "ok" : "warning", t("Order %(order)s", { order: number }),
       answer.kind === "ok" ? t("Scan what came back") : t("Offline: the service checks the order when it is sent"), startedAt);
}

async function queueReturn(flow) {
  const body = returnOf(flow, newId());
  await queue.enqueue({ kind: "return", body, summary: {
    kind: "return", title: `${t("Return")} ${flow.document_number} · ${reasonWords(flow.reason)}`,
    warehouse: flow.warehouse.name, lines: body.items.length, flow: structuredClone(flow) } });
  return 1;
}
