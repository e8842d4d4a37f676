// What each flow's module is (receive.js, pick.js, ship.js, count.js, move.js, write_off.js, returns.js):
// flowScreen(kind, {what the flow does its own way}); for the rest, what every flow does (after "by
// default").
//   kind                    its name in flow.js's KINDS (its rules) and on its home button (data-flow)
//   ask()                   what it asks before the first scan: the new flow (flow.js startFlow), or
//                           null once it has shown the home screen again (the person went back, or
//                           the flow cannot start); by default the warehouse
//   hint(flow)              the first words on its screen; by default "Scan the first code"
//   scanned(flow, text, startedAt)  what a scan does in it; by default scanning.js's scanProduct
//                           (places.js's scanOrPlace: a location's code, too)
//   placeOf(flow, productCode, lot)  the location a product scanned now goes to or comes from, its
//                           line's (and batch item's) wplace; by default none ("")
//   draw(flow)              how it draws its screen; by default lines.js's drawLines, leaving by "Discard"
//   firstLot(flow, code)    the lot the lot prompt starts with; by default none ("")
//   lots(flow, code)        the lots the lot prompt offers as buttons ({lot, date_exp, amount_milli});
//                           by default those the order plans (flow.js plannedLots)
//   bestBefore              whether the lot prompt asks the best-before day; by default not
//   oneLocation             whether all its lines go to one location, flow.location at Book (Return):
//                           once lines exist, another location is refused (places.js); by default not
//   readyToBook(flow)       asked at Book before anything is booked, false keeps the flow open; by
//                           default true
//   queue(flow)             what it puts on the queue at Book, answering how many entries; by default
//                           its batches (booking.js)
//   booked(flow)            what follows once its batches are on the queue; by default nothing
//   leave(flow)             its leave button, false keeps the flow open; by default it asks before
//                           discarding what was scanned
// A new flow: its rules in flow.js, a module of its own beside these, one line in app.js that offers
// it, and its button on the home screen (templates/scanner/scan.html).

import * as rules from "./flow.js";
import { drawLines, flowTitle } from "./lines.js";
import { scanProduct } from "./scanning.js";
import { choose, confirm } from "./screen.js";
import { show } from "./show.js";
import { state } from "./state.js";
import { t } from "./words.js";

export function flowScreen(kind, own = {}) {
  return {
    kind,
    ask: () => inWarehouse(kind),
    hint: () => t("Scan the first code"),
    scanned: scanProduct,
    placeOf: () => "",
    draw: (flow) => drawLines(flow, t("Discard")),
    firstLot: () => "",
    lots: rules.plannedLots,
    bestBefore: false,
    oneLocation: false,
    readyToBook: async () => true,
    queue: null,
    booked: async () => {},
    leave: discard,
    ...own,
  };
}

/** The warehouse a flow works in (none to choose when the key has one); null when the person goes back. */
export async function whichWarehouse(kind) {
  const warehouse = state.warehouses.length === 1 ? state.warehouses[0]
    : await choose(t("%(flow)s: which warehouse?", { flow: flowTitle(kind) }), "",
                   state.warehouses.map((w) => ({ label: w.name, value: w })));
  if (!warehouse) show();
  return warehouse;
}

async function inWarehouse(kind) {
  const warehouse = await whichWarehouse(kind);
  return warehouse ? rules.startFlow(kind, warehouse) : null;
}

async function discard(flow) {
  return !flow.lines.length || confirm(t("Discard what was scanned? Nothing of it is booked."), t("Discard"));
}
