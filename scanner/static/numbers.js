// Batch numbers from blocks the service reserved for this device's key (POST /v1/batch_numbers/):
// a batch gets its number when it is booked on the device, before it is first sent, so every later
// send is the same request, and no other scanner can book that number meanwhile (DESIGN 25).

import { call } from "./api.js";
import * as store from "./store.js";

const BLOCK = 100; // numbers asked for at a time
const LOW = 25; // fewer left than this: ask for the next block while the service answers

/** The next number of the device's blocks, taken for good; null when none is left. */
export async function take() {
  let taken = null;
  await store.change("numbers", (blocks = []) => {
    const open = blocks.filter((block) => block.next <= block.last);
    if (open.length) taken = open[0].next++;
    return open;
  });
  return taken;
}

export async function left() {
  const blocks = (await store.get("numbers")) || [];
  return blocks.reduce((sum, block) => sum + Math.max(0, block.last - block.next + 1), 0);
}

/** Ask for a block when few numbers are left; answers the call's outcome, or null when none was needed. */
export async function keepAhead(key) {
  if ((await left()) >= LOW) return null;
  const answer = await call(key, "POST", "/v1/batch_numbers/", { json: { data: { count: BLOCK } } });
  if (answer.kind === "ok") {
    const { first, last } = answer.data.item;
    await store.change("numbers", (blocks = []) => [...blocks, { first, last, next: first }]);
  }
  return answer;
}
