// Pick an order (DESIGN 24): the open orders of the key's warehouses to choose from; taking one
// acquires it for this device's key (offline, only an order taken before the network went away);
// the lot prompt starts at the plan's next lot, first expiring first; Book with lines still open asks
// whether it is a partial delivery; Put back releases the order, queued as a batch is.
// In a warehouse with locations (DESIGN 27) the page leads location by location: the order's pick
// plan (GET /v1/documents/<n>/pick, fetched as the order is taken and kept with it for offline work)
// names the next location and what to take there, and each line is booked as taken from the
// location the plan took it from (its wplace).

import { call } from "./api.js";
import { refresh } from "./data.js";
import { signal } from "./feedback.js";
import * as rules from "./flow.js";
import { flowScreen } from "./flow_screen.js";
import { drawLines, tell } from "./lines.js";
import * as places from "./locations.js";
import { lostPairing } from "./pairing.js";
import * as queue from "./queue.js";
import { scanProduct } from "./scanning.js";
import { $, choose, confirm, note } from "./screen.js";
import { show } from "./show.js";
import { state } from "./state.js";
import * as store from "./store.js";
import { amount, said, t } from "./words.js";

export const pick = flowScreen("pick", {
  ask: takeOrder,
  hint: (flow) => (located(flow) ? t("Go to the location named above") : t("Scan the first code")),
  scanned: pickScanned,
  placeOf: (flow, code, lot) => (located(flow) ? places.stopFor(flow, code, lot) : ""),
  draw: (flow) => {
    drawLines(flow, t("Put back"));
    drawStop(flow);
  },
  firstLot: (flow, code) => (located(flow) && lotHere(flow, code)) || rules.nextLot(flow, code),
  readyToBook: partialAsked,
  booked: (flow) => forgetTaken(flow.order.document_number),
  leave: putBack,
});

async function takeOrder() {
  const open = state.orders.filter((o) => o.allowed_directions.includes("O") && o.items.some((l) => l.direction === "O"));
  const chosen = await choose(t("Pick an order"), open.length ? "" : t("No open order to pick."),
    open.map((o) => ({ label: `${o.document_number}${o.customer_name ? ` · ${o.customer_name}` : ""}`
                              + `${o.held_by && !state.taken[o.document_number] ? ` · ${t("held by %(who)s", { who: o.held_by })}` : ""}`, value: o })));
  if (!chosen) {
    show();
    return null;
  }
  const number = chosen.document_number;
  const answer = await call(state.key, "GET", `/v1/documents/acquire/${encodeURIComponent(number)}`);
  let order = chosen;
  if (answer.kind === "ok") {
    const planned = await call(state.key, "GET", `/v1/documents/${encodeURIComponent(number)}/pick`);
    const taken = { at: Date.now(), plan: planned.kind === "ok" ? places.planOf(planned.data.list) : null };
    await store.change("taken", (kept = {}) => ({ ...kept, [number]: taken }));
    state.taken[number] = taken;
    await refresh();
    order = state.orders.find((o) => o.document_number === number) || chosen;
  } else if (answer.kind === "later") {
    if (!state.taken[number]) {
      signal("error");
      show();
      note(t("Order %(order)s was not taken before the network went away, so another scanner may be picking it: it can be picked once the service answers.", { order: number }), "error");
      return null;
    }
  } else {
    signal("error");
    show();
    if (answer.kind === "unpaired") await lostPairing(answer.message);
    else note(said(answer.message), "error");
    return null;
  }
  const warehouse = state.warehouses.find((w) => w.id_warehouse === order.id_warehouse)
    || { id_warehouse: order.id_warehouse, name: t("Warehouse %(number)s", { number: order.id_warehouse }) };
  return rules.startFlow("pick", warehouse, order, { plan: state.taken[number]?.plan || null });
}

/** Whether the pick leads location by location: its warehouse has locations and it has a plan. */
function located(flow) {
  return Boolean(flow.plan?.length) && places.hasLocations(state.locations, flow.warehouse.id_warehouse);
}

/** A product's code as every flow takes it; a location's label scanned says whether it is the next stop. */
async function pickScanned(flow, text, startedAt) {
  const location = located(flow) && !state.catalogue.resolve(text)
    ? places.findIn(state.locations, flow.warehouse.id_warehouse, text) : null;
  if (!location) return scanProduct(flow, text, startedAt);
  const stop = places.nextStop(flow);
  if (stop && stop.location === location.code) return tell("ok", t("At %(location)s", { location: location.code }), stopText(stop), startedAt);
  return tell("warning", t("%(location)s is not the next location", { location: location.code }),
    stop ? t("Go to %(location)s", { location: stop.location || t("unplaced stock") }) : t("Everything planned is taken"), startedAt);
}

/** The lot the plan takes of a product at the next location, else at the first with some left: the
 * picker stands at a location, and of a product lots lie where the plan put them. */
function lotHere(flow, code) {
  return places.nextStop(flow)?.rows.find((row) => row.product_code === code && row.lot)?.lot || places.lotFor(flow, code);
}

/** What to take at a stop: "Milk 1 l 12 pc, Gouda 400 g lot L-OLD 4 pc". */
function stopText(stop) {
  return stop.rows.map((row) => {
    const product = state.catalogue.product(row.product_code);
    return `${product ? product.name : row.product_code}${row.lot ? ` ${t("lot %(lot)s", { lot: row.lot })}` : ""} ${amount(row.left_milli)} ${product ? product.base_unit : ""}`.trim();
  }).join(", ");
}

/** The next location to go to, and what to take there, above the scan field. */
function drawStop(flow) {
  const where = $("where");
  where.hidden = !located(flow);
  if (where.hidden) return;
  const stop = places.nextStop(flow);
  where.textContent = stop ? t("Go to %(location)s: %(what)s", { location: stop.location || t("unplaced stock"), what: stopText(stop) })
    : t("Everything planned is taken: Book");
  where.dataset.location = stop ? stop.location : "";
}

async function partialAsked(flow) {
  const open = flow.order.items.filter((line) => line.direction === "O")
    .some((line) => rules.scannedBase(flow, line.product_code) < line.open_milli);
  return !open || confirm(t("Lines are left open on the order: book what was picked as a partial delivery?"), t("Book partial"));
}

async function putBack(flow) {
  if (flow.lines.length && !(await confirm(t("Put the order back? What was scanned is not booked."), t("Put back")))) return false;
  await queue.enqueue({ kind: "release", document_number: flow.order.document_number,
                        summary: { kind: "release", document_number: flow.order.document_number,
                                   title: t("Put back %(order)s", { order: flow.order.document_number }),
                                   warehouse: flow.warehouse.name, lines: 0 } });
  await forgetTaken(flow.order.document_number);
  return true;
}

async function forgetTaken(number) {
  await store.change("taken", (taken = {}) => { delete taken[number]; return taken; });
  delete state.taken[number];
}
