// The batches (and moves) booked on this device, waiting to reach the service (DESIGN 25). No DOM here: the page
// draws the queue from what this module keeps, and a test may drive it alone.
//
// Exactly once: a batch's number and its JSON text are fixed before it is first sent, so every
// later send is the same request, and the service answers a copy it booked already with 201 and
// books nothing (DESIGN 7). Sending again is therefore always safe, and is what happens after no
// answer, after a reload, after the service restarted.
//
// States: waiting (or sending) until the service answered; booked; attention (the service refused
// it: kept, with its message, until a person sends it again, edits it or deletes it).
// One sender per device: a lease in IndexedDB that tabs take in turn.

import { call } from "./api.js";
import * as numbers from "./numbers.js";
import * as store from "./store.js";
import { t } from "./words.js";

const LEASE_MS = 20000;
const FIRST_PAUSE_MS = 30000; // after no answer: 30 s, then twice as long each time...
const LONGEST_PAUSE_MS = 300000; // ...up to five minutes
const BOOKED_KEPT = 50; // booked entries shown for reassurance, the newest first
const RESERVED_ELSEWHERE = "is reserved for the scanner";
// The kinds sent as they were queued, each carrying its own id (move_id, write_off_id, return_id).
const PATHS = { move: "/v1/moves/", write_off: "/v1/write_offs/", return: "/v1/returns/" };

const listeners = new Set();
const channel = "BroadcastChannel" in self ? new BroadcastChannel("warehouse-scanner") : null;
channel?.addEventListener("message", (event) => { if (event.data === "queue") listeners.forEach((fn) => fn()); });

/** fn() after every change of the queue, in this tab or another. */
export function onChange(fn) { listeners.add(fn); }

function changed() {
  listeners.forEach((fn) => fn());
  channel?.postMessage("queue");
}

/** Every entry, oldest first. */
export async function entries() {
  return (await store.batches.all()).sort((a, b) => a.created - b.created || (a.id < b.id ? -1 : 1));
}

export function counts(all) {
  return { waiting: all.filter((e) => e.state === "waiting" || e.state === "sending").length,
           attention: all.filter((e) => e.state === "attention").length };
}

/** Queue a batch (body: the create request's {batch_settings, batch_items, batch_extras}), a move,
 * a write-off or a return (kind "move", "write_off", "return", body: the POST's, its own id in it) or
 * a put-back (kind "release", document_number). A batch numbered here is fixed for good, the others
 * as they are queued: every send is the same request, and the service books a repeated id once. */
export async function enqueue({ kind = "batch", body = null, number = null, document_number = "", summary }) {
  const created = Date.now();
  const entry = { id: `${created}-${Math.random().toString(36).slice(2, 10)}`, kind, created, state: "waiting",
                  number, text: null, body, document_number, summary, answer: null, tries: 0, numbers: [] };
  if (kind === "batch" && number !== null) Object.assign(entry, numbered(entry, number));
  if (PATHS[kind]) entry.text = JSON.stringify({ data: body });
  await store.batches.add(entry);
  changed();
  return entry;
}

function numbered(entry, number) {
  const body = structuredClone(entry.body);
  body.batch_settings.batch_number = String(number);
  return { number, text: JSON.stringify({ data: body }), numbers: [...entry.numbers, number] };
}

/** A person's hand on an entry that needs attention: send it again as it is, or delete it. */
export async function sendAgain(id) {
  await store.batches.change(id, (entry) => ({ ...entry, state: "waiting", answer: null }));
  changed();
}

export async function remove(id) {
  await store.batches.change(id, () => undefined);
  changed();
}

/** When the queue may be sent next without a person asking: {at, pause} (at 0: now). */
export async function schedule() {
  return (await store.get("sending")) || { at: 0, pause: 0 };
}

async function claim(owner) {
  const now = Date.now();
  const lease = await store.change("sender", (held) =>
    (!held || held.until < now || held.owner === owner) ? { owner, until: now + LEASE_MS } : held);
  return lease.owner === owner;
}

async function letGo(owner) {
  await store.change("sender", (held) => (held && held.owner === owner ? undefined : held));
}

/** Send what waits, oldest first, until all is sent or the service stops answering.
 * `force`: also before the pause after no answer is over (page load, online, Send now).
 * Answers {outcome: "idle" | "busy" (another tab sends) | "later" | "unpaired", message}. */
export async function sendDue(key, owner, { force = false } = {}) {
  if (!force && (await schedule()).at > Date.now()) return { outcome: "later" };
  if (!(await claim(owner))) return { outcome: "busy" };
  try {
    for (let round = 0; round < 10000; round++) {
      const next = (await entries()).find((e) => e.state === "waiting" || e.state === "sending");
      if (!next) {
        await store.put("sending", undefined);
        return { outcome: "idle" };
      }
      if (!(await claim(owner))) return { outcome: "busy" };
      const answer = await sendOne(key, next);
      if (answer.kind === "later" || answer.kind === "unpaired") {
        if (answer.kind === "later") await pauseAfter(answer);
        return { outcome: answer.kind, message: answer.message };
      }
      await store.put("sending", undefined);
    }
    return { outcome: "idle" };
  } finally {
    await letGo(owner);
    await prune();
    changed();
  }
}

async function pauseAfter(answer) {
  await store.change("sending", (kept = { at: 0, pause: 0 }) => {
    const pause = Math.min(LONGEST_PAUSE_MS, kept.pause ? kept.pause * 2 : FIRST_PAUSE_MS);
    return { pause, at: Date.now() + Math.max(pause, (answer.retryAfter || 0) * 1000), status: answer.status };
  });
}

async function sendOne(key, entry) {
  if (entry.kind === "release") return putBack(key, entry);
  if (PATHS[entry.kind]) return sendText(key, entry, PATHS[entry.kind]);
  if (entry.number === null) {
    // Booked when no number was left on the device: numbered now, before its first send.
    let number = await numbers.take();
    if (number === null) {
      const asked = await numbers.keepAhead(key);
      if (asked && asked.kind !== "ok") return asked;
      number = await numbers.take();
      if (number === null) return { kind: "later", status: 0, message: t("No batch number is left on the device.") };
    }
    entry = await store.batches.change(entry.id, (kept) => (kept.number === null ? { ...kept, ...numbered(kept, number) } : kept));
    if (entry === null) return { kind: "ok" };
  }
  return sendText(key, entry, "/v1/batches/");
}

/** The entry's fixed text sent, and what the answer makes of it. */
async function sendText(key, entry, path) {
  await store.batches.change(entry.id, (kept) => ({ ...kept, state: "sending", sentAt: Date.now(), tries: kept.tries + 1 }));
  changed();
  const answer = await call(key, "POST", path, { json: entry.text });
  if (entry.kind === "batch" && answer.kind === "refused" && answer.status === 409 && answer.message.includes(RESERVED_ELSEWHERE)) {
    // The number lies in a block of another key (this device was paired again since it was numbered):
    // the service refused it before anything else, so it was never booked. A number of our own blocks.
    await store.batches.change(entry.id, (kept) => ({ ...kept, number: null, text: null, state: "waiting" }));
    return { kind: "renumbered" };
  }
  await store.batches.change(entry.id, (kept) => {
    if (answer.kind === "ok") return { ...kept, state: "booked", bookedAt: Date.now(), answer: null };
    if (answer.kind === "refused") {
      return { ...kept, state: "attention", answer: { status: answer.status, message: answer.message, fields: answer.fields } };
    }
    return { ...kept, state: "waiting", answer: { status: answer.status, message: answer.message } };
  });
  return answer;
}

async function putBack(key, entry) {
  const answer = await call(key, "POST", `/v1/documents/release/${encodeURIComponent(entry.document_number)}`, { json: {} });
  if (answer.kind === "later" || answer.status === 401) return answer.kind === "later" ? answer : { ...answer, kind: "unpaired" };
  // Put back, or nothing left to put back (closed, booked, released by the office, held by another).
  await store.batches.change(entry.id, (kept) => ({ ...kept, state: "booked", bookedAt: Date.now(),
                                                    answer: answer.kind === "ok" ? null : { status: answer.status, message: answer.message } }));
  return { kind: "ok" };
}

async function prune() {
  const booked = (await entries()).filter((e) => e.state === "booked").sort((a, b) => b.bookedAt - a.bookedAt);
  for (const entry of booked.slice(BOOKED_KEPT)) await store.batches.change(entry.id, () => undefined);
}
