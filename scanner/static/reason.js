// The flow's field Reason (Write off, Return; DESIGN 28): its choices in the page's words, the one
// chosen kept with the flow (the API's English value), and asked for at Book when none is.

import { tell } from "./lines.js";
import { $, focusScan, keepFocus } from "./screen.js";
import { keepFlow, state } from "./state.js";
import { t } from "./words.js";

// Each reason as people read it (capitalised: "expired" alone is a key's word on the pages); the
// value sent stays the API's English word.
const WORDS = { expired: () => t("Expired"), damaged: () => t("Damaged"), lost: () => t("Lost"),
                sample: () => t("Sample"), other: () => t("Other"), "wrong goods": () => t("Wrong goods"),
                "not wanted": () => t("Not wanted") };
export const reasonWords = (reason) => (WORDS[reason] ? WORDS[reason]() : reason);

/** The field shown with the flow's `reasons`, the flow's own chosen (none at first). */
export function drawReason(flow, reasons) {
  const field = $("reason");
  const values = ["", ...reasons];
  if ([...field.options].map((option) => option.value).join("\n") !== values.join("\n")) {
    field.replaceChildren(...values.map((value) => new Option(value ? reasonWords(value) : t("choose…"), value)));
  }
  field.value = flow.reason || "";
  // A select with the focus (tapped, the same choice kept) picks the option whose words begin with a
  // key typed: a wedge scan's characters would change the reason ("DOCK" -> Damaged). Its keys reach
  // the scan input all the same (input.js listens in the capture phase, before this handler).
  field.onkeydown = (event) => {
    if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) event.preventDefault();
  };
  field.onblur = keepFocus;
  $("reason-field").hidden = false;
}

/** The person chose a reason. */
export async function reasonChosen(event) {
  const flow = state.flow;
  focusScan(); // the next scan goes to Scan, not to the select's typeahead
  if (!flow) return;
  flow.reason = event.target.value;
  await keepFlow();
  tell("ok", t("Reason: %(reason)s", { reason: reasonWords(flow.reason) }), "", performance.now());
}

/** Book asks first: a flow with a Reason books only once one is chosen. */
export function reasonGiven(flow) {
  if (flow.reason) return true;
  tell("error", t("Why? Choose the Reason"), "", performance.now());
  $("reason").focus();
  return false;
}
