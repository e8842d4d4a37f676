// The open flow's rules, without the page: what a scan adds, what an order still expects, and the
// batches a flow books (DESIGN 24). The page keeps the flow on the device after every change.

import { fromMilli, inBase } from "./amounts.js";
import { t } from "./words.js";

export const KINDS = {
  receive: { title: "Receive", direction: "I", type: "R" },
  pick: { title: "Pick", direction: "O", type: "R" },
  ship: { title: "Ship", direction: "O", type: "R" },
  count: { title: "Count", direction: "I", type: "V" },
  move: { title: "Move", direction: "O", type: "" }, // booked as a move (POST /v1/moves/), not as a batch
  write_off: { title: "Write off", direction: "O", type: "" }, // POST /v1/write_offs/ (lot_flows.js)
  return: { title: "Return", direction: "I", type: "" }, // POST /v1/returns/ (lot_flows.js)
};

/** A new flow: kind, warehouse {id_warehouse, name}, and for Receive or Pick maybe an order (its
 * open lines as GET /v1/open_orders/ gives them). In a warehouse with locations (DESIGN 27) `places`
 * names the fields the flow asks: ["location"] (Receive, Count), ["from", "to"] (Move); the location
 * chosen for the scans that follow is `location` ("" none yet; Receive proposes `proposed`), a move's ends `from` and `to`
 * ({id_warehouse, location, name}); a pick follows its `plan` (locations.js). */
export function startFlow(kind, warehouse, order = null, { places = [], proposed = "", from = null, plan = null } = {}) {
  return { kind, warehouse, order, lines: [], last: -1, day: "", started: Date.now(),
           places, location: "", proposed, from, to: null, plan };
}

/** The day and the time of a scan as the device's clock shows them: YYYY-MM-DD and the client
 * timestamp the API takes, YYYY-MM-DDThh:mm:ss.SSS+hhmm. */
export function clock(now = new Date()) {
  const two = (n) => String(n).padStart(2, "0");
  const day = `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;
  const offset = -now.getTimezoneOffset();
  const sign = offset < 0 ? "-" : "+";
  const zone = `${sign}${two(Math.floor(Math.abs(offset) / 60))}${two(Math.abs(offset) % 60)}`;
  const time = `${two(now.getHours())}:${two(now.getMinutes())}:${two(now.getSeconds())}.${String(now.getMilliseconds()).padStart(3, "0")}`;
  return { day, stamp: `${day}T${time}${zone}` };
}

/** What a flow's order expects of a product still: its open lines of the flow's direction. */
export function orderLines(flow, productCode) {
  if (!flow.order) return [];
  const direction = KINDS[flow.kind].direction;
  return flow.order.items.filter((line) => line.direction === direction && line.product_code === productCode);
}

export function isOnOrder(flow, productCode) {
  return orderLines(flow, productCode).length > 0;
}

/** The flow's lines of a product, in base thousandths. */
export function scannedBase(flow, productCode) {
  return flow.lines.filter((line) => line.product_code === productCode)
    .reduce((sum, line) => sum + inBase(line.amount_milli, line.factor_milli), 0);
}

/** How much more of a product the flow holds than its order has open (0 when within it). */
export function beyondOrder(flow, productCode) {
  if (!flow.order) return 0;
  const open = orderLines(flow, productCode).reduce((sum, line) => sum + line.open_milli, 0);
  return Math.max(0, scannedBase(flow, productCode) - open);
}

/** The lot a picker takes next of a product: the first planned (first expiring first) whose planned
 * amount the flow has not taken yet; "" when the plan has none. */
export function nextLot(flow, productCode) {
  for (const line of orderLines(flow, productCode)) {
    for (const pick of line.picks) {
      const taken = flow.lines.filter((l) => l.product_code === productCode && l.lot === pick.lot)
        .reduce((sum, l) => sum + inBase(l.amount_milli, l.factor_milli), 0);
      if (pick.lot && taken < pick.amount_milli) return pick.lot;
    }
  }
  return "";
}

/** The lots to take of a product (first expiring first), for the picker to choose from. */
export function plannedLots(flow, productCode) {
  return orderLines(flow, productCode).flatMap((line) => line.picks).filter((pick) => pick.lot);
}

/** Add one of the scanned unit (or `amount_milli` of it) to the flow; answers the line's index.
 * Scans of one product, unit, lot, best-before and location make one line; the line keeps its last
 * scan's time. */
export function addScan(flow, found, { lot = "", date_exp = "", location = "", amount_milli = 1000, now = new Date() } = {}) {
  const { day, stamp } = clock(now);
  if (!flow.day) flow.day = day; // the day it was scanned, kept however late it is sent
  const index = flow.lines.findIndex((line) => line.product_code === found.product.product_code
    && line.unit === found.unit && line.lot === lot && line.date_exp === date_exp && (line.location || "") === location);
  if (index >= 0) {
    const line = flow.lines[index];
    line.amount_milli += amount_milli;
    line.at = stamp;
    flow.last = index;
    return index;
  }
  flow.lines.push({ product_code: found.product.product_code, name: found.product.name, unit: found.unit,
                    base_unit: found.product.base_unit, factor_milli: found.factor_milli,
                    decimal_places: found.product.decimal_places, amount_milli, lot, date_exp, location,
                    barcode: found.barcode || "", at: stamp });
  flow.last = flow.lines.length - 1;
  return flow.last;
}

/** Set a line's amount (a count may be 0, "found none"; elsewhere 0 takes the line out). */
export function setAmount(flow, index, amountMilli) {
  if (amountMilli === 0 && flow.kind !== "count") {
    flow.lines.splice(index, 1);
    flow.last = flow.lines.length - 1;
    return;
  }
  flow.lines[index].amount_milli = amountMilli;
  flow.last = index;
}

/** Why a line's amount cannot be booked, or "": more decimals than its product allows. */
export function amountProblem(line) {
  const base = inBase(line.amount_milli, line.factor_milli);
  if (base === null) return t("That amount needs more than three decimal places in the base unit.");
  if (base % 10 ** (3 - line.decimal_places) !== 0) {
    return line.decimal_places === 0 ? t("%(name)s is counted in whole %(unit)s.", { name: line.name, unit: line.base_unit })
      : t("%(name)s takes at most %(places)s decimal place(s) in %(unit)s.",
          { name: line.name, places: line.decimal_places, unit: line.base_unit });
  }
  return "";
}

/** The batches a flow books (bodies of POST /v1/batches/, unnumbered): one, and for an order a
 * second without it for what goes beyond the order, once the person confirmed taking more. */
export function batchesOf(flow, appVersion) {
  const { direction, type, title } = KINDS[flow.kind];
  const documentNumber = flow.order ? flow.order.document_number : "";
  const settings = (name, number) => ({ batch_number: "", id_warehouse: String(flow.warehouse.id_warehouse),
                                        direction, type, date: flow.day || clock().day,
                                        app_version: appVersion, name, truck: 0, document_number: number });
  const onOrder = [];
  const beyond = [];
  const room = new Map(); // product -> base thousandths the order still takes
  for (const line of flow.lines) {
    if (!room.has(line.product_code)) {
      room.set(line.product_code, flow.order ? orderLines(flow, line.product_code).reduce((s, l) => s + l.open_milli, 0) : Infinity);
    }
    const base = inBase(line.amount_milli, line.factor_milli);
    const fits = Math.min(base, room.get(line.product_code));
    room.set(line.product_code, room.get(line.product_code) - fits);
    if (fits === base) {
      onOrder.push(item(line, line.amount_milli, line.unit));
      continue;
    }
    // Split: the order's part and the rest, each in the line's unit where that is whole, else in base units.
    const whole = fits % line.factor_milli === 0 && (base - fits) % line.factor_milli === 0;
    const unit = whole ? line.unit : line.base_unit;
    const part = (milli) => (whole ? (milli / line.factor_milli) * 1000 : milli);
    if (fits > 0) onOrder.push(item({ ...line, factor_milli: whole ? line.factor_milli : 1000 }, part(fits), unit));
    beyond.push(item({ ...line, factor_milli: whole ? line.factor_milli : 1000 }, part(base - fits), unit));
  }
  const name = flow.order ? `${title} ${documentNumber}` : title;
  const made = [];
  if (onOrder.length) made.push({ batch_settings: settings(name, documentNumber), batch_items: onOrder, batch_extras: [] });
  if (beyond.length) {
    made.push({ batch_settings: settings(`${title}: beyond order ${documentNumber}`, ""), batch_items: beyond, batch_extras: [] });
  }
  return made;
}

function item(line, amountMilli, unit) {
  return { product_code: line.product_code, amount: fromMilli(amountMilli), unit,
           amount_base_unit: fromMilli(inBase(amountMilli, line.factor_milli)), barcode: line.barcode,
           date_exp: line.date_exp, lot: line.lot, name: line.name, palette: 0, status: 0,
           timestamp_client: line.at, wplace: line.location || "" };
}
