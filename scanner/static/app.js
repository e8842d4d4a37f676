// The scanner page: wires the modules beside it to the screen (docs/scanner.md, "For developers").
// Everything it must not lose lives in IndexedDB (store.js) and the screen is drawn from it, so a
// reload puts the person back where they were.

import { entryAction } from "./attention.js";
import { book, leave, open } from "./booking.js";
import { count } from "./count.js";
import { refresh } from "./data.js";
import { allowSound } from "./feedback.js";
import { ScanInput } from "./input.js";
import { chooseLanguage } from "./language.js";
import { move } from "./move.js";
import { pair, pairFromAddress, unpair } from "./pairing.js";
import { pick } from "./pick.js";
import { placeTyped, toWarehouse } from "./places.js";
import { chooseLine, keypad, openKeypad, setQuantity } from "./quantity.js";
import * as queue from "./queue.js";
import { reasonChosen } from "./reason.js";
import { receive } from "./receive.js";
import { takeBack } from "./returns.js";
import { lotCancelled, lotGiven, scanned, typeCode } from "./scanning.js";
import { $, keepFocus, note } from "./screen.js";
import { send } from "./sending.js";
import { ship } from "./ship.js";
import { show } from "./show.js";
import { load, offer, state } from "./state.js";
import { drawQueue, drawStatus } from "./status.js";
import { toggleCamera } from "./viewfinder.js";
import { t } from "./words.js";
import { writeOff } from "./write_off.js";

const REFRESH_MS = 60000; // the offline data, at most once a minute while the page is open
const TICK_MS = 5000;

// The flows the page offers, each its screen's module (flow_screen.js): a new flow is one more here.
offer(receive, pick, ship, count, move, writeOff, takeBack);

/** The fields a code typed (or a label scanned) into belongs to: the lot, the key, a flow's places. */
const typedThere = (element) => ["lot", "pair-key", "location", "from", "to"].includes(element.id);

async function start() {
  allowSound();
  await pairFromAddress();
  await load();
  state.input = new ScanInput($("scan"), scanned, typedThere);
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

/** Over HTTPS (or on this device) a service worker keeps the page, so it starts without the network. */
function keepForOffline() {
  if (window.isSecureContext && "serviceWorker" in navigator) {
    navigator.serviceWorker.register("/scan/worker.js", { scope: "/scan" }).catch(() => {});
  } else {
    note(t("This page came over plain HTTP: it keeps what you book while it stays open, but starting it without the network, and the camera, need HTTPS (see Help)."), "info");
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
    if (kind) open(kind);
  });
  $("send-now").addEventListener("click", () => send(true));
  $("refresh").addEventListener("click", () => refresh());
  $("unpair").addEventListener("click", unpair);
  $("language").addEventListener("change", chooseLanguage);
  $("queue-list").addEventListener("click", entryAction);
  $("book").addEventListener("click", book);
  $("leave").addEventListener("click", leave);
  $("camera").addEventListener("click", toggleCamera);
  $("type-code").addEventListener("click", typeCode);
  $("lot-form").addEventListener("submit", lotGiven);
  $("lot-cancel").addEventListener("click", lotCancelled);
  $("quantity-form").addEventListener("submit", setQuantity);
  $("quantity").addEventListener("focus", openKeypad);
  document.querySelector(".keys").addEventListener("click", keypad);
  $("lines").addEventListener("click", chooseLine);
  $("places").addEventListener("change", placeTyped);
  $("reason").addEventListener("change", reasonChosen);
  $("to-warehouse").addEventListener("click", toWarehouse);
  $("scan").addEventListener("blur", keepFocus);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") state.camera?.stop();
    else tick();
  });
}

start().catch((error) => note(t("The scanner could not start: %(problem)s", { problem: error.message }), "error"));
