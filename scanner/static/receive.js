// Receive (DESIGN 24): the warehouse, and when it has orders with goods to receive, whether it is
// against one of them; a product kept by lot asks its lot and its best-before. Booked as a goods-in
// (type R, direction I), against the order when one was chosen. In a warehouse with locations (DESIGN
// 27) each line goes to a location: the one scanned (or typed into Location) for the scans that
// follow, else where this device put the product last, else the warehouse's receiving location.

import * as rules from "./flow.js";
import { flowScreen, whichWarehouse } from "./flow_screen.js";
import * as places from "./locations.js";
import { proposedPlace, rememberPlaces, scanOrPlace, setLocation } from "./places.js";
import { choose } from "./screen.js";
import { show } from "./show.js";
import { state } from "./state.js";
import { t } from "./words.js";

export const receive = flowScreen("receive", {
  ask: warehouseAndOrder,
  hint: (flow) => (flow.places.length ? t("Scan the location, or the first code") : t("Scan the first code")),
  scanned: scanOrPlace(setLocation),
  placeOf: proposedPlace,
  bestBefore: true,
  booked: (flow) => rememberPlaces(flow.warehouse.id_warehouse, flow.lines),
});

async function warehouseAndOrder() {
  const warehouse = await whichWarehouse("receive");
  if (!warehouse) return null;
  let order = null;
  const expected = state.orders.filter((o) => o.id_warehouse === warehouse.id_warehouse
    && o.allowed_directions.includes("I") && o.items.some((line) => line.direction === "I"));
  if (expected.length) {
    const chosen = await choose(t("Receive: against an order?"), `${warehouse.name}`,
      [{ label: t("Without an order"), value: "none" },
       ...expected.map((o) => ({ label: `${o.document_number}${o.description ? ` · ${o.description}` : ""}`, value: o }))]);
    if (!chosen) {
      show();
      return null;
    }
    order = chosen === "none" ? null : chosen;
  }
  const located = places.hasLocations(state.locations, warehouse.id_warehouse);
  return rules.startFlow("receive", warehouse, order, located
    ? { places: ["location"], proposed: places.receivingOf(state.locations, warehouse.id_warehouse) } : {});
}
