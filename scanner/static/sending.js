// The queue sent from this page (DESIGN 25): one round at a time in this tab, under this tab's name
// for the device's one sender (queue.js's lease), and what the round found out shown.

import { lostPairing } from "./pairing.js";
import * as queue from "./queue.js";
import { $, clearNote, note } from "./screen.js";
import { state } from "./state.js";
import { drawQueue } from "./status.js";
import { t } from "./words.js";

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

/* One round of sending at a time in this tab: the lease keeps other tabs out, not this tab's own
 * events and timer ("online", a booking, the tick), and two rounds at once sent the same batch
 * twice (booked once all the same, as a retry). A call while a round runs asks for one more round
 * after it, which takes what was booked meanwhile. */
let round = null;
let nextRound = null;
let nextForced = false;

/** Send what waits; `force`: also before the pause after no answer is over. */
export function send(force) {
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
    if ($("notice").classList.contains("booked")) note(t("Sent: the service has booked it."), "booked");
  }
  await drawQueue();
}
