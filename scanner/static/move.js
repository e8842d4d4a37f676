// Move (DESIGN 27): stock from one place to another: From (a location of the warehouse chosen, or its
// unplaced stock), what moves scanned, then To (a location of any of the key's warehouses, or another
// warehouse's unplaced stock); a location's code scanned before anything else is From, after it To,
// and both fields take a code typed. Booked as one move (POST /v1/moves/) whose move_id is fixed as it
// is queued: sent exactly once, as a batch is, however often it is sent again.

import * as rules from "./flow.js";
import { flowScreen, whichWarehouse } from "./flow_screen.js";
import { tell } from "./lines.js";
import { moveOf, newId } from "./locations.js";
import { rememberPlaces, scanOrPlace, setEnd } from "./places.js";
import * as queue from "./queue.js";
import { t } from "./words.js";

export const move = flowScreen("move", {
  ask: fromWarehouse,
  hint: () => t("Scan From, then what moves, then To"),
  scanned: scanOrPlace((flow, text, startedAt) => setEnd(flow, flow.lines.length ? "to" : "from", text, startedAt)),
  readyToBook: async (flow) => {
    if (flow.to) return true;
    tell("error", t("Where does it go? Scan To"), t("A location's label, or To a warehouse"), performance.now());
    return false;
  },
  lots: (flow, code) => (flow.fromStock || []).filter((row) => row.product_code === code),
  firstLot: (flow, code) => (flow.fromStock || []).find((row) => row.product_code === code)?.lot || "",
  queue: queueMove,
  booked: (flow) => (flow.to.location ? rememberPlaces(flow.to.id_warehouse, flow.lines, flow.to.location) : null),
});

async function fromWarehouse() {
  const warehouse = await whichWarehouse("move");
  if (!warehouse) return null;
  return rules.startFlow("move", warehouse, null, {
    places: ["from", "to"], from: { id_warehouse: warehouse.id_warehouse, location: "", name: warehouse.name } });
}

function placeName(end, flow) {
  return `${end.location || t("unplaced")}${end.id_warehouse !== flow.warehouse.id_warehouse ? ` (${end.name})` : ""}`;
}

async function queueMove(flow) {
  const body = moveOf(flow, newId());
  await queue.enqueue({ kind: "move", body, summary: {
    kind: "move", from: placeName(flow.from, flow), to: placeName(flow.to, flow),
    title: t("Move %(from)s → %(to)s", { from: placeName(flow.from, flow), to: placeName(flow.to, flow) }),
    warehouse: flow.warehouse.name, lines: body.items.length, flow: structuredClone(flow) } });
  return 1;
}
