// The scanner page: wires the modules beside it to the screen. Everything it must not lose lives in
// IndexedDB (store.js) and the screen is drawn from it, so a reload puts the person back where they were.

import { fromMilli, inBase, toMilli } from "./amounts.js";
import { call } from "./api.js";
import { Camera, cannotStart } from "./camera.js";
import { Catalogue, kept } from "./catalogue.js";
import { allowSound, signal } from "./feedback.js";
import * as flows from "./flow.js";
import { ScanInput } from "./input.js";
import * as numbers from "./numbers.js";
import * as queue from "./queue.js";
import * as store from "./store.js";

const REFRESH_MS = 60000; // the offline data, at most once a minute while the page is open
const TICK_MS = 5000;
const $ = (id) => document.getElementById(id);
const APP_VERSION = `browser scanner ${document.body.dataset.version}`;
const TAB = thisTab();

/** This tab's name for the sender's lease, kept for the tab's life (sessionStorage outlives a
 * reload): a page reloaded while it was sending takes its lease back at once, instead of waiting
 * out the lease of the page it was. */
function thisTab() {
  const made = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  try {
    const kept = sessionStorage.getItem("scanner-tab");
    if (kept) return kept;
    sessionStorage.setItem("scanner-tab", made);
  } catch {
    // No sessionStorage (a locked-down browser): a name for this page alone.
  }
  return made;
}

const state = {
  key: null, catalogue: new Catalogue(), warehouses: [], orders: [], taken: {}, flow: null, dataAt: 0,
  entries: [], online: navigator.onLine, refreshing: null, pending: null, camera: null, unpaired: "",
};

// --- starting ---------------------------------------------------------------------------------

async function start() {
  allowSound();
  await takePairingFromAddress();
  await load();
  const input = new ScanInput($("scan"), scanned, (element) => element.id === "lot" || element.id === "pair-key");
  state.input = input;
  wire();
  keepForOffline();
  navigator.storage?.persist?.().catch(() => {});
  queue.onChange(() => drawQueue());
  window.addEventListener("online", () => { state.online = true; whenOnline(); });
  window.addEventListener("offline", () => { state.online = false; drawStatus(); });
  setInterval(tick, TICK_MS);
  show();
  if (state.key) whenOnline();
}

/** `/scan#pair=<key>` (the pairing QR): keep the key, and take it out of the address and the history. */
async function takePairingFromAddress() {
  const found = /(?:^#|&)pair=([^&]+)/.exec(location.hash);
  if (!found) return;
  history.replaceState(null, "", location.pathname + location.search);
  await pair(decodeURIComponent(found[1]));
}

async function pair(key) {
  key = key.trim();
  if (!key) return;
  await store.put("pairing", { key, at: Date.now() });
  // Blocks and taken orders belonged to the key before: its numbers are not this key's to use.
  await store.put("numbers", undefined);
  await store.put("taken", undefined);
  state.key = key;
  state.unpaired = "";
  state.taken = {};
}

async function load() {
  const [pairing, catalogue, warehouses, orders, taken, flow, dataAt] = await Promise.all(
    ["pairing", "catalogue", "warehouses", "orders", "taken", "flow", "dataAt"].map((name) => store.get(name)));
  state.key = pairing?.key || null;
  state.catalogue = new Catalogue(catalogue || []);
  state.warehouses = warehouses || [];
  state.orders = orders || [];
  state.taken = taken || {};
  state.flow = flow || null;
  state.dataAt = dataAt || 0;
  state.entries = await queue.entries();
}

/** Over HTTPS (or on this device) a service worker keeps the page, so it starts without the network. */
function keepForOffline() {
  if (window.isSecureContext && "serviceWorker" in navigator) {
    navigator.serviceWorker.register("/scan/worker.js", { scope: "/scan" }).catch(() => {});
  } else {
    note("This page came over plain HTTP: it keeps what you book while it stays open, but starting it "
         + "without the network, and the camera, need HTTPS (see Help).", "info");
  }
}

async function whenOnline() {
  await send(true);
  await refresh();
}

async function tick() {
  if (!state.key) return;
  const waiting = queue.counts(state.entries).waiting;
  if (waiting) await send(false);
  if (Date.now() - state.dataAt > REFRESH_MS && document.visibilityState === "visible") await refresh();
}

// --- the data kept for offline work -----------------------------------------------------------

/** The catalogue, the key's warehouses and the open orders, fetched anew and kept on the device. */
async function refresh() {
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
    state.warehouses = warehouses.data.list.filter((warehouse) => warehouse.active);
    state.orders = orders.data.list.map(orderOf);
    state.dataAt = Date.now();
    await Promise.all([store.put("catalogue", slim), store.put("warehouses", state.warehouses),
                       store.put("orders", state.orders), store.put("dataAt", state.dataAt)]);
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

async function lostPairing(message) {
  state.unpaired = message;
  note(`The service refused this device's key: ${message} Pair it again; what waits to be sent stays on the device.`, "error");
  drawStatus();
}

// --- sending ------------------------------------------------------------------------------------

/* One round of sending at a time in this tab: the lease keeps other tabs out, not this tab's own
 * events and timer ("online", a booking, the tick), and two rounds at once sent the same batch
 * twice (booked once all the same, as a retry). A call while a round runs asks for one more round
 * after it, which takes what was booked meanwhile. */
let round = null;
let nextRound = null;
let nextForced = false;

function send(force) {
  if (!round) {
    round = sendRound(force).finally(() => { round = null; });
    return round;
  }
  nextForced ||= force;
  const after = () => {
    const forced = nextForced;
    nextRound = null;
    nextForced = false;
    return send(forced);
  };
  nextRound ??= round.then(after, after);
  return nextRound;
}

async function sendRound(force) {
  if (!state.key) return;
  const result = await queue.sendDue(state.key, TAB, { force });
  if (result.outcome === "unpaired") await lostPairing(result.message);
  else if (result.outcome === "later") state.online = false;
  else if (result.outcome === "idle") {
    state.online = true;
    if (!state.unpaired) clearNote("error");
    if ($("notice").classList.contains("booked")) note("Sent: the service has booked it.", "booked");
  }
  await drawQueue();
}

// --- scanning -----------------------------------------------------------------------------------

async function scanned(text, source) {
  const flow = state.flow;
  if (!flow) return;
  const startedAt = performance.now();
  if (!$("lot-form").hidden) {
    // A lot label scanned while the lot is asked for: it is the lot.
    $("lot").value = text;
    return;
  }
  const found = state.catalogue.resolve(text);
  if (!found) return tell("error", `Unknown code: ${text}`, "", startedAt);
  const product = found.product;
  if (!product.active) return tell("error", `${product.name} is not active: it cannot be booked.`, text, startedAt);
  if (flow.order && !flows.isOnOrder(flow, product.product_code)) {
    return tell("error", `Not on order ${flow.order.document_number}: ${product.name}`, product.product_code, startedAt);
  }
  if (product.lot_level) {
    askLot(found);
    return tell("warning", `${product.name}: which lot?`, "", startedAt);
  }
  await add(found, {}, startedAt, source);
}

async function add(found, { lot = "", date_exp = "" }, startedAt = performance.now()) {
  const flow = state.flow;
  const code = found.product.product_code;
  const before = flows.beyondOrder(flow, code);
  const index = flows.addScan(flow, found, { lot, date_exp });
  const beyond = flows.beyondOrder(flow, code);
  if (beyond > before && !(await confirm(
    `${found.product.name}: that is ${fromMilli(beyond)} ${found.product.base_unit} more than is left on order `
    + `${flow.order.document_number}. Take it anyway? The rest is booked as a ${flow.kind === "pick" ? "shipment" : "receipt"} beyond the order.`,
    "Take it"))) {
    flows.setAmount(flow, index, flow.lines[index].amount_milli - 1000);
    await keepFlow();
    return tell("warning", `Not taken: ${found.product.name}`, "", startedAt);
  }
  await keepFlow();
  const line = flow.lines[flow.last];
  const problem = flows.amountProblem(line);
  tell(problem ? "warning" : beyond ? "warning" : "ok", line.name, amountText(line), startedAt, problem);
}

function askLot(found) {
  const flow = state.flow;
  state.pending = found;
  $("lot-for").textContent = `${found.product.name} (${found.product.product_code})`;
  $("lot").value = flow.kind === "pick" ? flows.nextLot(flow, found.product.product_code) : "";
  $("best-before").value = "";
  $("best-before-label").hidden = flow.kind !== "receive";
  const choices = $("lot-choices");
  choices.replaceChildren(...flows.plannedLots(flow, found.product.product_code).map((pick) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "quiet small";
    button.textContent = `${pick.lot}${pick.date_exp ? ` · ${pick.date_exp}` : ""} · ${fromMilli(pick.amount_milli)}`;
    button.addEventListener("click", () => { $("lot").value = pick.lot; $("lot").focus(); });
    return button;
  }));
  $("lot-form").hidden = false;
  $("quantity-form").hidden = true;
  $("lot").focus();
}

function closeLot() {
  state.pending = null;
  $("lot-form").hidden = true;
  $("quantity-form").hidden = false;
  focusScan();
}

async function lotGiven(event) {
  event.preventDefault();
  const found = state.pending;
  const lot = $("lot").value.trim();
  if (!found || !lot) return;
  const date_exp = state.flow.kind === "receive" ? $("best-before").value : "";
  closeLot();
  await add(found, { lot, date_exp });
}

function amountText(line) {
  const inUnit = `${fromMilli(line.amount_milli)} ${line.unit}`;
  if (line.unit === line.base_unit) return inUnit;
  return `${inUnit} (${fromMilli(inBase(line.amount_milli, line.factor_milli) ?? 0)} ${line.base_unit})`;
}

/** The feedback of a scan: tone, vibration, the big line, and the time it took (for make bench). */
function tell(kind, what, quantity, startedAt, extra = "") {
  signal(kind);
  const last = $("last");
  last.className = `last ${kind}`;
  last.querySelector(".what").textContent = what;
  last.querySelector(".qty").textContent = extra ? `${quantity} · ${extra}` : quantity;
  drawFlow();
  document.body.dataset.feedback = kind;
  document.body.dataset.feedbacks = String(Number(document.body.dataset.feedbacks || 0) + 1);
  document.body.dataset.feedbackMs = (performance.now() - startedAt).toFixed(1);
  focusScan();
}

async function keepFlow() {
  await store.put("flow", state.flow ? structuredClone(state.flow) : undefined);
}

// --- quantities -------------------------------------------------------------------------------

function keypad(event) {
  const key = event.target.closest("button[data-key]")?.dataset.key;
  if (!key) return;
  const field = $("quantity");
  field.value = key === "⌫" ? field.value.slice(0, -1) : field.value + key;
}

async function setQuantity(event) {
  event.preventDefault();
  const flow = state.flow;
  if (!flow || flow.last < 0) return tell("error", "Scan something first", "", performance.now());
  const milli = toMilli($("quantity").value);
  if (milli === null) return tell("error", "Not a quantity", $("quantity").value, performance.now());
  const line = flow.lines[flow.last];
  const before = line.amount_milli;
  flows.setAmount(flow, flow.last, milli);
  const beyond = flows.beyondOrder(flow, line.product_code);
  if (beyond > 0 && milli > before && !(await confirm(
    `${line.name}: that is ${fromMilli(beyond)} ${line.base_unit} more than is left on order ${flow.order.document_number}. Take it anyway?`,
    "Take it"))) {
    flows.setAmount(flow, flow.lines.indexOf(line), before);
  }
  $("quantity").value = "";
  $("quantity-form").classList.remove("open");
  await keepFlow();
  const now = flow.lines.includes(line) ? line : null;
  tell(now && flows.amountProblem(now) ? "warning" : "ok", now ? now.name : `${line.name}: taken out`,
       now ? amountText(now) : "", performance.now(), now ? flows.amountProblem(now) : "");
}

// --- the flows ------------------------------------------------------------------------------------

async function chooseFlow(kind) {
  if (!state.warehouses.length && state.refreshing) await state.refreshing; // just paired: the first fetch
  if (!state.warehouses.length) {
    return note("The device has no warehouses yet: it needs the service once to fetch them (Refresh).", "error");
  }
  if (kind === "pick") return choosePickOrder();
  const warehouse = state.warehouses.length === 1 ? state.warehouses[0]
    : await choose(`${flows.KINDS[kind].title}: which warehouse?`, "",
                   state.warehouses.map((w) => ({ label: w.name, value: w })));
  if (!warehouse) return show();
  let order = null;
  if (kind === "receive") {
    const expected = state.orders.filter((o) => o.id_warehouse === warehouse.id_warehouse
      && o.allowed_directions.includes("I") && o.items.some((line) => line.direction === "I"));
    if (expected.length) {
      const chosen = await choose("Receive: against an order?", `${warehouse.name}`,
        [{ label: "Without an order", value: "none" },
         ...expected.map((o) => ({ label: `${o.document_number}${o.description ? ` · ${o.description}` : ""}`, value: o }))]);
      if (!chosen) return show();
      order = chosen === "none" ? null : chosen;
    }
  }
  await begin(flows.startFlow(kind, warehouse, order));
}

async function choosePickOrder() {
  const open = state.orders.filter((o) => o.allowed_directions.includes("O") && o.items.some((l) => l.direction === "O"));
  const chosen = await choose("Pick an order", open.length ? "" : "No open order to pick.",
    open.map((o) => ({ label: `${o.document_number}${o.customer_name ? ` · ${o.customer_name}` : ""}`
                              + `${o.held_by && !state.taken[o.document_number] ? ` · held by ${o.held_by}` : ""}`, value: o })));
  if (!chosen) return show();
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
      return note(`Order ${number} was not taken before the network went away, so another scanner may be picking it: `
                  + "it can be picked once the service answers.", "error");
    }
  } else {
    signal("error");
    show();
    if (answer.kind === "unpaired") return lostPairing(answer.message);
    return note(answer.message, "error");
  }
  const warehouse = state.warehouses.find((w) => w.id_warehouse === order.id_warehouse)
    || { id_warehouse: order.id_warehouse, name: `Warehouse ${order.id_warehouse}` };
  await begin(flows.startFlow("pick", warehouse, order));
}

async function begin(flow) {
  state.flow = flow;
  await keepFlow();
  clearNote();
  show();
  tell("ok", "Scan the first code", "", performance.now());
}

async function book() {
  const flow = state.flow;
  if (!flow || !flow.lines.length) return tell("error", "Nothing scanned yet", "", performance.now());
  const problem = flow.lines.map(flows.amountProblem).find(Boolean);
  if (problem) return tell("error", problem, "", performance.now());
  if (flow.kind === "pick") {
    const open = flow.order.items.filter((line) => line.direction === "O")
      .some((line) => flows.scannedBase(flow, line.product_code) < line.open_milli);
    if (open && !(await confirm("Lines are left open on the order: book what was picked as a partial delivery?",
                                "Book partial"))) return focusScan();
  }
  const bodies = flows.batchesOf(flow, APP_VERSION);
  for (const body of bodies) {
    const number = await numbers.take();
    await queue.enqueue({ body, number, summary: { kind: flow.kind, title: body.batch_settings.name,
                                                   warehouse: flow.warehouse.name, lines: body.batch_items.length,
                                                   flow: structuredClone(flow) } });
  }
  if (flow.kind === "pick") await forgetTaken(flow.order.document_number);
  state.flow = null;
  await keepFlow();
  signal("ok");
  show();
  note(`Booked on the device: ${bodies.length === 1 ? "one batch" : `${bodies.length} batches`}. `
       + "It goes to the service now, or as soon as it answers.", "booked");
  await send(true);
  numbers.keepAhead(state.key).catch(() => {});
}

async function leave() {
  const flow = state.flow;
  if (!flow) return;
  if (flow.kind === "pick") {
    if (flow.lines.length && !(await confirm("Put the order back? What was scanned is not booked.", "Put back"))) return focusScan();
    await queue.enqueue({ kind: "release", document_number: flow.order.document_number,
                          summary: { kind: "release", title: `Put back ${flow.order.document_number}`,
                                     warehouse: flow.warehouse.name, lines: 0 } });
    await forgetTaken(flow.order.document_number);
  } else if (flow.lines.length && !(await confirm("Discard what was scanned? Nothing of it is booked.", "Discard"))) {
    return focusScan();
  }
  state.flow = null;
  await keepFlow();
  show();
  await send(true);
}

async function forgetTaken(number) {
  await store.change("taken", (taken = {}) => { delete taken[number]; return taken; });
  delete state.taken[number];
}

// --- the camera ---------------------------------------------------------------------------------

async function toggleCamera() {
  if (state.camera?.running) {
    state.camera.stop();
    $("camera").textContent = "Camera";
    return focusScan();
  }
  const refused = cannotStart();
  if (refused) return cameraNote(refused.message);
  state.camera = new Camera($("viewfinder"), (text) => state.input.camera(text), state.key, cameraNote);
  try {
    const how = await state.camera.start();
    $("camera").textContent = "Stop camera";
    cameraNote(how === "service" ? "Hold the code in the picture; the service reads it." : "Hold the code in the picture.");
  } catch (error) {
    cameraNote(error.message);
  }
  focusScan();
}

function cameraNote(text) {
  const note = $("camera-note");
  note.replaceChildren(text + " ");
  if (/HTTPS/.test(text)) {
    const link = document.createElement("a");
    link.href = "/scan/help#https";
    link.textContent = "How to set up HTTPS";
    note.append(link);
  }
  note.hidden = false;
}

// --- the queue's entries ------------------------------------------------------------------------

async function entryAction(event) {
  const button = event.target.closest("button[data-entry]");
  if (!button) return;
  const id = button.dataset.entry;
  const entry = state.entries.find((e) => e.id === id);
  if (!entry) return;
  if (button.dataset.act === "again") {
    await queue.sendAgain(id);
    await send(true);
  } else if (button.dataset.act === "delete") {
    if (await confirm(`Delete "${entry.summary.title}" from this device? The service never booked it.`, "Delete")) {
      await queue.remove(id);
    }
  } else if (button.dataset.act === "edit") {
    if (state.flow) return note("Finish or discard the open flow first.", "error");
    state.flow = entry.summary.flow;
    await keepFlow();
    await queue.remove(id);
    show();
  }
}

async function unpair() {
  const waiting = queue.counts(state.entries).waiting + queue.counts(state.entries).attention;
  const text = waiting
    ? `${waiting} batch(es) are not booked by the service yet. They stay on this device and are sent once it is paired again. Unpair?`
    : "Forget this device's key? It must be paired again to book.";
  if (!(await confirm(text, "Unpair"))) return;
  state.camera?.stop();
  await store.put("pairing", undefined);
  await store.put("numbers", undefined);
  await store.put("taken", undefined);
  state.key = null;
  state.taken = {};
  show();
}

// --- drawing ---------------------------------------------------------------------------------------

function show() {
  const screen = !state.key ? "pair" : state.flow ? "flow" : "home";
  for (const id of ["pair", "home", "choose", "flow"]) $(id).hidden = id !== screen;
  document.body.dataset.screen = screen;
  draw();
  if (screen === "flow") focusScan();
}

function draw() {
  drawStatus();
  drawQueue();
  if (state.flow) drawFlow();
  $("data-at").textContent = state.dataAt ? new Date(state.dataAt).toLocaleString() : "never";
  $("data-size").textContent = `${state.catalogue.size} products, ${state.orders.length} open orders`;
}

function drawStatus() {
  const net = $("net");
  net.textContent = state.unpaired ? "Not paired" : state.online ? "Online" : "Offline";
  net.className = `net ${state.unpaired ? "bad" : state.online ? "good" : "away"}`;
}

async function drawQueue() {
  state.entries = await queue.entries();
  const { waiting, attention } = queue.counts(state.entries);
  document.querySelector("[data-queue-waiting]").textContent = String(waiting);
  document.querySelector("[data-queue-attention]").textContent = String(attention);
  const shown = [...state.entries].reverse();
  $("queue-empty").hidden = shown.length > 0;
  $("queue-list").replaceChildren(...shown.map(entryItem));
}

const STATES = { waiting: "waiting", sending: "sending", booked: "booked", attention: "needs attention" };

function entryItem(entry) {
  const li = document.createElement("li");
  li.className = `entry ${entry.state}`;
  li.dataset.state = entry.state;
  const head = document.createElement("div");
  const number = entry.number ? `#${entry.number} ` : "";
  head.textContent = `${number}${entry.summary.title} · ${entry.summary.warehouse}`
    + `${entry.summary.lines ? ` · ${entry.summary.lines} line(s)` : ""} — ${STATES[entry.state]}`;
  li.append(head);
  if (entry.answer && entry.state !== "booked") {
    const why = document.createElement("p");
    why.className = "why";
    why.textContent = `${entry.answer.status ? `${entry.answer.status}: ` : ""}${entry.answer.message}`;
    li.append(why);
    for (const [problem] of itemProblems(entry)) {
      const p = document.createElement("p");
      p.className = "why";
      p.textContent = problem;
      li.append(p);
    }
  }
  if (entry.state === "attention") {
    const row = document.createElement("div");
    row.className = "row";
    for (const [act, label] of [["again", "Send again"], ["edit", "Edit"], ["delete", "Delete"]]) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "small quiet";
      Object.assign(button.dataset, { entry: entry.id, act });
      button.textContent = label;
      row.append(button);
    }
    li.append(row);
  }
  return li;
}

/** The service's message by item: "Line 2 (Milk 1 l): amount: More than ordered, by 2." */
function itemProblems(entry) {
  const items = entry.answer?.fields?.data?.batch_items || {};
  return Object.entries(items).map(([index, fields]) => {
    const item = entry.body?.batch_items?.[Number(index)];
    const what = Object.entries(fields).map(([field, messages]) => `${field}: ${[].concat(messages).join(" ")}`).join("; ");
    return [`Line ${Number(index) + 1}${item ? ` (${item.name || item.product_code})` : ""}: ${what}`];
  });
}

function drawFlow() {
  const flow = state.flow;
  if (!flow) return;
  const kind = flows.KINDS[flow.kind];
  $("flow-title").textContent = `${kind.title} · ${flow.warehouse.name}${flow.order ? ` · ${flow.order.document_number}` : ""}`;
  $("leave").textContent = flow.kind === "pick" ? "Put back" : "Discard";
  $("lines").replaceChildren(...flow.lines.map((line, index) => {
    const li = document.createElement("li");
    li.className = index === flow.last ? "changed" : "";
    li.dataset.index = String(index);
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = `${line.name}${line.lot ? ` · lot ${line.lot}` : ""}${line.date_exp ? ` · ${line.date_exp}` : ""}`;
    const amount = document.createElement("span");
    amount.className = "amount";
    amount.textContent = amountText(line);
    li.append(name, amount);
    return li;
  }));
  const left = flow.order ? flow.order.items.filter((line) => line.direction === kind.direction) : [];
  $("left-title").hidden = $("left").hidden = !left.length;
  $("left").replaceChildren(...left.map((line) => {
    const product = state.catalogue.product(line.product_code);
    const still = Math.max(0, line.open_milli - flows.scannedBase(flow, line.product_code));
    const li = document.createElement("li");
    li.className = still ? "" : "done";
    const lots = line.picks.filter((pick) => pick.lot).map((pick) => `${pick.lot}${pick.date_exp ? ` (${pick.date_exp})` : ""}`);
    li.textContent = `${product ? product.name : line.product_code}: ${fromMilli(still)} of ${fromMilli(line.open_milli)} `
      + `${product ? product.base_unit : ""} left${lots.length ? ` · take ${lots.join(", ")}` : ""}`;
    return li;
  }));
}

function focusScan() {
  if (state.flow && $("lot-form").hidden && !$("confirm").open && document.activeElement !== $("quantity")) {
    $("scan").focus({ preventScroll: true });
  }
}

// --- small parts --------------------------------------------------------------------------------

function note(text, kind = "info") {
  const notice = $("notice");
  notice.textContent = text;
  notice.className = `notice ${kind}`;
  notice.hidden = false;
}

function clearNote(kind) {
  if (!kind || $("notice").classList.contains(kind)) $("notice").hidden = true;
}

/** A yes/no question in a modal dialog; `yes` names what saying yes does. */
function confirm(text, yes) {
  const dialog = $("confirm");
  $("confirm-text").textContent = text;
  $("confirm-yes").textContent = yes;
  $("confirm-no").textContent = "Cancel";
  dialog.returnValue = "";
  dialog.showModal();
  signal("warning");
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      resolve(dialog.returnValue === "yes");
      // Chromium gives the focus back to the scan field as the dialog closes, yet typing into it
      // then inserts nothing until it is focused anew.
      document.activeElement?.blur();
      setTimeout(focusScan);
    }, { once: true });
  });
}

/** A choice among buttons on a screen of its own; null when the person goes back. */
function choose(title, text, options) {
  for (const id of ["pair", "home", "flow"]) $(id).hidden = true;
  $("choose").hidden = false;
  document.body.dataset.screen = "choose";
  $("choose-title").textContent = title;
  $("choose-note").textContent = text;
  return new Promise((resolve) => {
    $("choices").replaceChildren(...options.map(({ label, value }) => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = label;
      button.addEventListener("click", () => resolve(value));
      return button;
    }));
    $("choose-back").onclick = () => resolve(null);
  });
}

function wire() {
  $("pair-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    await pair($("pair-key").value);
    $("pair-key").value = "";
    show();
    whenOnline();
  });
  document.querySelector(".flows").addEventListener("click", (event) => {
    const kind = event.target.closest("button[data-flow]")?.dataset.flow;
    if (kind) chooseFlow(kind);
  });
  $("send-now").addEventListener("click", () => send(true));
  $("refresh").addEventListener("click", () => refresh());
  $("unpair").addEventListener("click", unpair);
  $("queue-list").addEventListener("click", entryAction);
  $("book").addEventListener("click", book);
  $("leave").addEventListener("click", leave);
  $("camera").addEventListener("click", toggleCamera);
  $("type-code").addEventListener("click", () => {
    // A phone without a trigger: its own keyboard, to type a code.
    $("scan").inputMode = $("scan").inputMode === "none" ? "text" : "none";
    $("scan").blur();
    $("scan").focus();
  });
  $("lot-form").addEventListener("submit", lotGiven);
  $("lot-cancel").addEventListener("click", () => { closeLot(); tell("warning", "Not added", "", performance.now()); });
  $("quantity-form").addEventListener("submit", setQuantity);
  // The keypad opens with the quantity, so that the scanned lines keep the screen the rest of the time.
  $("quantity").addEventListener("focus", () => $("quantity-form").classList.add("open"));
  document.querySelector(".keys").addEventListener("click", keypad);
  $("lines").addEventListener("click", (event) => {
    const li = event.target.closest("li[data-index]");
    if (!li || !state.flow) return;
    state.flow.last = Number(li.dataset.index);
    keepFlow();
    drawFlow();
    $("quantity").value = fromMilli(state.flow.lines[state.flow.last].amount_milli);
    $("quantity-form").classList.add("open");
  });
  // The scan field keeps the focus: a tap elsewhere (not on another field) gives it back.
  $("scan").addEventListener("blur", () => setTimeout(() => {
    const active = document.activeElement;
    if (!active || active === document.body || active.tagName === "BUTTON") focusScan();
  }, 0));
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") state.camera?.stop();
    else tick();
  });
}

start().catch((error) => note(`The scanner could not start: ${error.message}`, "error"));
