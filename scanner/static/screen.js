// The small parts every screen uses: an element by its id, the notice under the bar, a yes/no
// question, a choice among buttons on a screen of its own, and the scan field's focus.

import { signal } from "./feedback.js";
import { state } from "./state.js";
import { t } from "./words.js";

export const $ = (id) => document.getElementById(id);

export function note(text, kind = "info") {
  const notice = $("notice");
  notice.textContent = text;
  notice.className = `notice ${kind}`;
  notice.hidden = false;
}

export function clearNote(kind) {
  if (!kind || $("notice").classList.contains(kind)) $("notice").hidden = true;
}

/** A yes/no question in a modal dialog; `yes` names what saying yes does. */
export function confirm(text, yes) {
  const dialog = $("confirm");
  $("confirm-text").textContent = text;
  $("confirm-yes").textContent = yes;
  $("confirm-no").textContent = t("Cancel");
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
export function choose(title, text, options) {
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

/** The scan field takes the focus back, unless a prompt, a question or the quantity holds it. */
export function focusScan() {
  if (state.flow && $("lot-form").hidden && !$("confirm").open && document.activeElement !== $("quantity")) {
    $("scan").focus({ preventScroll: true });
  }
}

/** The scan field keeps the focus: a tap elsewhere (not on another field) gives it back. */
export function keepFocus() {
  setTimeout(() => {
    const active = document.activeElement;
    if (!active || active === document.body || active.tagName === "BUTTON") focusScan();
  }, 0);
}
