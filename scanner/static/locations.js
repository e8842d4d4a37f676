// Locations on the device (DESIGN 27), without the page: the key's warehouses' locations as
// GET /v1/locations/ lists them (kept by data.js, {id_warehouse: [location...]}), a code looked up
// in them, an order's pick plan followed stop by stop, and the body of a move.

import { fromMilli, inBase, toMilli } from "./amounts.js";

/** A warehouse's active locations, in walking order. */
export function locationsOf(all, idWarehouse) {
  return all?.[idWarehouse] || [];
}

/** Whether a warehouse has locations: without, every flow works as it did before them. */
export function hasLocations(all, idWarehouse) {
  return locationsOf(all, idWarehouse).length > 0;
}

/** The location of a warehouse with this code, whatever its case (as the service compares them). */
export function findIn(all, idWarehouse, code) {
  const wanted = String(code).trim().toUpperCase();
  return locationsOf(all, idWarehouse).find((location) => location.code.toUpperCase() === wanted) || null;
}

/** Every {warehouse, location} of the key's warehouses with this code, the warehouse `first` first. */
export function findAnywhere(all, warehouses, code, first) {
  const ordered = [...warehouses].sort((a, b) => (b.id_warehouse === first) - (a.id_warehouse === first));
  return ordered.map((warehouse) => ({ warehouse, location: findIn(all, warehouse.id_warehouse, code) }))
    .filter((found) => found.location);
}

/** The warehouse's default receiving location's code, or "" (goods-in then stay unplaced). */
export function receivingOf(all, idWarehouse) {
  return locationsOf(all, idWarehouse).find((location) => location.receiving)?.code || "";
}

// --- picking in walking order: GET /v1/documents/<n>/pick, followed location by location ----------

/** The pick plan as the device keeps it: amounts in thousandths, the service's walking order kept. */
export function planOf(list) {
  return list.map((row) => ({ product_code: row.product_code, lot: row.lot, date_exp: row.date_exp,
                              location: row.location, amount_milli: toMilli(row.amount) }));
}

/** The plan's rows with what is left of each (left_milli): what the flow's lines took from a row's
 * location of its product and lot counts against that row first, in the plan's order. */
export function planLeft(flow) {
  const taken = new Map();
  for (const line of flow.lines) {
    const key = `${line.product_code}\n${line.lot}\n${line.location || ""}`;
    taken.set(key, (taken.get(key) || 0) + (inBase(line.amount_milli, line.factor_milli) ?? 0));
  }
  return (flow.plan || []).map((row) => {
    const key = `${row.product_code}\n${row.lot}\n${row.location}`;
    const used = Math.min(row.amount_milli, taken.get(key) || 0);
    taken.set(key, (taken.get(key) || 0) - used);
    return { ...row, left_milli: row.amount_milli - used };
  });
}

/** The next stop of the plan: the first location with something left to take, and what (null when
 * everything planned is taken). */
export function nextStop(flow) {
  const rows = planLeft(flow).filter((row) => row.left_milli > 0);
  if (!rows.length) return null;
  const location = rows[0].location;
  return { location, rows: rows.filter((row) => row.location === location) };
}

/** Where a product (of this lot, when it has one) is taken from next by the plan: the location of
 * its first row with something left, else of its last row; "" when the plan has none of it (the
 * service then takes it as any goods-out without a location). */
export function stopFor(flow, productCode, lot = "") {
  const rows = planLeft(flow).filter((row) => row.product_code === productCode && row.lot === lot);
  return (rows.find((row) => row.left_milli > 0) || rows[rows.length - 1])?.location || "";
}

/** The lot the plan takes next of a product ("" when the plan has none left). */
export function lotFor(flow, productCode) {
  return planLeft(flow).find((row) => row.product_code === productCode && row.lot && row.left_milli > 0)?.lot || "";
}

// --- moves: POST /v1/moves/ --------------------------------------------------------------------

/** A move's, a write-off's or a return's own id, a UUID (version 4), fixed before its first send.
 * crypto.randomUUID exists only over HTTPS; getRandomValues everywhere. */
export function newId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The body of POST /v1/moves/ for a Move flow: its lines in base units, one item per product and lot. */
export function moveOf(flow, moveId) {
  const items = new Map();
  for (const line of flow.lines) {
    const key = `${line.product_code}\n${line.lot}`;
    const item = items.get(key) || { product_code: line.product_code, lot: line.lot, milli: 0 };
    item.milli += inBase(line.amount_milli, line.factor_milli);
    items.set(key, item);
  }
  const place = (p) => ({ id_warehouse: p.id_warehouse, location: p.location });
  return { move_id: moveId, from: place(flow.from), to: place(flow.to),
           items: [...items.values()].map(({ milli, ...item }) => ({ ...item, amount: fromMilli(milli) })),
           note: "browser scanner" };
}
