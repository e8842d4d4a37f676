// Write-offs and returns on the device (DESIGN 28), without the page: the reasons each offers, and the
// bodies of POST /v1/write_offs/ and POST /v1/returns/ made from a flow's lines. Their ids are fixed
// as they are queued (locations.js newId), so every later send is the same request: the service books
// a repeated write_off_id or return_id once.

import { fromMilli, inBase } from "./amounts.js";

/** Why stock is written off: the API's values (stock/write_offs.py REASONS), in this order. */
export const WRITE_OFF_REASONS = ["expired", "damaged", "lost", "sample", "other"];
/** Why goods come back: the API takes any words; these are the ones a depot hears most. */
export const RETURN_REASONS = ["damaged", "expired", "wrong goods", "not wanted", "other"];

/** The flow's lines summed in base units, one item per product, lot and (when `byLocation`) location. */
function items(flow, byLocation) {
  const summed = new Map();
  for (const line of flow.lines) {
    const location = byLocation ? line.location || "" : "";
    const key = `${line.product_code}\n${line.lot}\n${location}`;
    const item = summed.get(key) || { product_code: line.product_code, lot: line.lot, location, milli: 0 };
    item.milli += inBase(line.amount_milli, line.factor_milli);
    summed.set(key, item);
  }
  return [...summed.values()].map(({ milli, location, ...item }) =>
    ({ ...item, amount: fromMilli(milli), ...(byLocation ? { location } : {}) }));
}

/** POST /v1/write_offs/'s body: each line taken from its location; one without ("") is taken as any
 * goods-out without a location is (unplaced first, then the locations in walking order, hold ones last). */
export function writeOffOf(flow, id) {
  return { write_off_id: id, id_warehouse: flow.warehouse.id_warehouse, reason: flow.reason,
           note: "browser scanner", items: items(flow, true) };
}

/** POST /v1/returns/'s body: what came back against the flow's order, put at its location (""
 * lets the service choose the warehouse's first hold location, else unplaced). */
export function returnOf(flow, id) {
  return { return_id: id, document_number: flow.document_number, reason: flow.reason,
           items: items(flow, false), location: flow.location || "" };
}
