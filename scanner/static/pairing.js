// The device's key (DESIGN 24): taken from the pairing QR's address (/scan#pair=<key>) or pasted,
// kept on the device alone; forgotten at Unpair, which never drops a batch that waits; and a key the
// service refuses, said so, with what waits kept for the next key.

import * as queue from "./queue.js";
import { confirm, note } from "./screen.js";
import { show } from "./show.js";
import { state } from "./state.js";
import { drawStatus } from "./status.js";
import * as store from "./store.js";
import { said, t } from "./words.js";

/** `/scan#pair=<key>` (the pairing QR): keep the key, and take it out of the address and the history. */
export async function pairFromAddress() {
  const found = /(?:^#|&)pair=([^&]+)/.exec(location.hash);
  if (!found) return;
  history.replaceState(null, "", location.pathname + location.search);
  await pair(decodeURIComponent(found[1]));
}

export async function pair(key) {
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

export async function unpair() {
  const waiting = queue.counts(state.entries).waiting + queue.counts(state.entries).attention;
  const text = waiting
    ? t("%(count)s batch(es) are not booked by the service yet. They stay on this device and are sent once it is paired again. Unpair?", { count: waiting })
    : t("Forget this device's key? It must be paired again to book.");
  if (!(await confirm(text, t("Unpair")))) return;
  state.camera?.stop();
  await store.put("pairing", undefined);
  await store.put("numbers", undefined);
  await store.put("taken", undefined);
  state.key = null;
  state.taken = {};
  show();
}

export async function lostPairing(message) {
  state.unpaired = message;
  note(t("The service refused this device's key: %(problem)s Pair it again; what waits to be sent stays on the device.", { problem: said(message) }), "error");
  drawStatus();
}
