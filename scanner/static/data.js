// The data kept on the device for offline work (DESIGN 25): the catalogue, the key's warehouses, their
// locations (DESIGN 27) and their open orders, fetched anew (as the page starts, at most once a minute, at Refresh) and kept
// in IndexedDB, with a block of batch numbers kept ahead.

import { toMilli } from "./amounts.js";
import { call } from "./api.js";
import { Catalogue, kept } from "./catalogue.js";
import * as numbers from "./numbers.js";
import { lostPairing } from "./pairing.js";
import { draw } from "./show.js";
import { state } from "./state.js";
import { drawStatus } from "./status.js";
import * as store from "./store.js";

/** The catalogue, the key's warehouses and their locations, and the open orders, fetched anew and
 * kept on the device. */
export async function refresh() {
  if (!state.key || state.refreshing) return state.refreshing;
  state.refreshing = (async () => {
    const [products, warehouses, orders] = await Promise.all([
      call(state.key, "GET", "/v1/products/"), call(state.key, "GET", "/v1/warehouses/"),
      call(state.key, "GET", "/v1/open_orders/")]);
    const answers = [products, warehouses, orders];
    const unpaired = answers.find((answer) => answer.kind === "unpaired");
    if (unpaired) return lostPairing(unpaired.message);
    if (answers.some((answer) => answer.kind !== "ok")) {
      state.online = false;
      return drawStatus();
    }
    state.online = true;
    const slim = products.data.list.map(kept);
    state.catalogue = new Catalogue(slim);
    const active = warehouses.data.list.filter((warehouse) => warehouse.active);
    const places = await Promise.all(active.map((warehouse) =>
      call(state.key, "GET", `/v1/locations/?id_warehouse=${warehouse.id_warehouse}`)));
    if (places.some((answer) => answer.kind !== "ok")) {
      state.online = false; // kept as they were: the next refresh fetches all of it again
      return drawStatus();
    }
    state.warehouses = active;
    state.locations = Object.fromEntries(active.map((warehouse, i) =>
      [warehouse.id_warehouse, places[i].data.list.filter((location) => location.active)]));
    state.orders = orders.data.list.map(orderOf);
    state.dataAt = Date.now();
    await Promise.all([store.put("catalogue", slim), store.put("warehouses", state.warehouses),
                       store.put("locations", state.locations), store.put("orders", state.orders),
                       store.put("dataAt", state.dataAt)]);
    await numbers.keepAhead(state.key);
    draw();
  })().finally(() => { state.refreshing = null; });
  return state.refreshing;
}

/** An open order as the device keeps it: amounts in thousandths. */
function orderOf(order) {
  return { ...order, items: order.items.map((line) => ({
    ...line, open_milli: toMilli(line.amount_open), ordered_milli: toMilli(line.amount_ordered),
    picks: line.picks.map((pick) => ({ lot: pick.lot, date_exp: pick.date_exp, amount_milli: toMilli(pick.amount) })) })) };
}
