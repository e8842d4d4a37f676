// The open flow from its home button to its end (DESIGN 24): opened once it has what it asks,
// booked onto the queue (one batch, and a second for goods beyond an order) and sent at once, or
// left. What differs from flow to flow is asked of the flow's module (flow_screen.js).

import { signal } from "./feedback.js";
import * as rules from "./flow.js";
import { tell } from "./lines.js";
import * as numbers from "./numbers.js";
import * as queue from "./queue.js";
import { closeLot } from "./scanning.js";
import { clearNote, focusScan, note } from "./screen.js";
import { send } from "./sending.js";
import { show } from "./show.js";
import { keepFlow, screenOf, state } from "./state.js";
import { t } from "./words.js";

const APP_VERSION = `browser scanner ${document.body.dataset.version}`;

// What a flow that booked one entry says of it, by the entry's kind.
const ONE = {
  batch: () => t("Booked on the device: one batch. It goes to the service now, or as soon as it answers."),
  move: () => t("Booked on the device: one move. It goes to the service now, or as soon as it answers."),
  write_off: () => t("Booked on the device: one write-off. It goes to the service now, or as soon as it answers."),
  return: () => t("Booked on the device: one return. It goes to the service now, or as soon as it answers."),
};

/** A flow's button on the home screen: what the flow asks, then its screen. */
export async function open(kind) {
  if (!state.warehouses.length && state.refreshing) await state.refreshing; // just paired: the first fetch
  if (!state.warehouses.length) {
    return note(t("The device has no warehouses yet: it needs the service once to fetch them (Refresh)."), "error");
  }
  const flow = await screenOf(kind).ask();
  if (flow) await begin(flow);
}

async function begin(flow) {
  state.flow = flow;
  await keepFlow();
  clearNote();
  show();
  tell("ok", screenOf(flow.kind).hint(flow), "", performance.now());
}

// A second tap on Book while the first is still booking (awaiting the device's store or a question)
// would queue the same flow twice: one booking at a time.
let booking = false;

export async function book() {
  if (booking) return;
  booking = true;
  try {
    await bookOpenFlow();
  } finally {
    booking = false;
  }
}

async function bookOpenFlow() {
  const flow = state.flow;
  if (!flow || !flow.lines.length) return tell("error", t("Nothing scanned yet"), "", performance.now());
  const problem = flow.lines.map(rules.amountProblem).find(Boolean);
  if (problem) return tell("error", problem, "", performance.now());
  const screen = screenOf(flow.kind);
  if (!(await screen.readyToBook(flow))) return focusScan();
  const made = screen.queue ? await screen.queue(flow) : await queueBatches(flow);
  await screen.booked(flow);
  closeLot();
  state.flow = null;
  await keepFlow();
  signal("ok");
  show();
  note(made !== 1 ? t("Booked on the device: %(count)s batches. It goes to the service now, or as soon as it answers.", { count: made })
    : (ONE[flow.kind] || ONE.batch)(), "booked");
  await send(true);
  numbers.keepAhead(state.key).catch(() => {});
}

/** A flow's batches on the queue, each numbered now: answers how many. */
async function queueBatches(flow) {
  const bodies = rules.batchesOf(flow, APP_VERSION);
  for (const body of bodies) {
    const number = await numbers.take();
    await queue.enqueue({ body, number, summary: { kind: flow.kind, title: body.batch_settings.name,
                                                   warehouse: flow.warehouse.name, lines: body.batch_items.length,
                                                   flow: structuredClone(flow) } });
  }
  return bodies.length;
}

export async function leave() {
  const flow = state.flow;
  if (!flow) return;
  if (!(await screenOf(flow.kind).leave(flow))) return focusScan();
  closeLot();
  state.flow = null;
  await keepFlow();
  show();
  await send(true);
}
