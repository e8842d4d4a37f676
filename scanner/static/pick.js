// Pick an order (DESIGN 24): the open orders of the key's warehouses to choose from; taking one
// acquires it for this device's key (offline, only an order taken before the network went away);
// the lot prompt starts at the plan's next lot, first expiring first; Book with lines still open asks
// whether it is a partial delivery; Put back releases the order, queued as a batch is.

import { call } from "./api.js";
import { refresh } from "./data.js";
import { signal } from "./feedback.js";
import * as rules from "./flow.js";
import { flowScreen } from "./flow_screen.js";
import { drawLines } from "./lines.js";
import { lostPairing } from "./pairing.js";
import * as queue from "./queue.js";
import { choose, confirm, note } from "./screen.js";
import { show } from "./show.js";
import { state } from "./state.js";
import * as store from "./store.js";
import { t } from "./words.js";

export const pick = flowScreen("pick", {
  ask: takeOrder,
  draw: (flow) => drawLines(flow, t("Put back")),
  firstLot: rules.nextLot,
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
    await store.change("taken", (taken = {}) => ({ ...taken, [number]: { at: Date.now() } }));
    state.taken[number] = { at: Date.now() };
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
    else note(answer.message, "error");
    return null;
  }
  const warehouse = state.warehouses.find((w) => w.id_warehouse === order.id_warehouse)
    || { id_warehouse: order.id_warehouse, name: t("Warehouse %(number)s", { number: order.id_warehouse }) };
  return rules.startFlow("pick", warehouse, order);
}

async function partialAsked(flow) {
  const open = flow.order.items.filter((line) => line.direction === "O")
    .some((line) => rules.scannedBase(flow, line.product_code) < line.open_milli);
  return !open || confirm(t("Lines are left open on the order: book what was picked as a partial delivery?"), t("Book partial"));
}

async function putBack(flow) {
  if (flow.lines.length && !(await confirm(t("Put the order back? What was scanned is not booked."), t("Put back")))) return false;
  await queue.enqueue({ kind: "release", document_number: flow.order.document_number,
                        summary: { kind: "release", title: `Put back ${flow.order.document_number}`,
                                   warehouse: flow.warehouse.name, lines: 0 } });
  await forgetTaken(flow.order.document_number);
  return true;
}

async function forgetTaken(number) {
  await store.change("taken", (taken = {}) => { delete taken[number]; return taken; });
  delete state.taken[number];
}
