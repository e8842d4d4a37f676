// What the page holds while it is open, in one object the modules share instead of globals of their
// own: read from IndexedDB (store.js) as the page starts, and written back there by whoever changes
// what must outlive a reload (the open flow: keepFlow). No DOM here.
// Also the flows the page offers: app.js lists them, each the module of its screen (receive.js...).

import { Catalogue } from "./catalogue.js";
import * as queue from "./queue.js";
import * as store from "./store.js";

export const state = {
  key: null, catalogue: new Catalogue(), warehouses: [], orders: [], taken: {}, flow: null, dataAt: 0,
  locations: {}, // the key's warehouses' locations, {id_warehouse: [...]} in walking order (locations.js)
  placed: {}, // where this device last put each product, {id_warehouse: {product_code: code}} (receive.js)
  entries: [], online: navigator.onLine,
  refreshing: null, // the fetch of the offline data under way (data.js)
  pending: null, // the product whose lot the lot prompt asks (scanning.js)
  camera: null, input: null, unpaired: "",
};

/** Everything the device keeps, read into the state as the page starts. */
export async function load() {
  const [pairing, catalogue, warehouses, orders, taken, flow, dataAt, locations, placed] = await Promise.all(
    ["pairing", "catalogue", "warehouses", "orders", "taken", "flow", "dataAt", "locations", "placed"]
      .map((name) => store.get(name)));
  state.key = pairing?.key || null;
  state.catalogue = new Catalogue(catalogue || []);
  state.warehouses = warehouses || [];
  state.orders = orders || [];
  state.taken = taken || {};
  state.flow = flow || null;
  state.dataAt = dataAt || 0;
  state.locations = locations || {};
  state.placed = placed || {};
  state.entries = await queue.entries();
}

/** The open flow written to the device, after every change of it: a reload loses no scan. */
export async function keepFlow() {
  await store.put("flow", state.flow ? structuredClone(state.flow) : undefined);
}

const offered = new Map();

/** The flows the page offers (app.js), each the module of its screen (flow_screen.js). */
export function offer(...screens) {
  for (const screen of screens) offered.set(screen.kind, screen);
}

/** The module of a flow's screen by its kind: the open flow's when none is named. */
export function screenOf(kind = state.flow?.kind) {
  return offered.get(kind) ?? null;
}
