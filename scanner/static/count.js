// Count (DESIGN 24): a warehouse counted blind, the book stock never shown: the warehouse, then the
// scans; a quantity of 0 is "found none" (flow.js). Booked as that warehouse's count of the day
// (type V), whose differences the day's stocktaking books. In a warehouse with locations (DESIGN 27)
// the location comes first (scanned, or typed into Location): each line counts that location's
// stock (its item's wplace), and the next location scanned counts on there.

import * as rules from "./flow.js";
import { flowScreen, whichWarehouse } from "./flow_screen.js";
import { tell } from "./lines.js";
import * as places from "./locations.js";
import { scanOrPlace, setLocation } from "./places.js";
import { state } from "./state.js";
import { t } from "./words.js";

const scanned = scanOrPlace(setLocation);

export const count = flowScreen("count", {
  ask: locatedWarehouse,
  hint: (flow) => (flow.places.length ? t("Scan the location first") : t("Scan the first code")),
  scanned: (flow, text, startedAt) => {
    if (flow.places.length && !flow.location && state.catalogue.resolve(text)) {
      return tell("error", t("Scan the location first"), t("Its label, or type its code into Location"), startedAt);
    }
    return scanned(flow, text, startedAt);
  },
  placeOf: (flow) => flow.location,
});

async function locatedWarehouse() {
  const warehouse = await whichWarehouse("count");
  if (!warehouse) return null;
  return rules.startFlow("count", warehouse, null,
                         places.hasLocations(state.locations, warehouse.id_warehouse) ? { places: ["location"] } : {});
}
