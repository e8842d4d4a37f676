// Write off (DESIGN 28): stock that leaves for a reason, not to a customer. The warehouse, then what
// goes (its lot asked of a product kept by lot) and how much (Quantity), in a warehouse with locations
// taken from the location scanned (or typed into Location) for the scans that follow; with none chosen
// (or no locations), as any goods-out without a location takes (unplaced first, then the locations in
// walking order, hold ones last); then the Reason. Booked as one write-off (POST /v1/write_offs/)
// whose write_off_id is fixed as it is queued: sent exactly once, as a move is.

import * as rules from "./flow.js";
import { flowScreen, whichWarehouse } from "./flow_screen.js";
import { drawLines } from "./lines.js";
import { hasLocations, newId } from "./locations.js";
import { WRITE_OFF_REASONS, writeOffOf } from "./lot_flows.js";
import { scanOrPlace, setLocation } from "./places.js";
import * as queue from "./queue.js";
import { drawReason, reasonGiven, reasonWords } from "./reason.js";
import { state } from "./state.js";
import { t } from "./words.js";

export const writeOff = flowScreen("write_off", {
  ask: locatedWarehouse,
  hint: (flow) => (flow.places.length ? t("Scan the location, or what goes") : t("Scan what goes")),
  scanned: scanOrPlace(setLocation),
  placeOf: (flow) => flow.location || "",
  draw: (flow) => {
    drawLines(flow, t("Discard"));
    drawReason(flow, WRITE_OFF_REASONS);
  },
  readyToBook: async (flow) => reasonGiven(flow),
  queue: queueWriteOff,
});

async function locatedWarehouse() {
  const warehouse = await whichWarehouse("write_off");
  if (!warehouse) return null;
  const located = hasLocations(state.locations, warehouse.id_warehouse);
  return { ...rules.startFlow("write_off", warehouse, null, located ? { places: ["location"] } : {}), reason: "" };
}

async function queueWriteOff(flow) {
  const body = writeOffOf(flow, newId());
  await queue.enqueue({ kind: "write_off", body, summary: {
    kind: "write_off", title: `${t("Write off")} · ${reasonWords(flow.reason)}`, warehouse: flow.warehouse.name,
    lines: body.items.length, flow: structuredClone(flow) } });
  return 1;
}
