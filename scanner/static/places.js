// Locations in a flow (DESIGN 27): a location's code scanned into Scan, or typed into the flow's
// Location, From or To field, sets where what follows goes (Receive, Count) or a move's ends (Move);
// and where this device last put each product, proposed the next time it is received.

import { toMilli } from "./amounts.js";
import { call } from "./api.js";
import { tell } from "./lines.js";
import * as places from "./locations.js";
import { scanProduct } from "./scanning.js";
import { choose } from "./screen.js";
import { show } from "./show.js";
import { keepFlow, screenOf, state } from "./state.js";
import * as store from "./store.js";
import { t } from "./words.js";

/** A flow's scanned(): a product's code as every flow takes it; in a flow that asks places, a code
 * the catalogue does not know given to onPlace(flow, text, startedAt) as a location's. A code that is
 * both a product's barcode and a location's code is the product's: scans of goods come far more often. */
export function scanOrPlace(onPlace) {
  return async (flow, text, startedAt) => {
    if (!flow.places?.length || state.catalogue.resolve(text)) return scanProduct(flow, text, startedAt);
    return onPlace(flow, text, startedAt);
  };
}

/** The location for the scans that follow (Receive, Count, Write off), or for all of them (Return):
 * one of the flow's warehouse. */
export async function setLocation(flow, text, startedAt) {
  const location = places.findIn(state.locations, flow.warehouse.id_warehouse, text);
  if (!location) {
    return tell("error", t("Unknown code: %(code)s", { code: text }),
                t("Not a product, nor a location of %(warehouse)s", { warehouse: flow.warehouse.name }), startedAt);
  }
  if (locationKept(flow, location.code, startedAt)) return;
  flow.location = location.code;
  await keepFlow();
  tell("ok", t("Location %(location)s", { location: location.code }), location.name || t("What follows goes here"), startedAt);
}

/** A flow that puts all its lines at one location (a return: flow.location at Book) refuses another
 * once it has lines and a location chosen: else a second shelf scanned would silently move them all.
 * Answers whether it refused (and told so). */
function locationKept(flow, code, startedAt) {
  if (!screenOf(flow.kind)?.oneLocation || !flow.lines.length || !flow.location || code === flow.location) return false;
  tell("error", t("Book or discard what was scanned first"),
       t("All of it goes to %(location)s", { location: flow.location }), startedAt);
  return true;
}

/** A move's end: `from` in the flow's warehouse or, before anything is scanned, another of the key's
 * (the flow then works in that one); `to` in any of the key's warehouses, the flow's first. Empty:
 * the warehouse's unplaced stock (`from`), not chosen yet (`to`). */
export async function setEnd(flow, which, text, startedAt) {
  const code = text.trim();
  if (which === "from" && flow.lines.length) {
    return tell("error", t("Book or discard what was scanned first"),
                t("It comes from %(location)s", { location: flow.from.location || t("unplaced stock") }), startedAt);
  }
  let end = null;
  if (code) {
    const [found] = places.findAnywhere(state.locations, state.warehouses, code, flow.warehouse.id_warehouse);
    if (!found) return tell("error", t("Unknown code: %(code)s", { code: text }), t("Not a product, nor a location of this device's warehouses"), startedAt);
    end = { id_warehouse: found.warehouse.id_warehouse, location: found.location.code, name: found.warehouse.name };
  } else if (which === "from") {
    end = { id_warehouse: flow.warehouse.id_warehouse, location: "", name: flow.warehouse.name };
  }
  return placeEnd(flow, which, end, startedAt);
}

async function placeEnd(flow, which, end, startedAt) {
  const other = which === "from" ? flow.to : flow.from;
  if (end && other && end.id_warehouse === other.id_warehouse && end.location === other.location) {
    return tell("error", t("From and To are the same place"), end.location || t("unplaced stock of %(warehouse)s", { warehouse: end.name }), startedAt);
  }
  if (which === "from" && end) {
    flow.warehouse = state.warehouses.find((w) => w.id_warehouse === end.id_warehouse) || flow.warehouse;
  }
  flow[which] = end;
  if (which === "from") {
    flow.fromStock = [];
    lotsAt(flow, end);
  }
  await keepFlow();
  const where = end ? `${end.location || t("unplaced stock")} · ${end.name}` : t("not chosen");
  tell("ok", which === "from" ? t("From: %(place)s", { place: where }) : t("To: %(place)s", { place: where }),
       which === "from" ? t("Scan what moves, then where it goes") : t("Book moves it"), startedAt);
}

/** What lies at a move's From, for the lot prompt to offer (first expiring first): fetched after the
 * scan was told, so a slow network never delays it; offline, nothing is offered and the lot is typed. */
async function lotsAt(flow, end) {
  if (!end.location) return;
  const answer = await call(state.key, "GET",
    `/v1/locations/stock?id_warehouse=${end.id_warehouse}&location=${encodeURIComponent(end.location)}`);
  if (answer.kind !== "ok" || state.flow !== flow || flow.from !== end) return;
  flow.fromStock = answer.data.list.filter((row) => row.lot)
    .map((row) => ({ product_code: row.product_code, lot: row.lot, date_exp: row.date_exp, amount_milli: toMilli(row.amount) }))
    .filter((row) => row.amount_milli) // none below zero (a depot that allows negative stock)
    .sort((a, b) => (a.date_exp || "9999") < (b.date_exp || "9999") ? -1 : 1);
  await keepFlow();
}

/** Move: the To button, for another warehouse's unplaced stock (one without locations has no code to scan). */
export async function toWarehouse() {
  const flow = state.flow;
  if (!flow) return;
  const chosen = await choose(t("Move: to which warehouse?"), t("To its unplaced stock; scan one of its locations instead to put it there."),
                              state.warehouses.map((w) => ({ label: w.name, value: w })));
  show();
  if (chosen) await placeEnd(flow, "to", { id_warehouse: chosen.id_warehouse, location: "", name: chosen.name }, performance.now());
}

/** A place typed into its field (Location, From, To) and ended with Enter, or left. */
export async function placeTyped(event) {
  const field = event.target.dataset?.place;
  const flow = state.flow;
  if (!field || !flow) return;
  const text = event.target.value.trim();
  event.target.blur();
  const now = performance.now();
  if (field !== "location") return setEnd(flow, field, text, now);
  if (text) return setLocation(flow, text, now);
  if (locationKept(flow, "", now)) return;
  flow.location = "";
  await keepFlow();
  tell("ok", t("No location chosen"), flow.proposed ? t("%(location)s is proposed", { location: flow.proposed }) : "", now);
}

/** Where a product went, kept on the device for the next time it is received into that warehouse. */
export async function rememberPlaces(idWarehouse, lines, location = null) {
  const kept = { ...(state.placed[idWarehouse] || {}) };
  for (const line of lines) {
    const code = location ?? line.location;
    if (code) kept[line.product_code] = code;
  }
  state.placed = { ...state.placed, [idWarehouse]: kept };
  await store.put("placed", state.placed);
}

/** The location a product received now is proposed: the one chosen for the scans that follow, else
 * where this device put it last (if it is still a location), else the warehouse's receiving one. */
export function proposedPlace(flow, productCode) {
  if (!flow.places?.length) return "";
  if (flow.location) return flow.location;
  const id = flow.warehouse.id_warehouse;
  const last = places.findIn(state.locations, id, state.placed[id]?.[productCode] || "");
  return last?.code || flow.proposed || "";
}
