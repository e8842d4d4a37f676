// A person's hand on a batch the service refused (DESIGN 25): Send again as it is, Edit (the batch
// opens as the flow again, to book anew), or Delete after asking. The buttons are status.js's.

import * as queue from "./queue.js";
import { confirm, note } from "./screen.js";
import { send } from "./sending.js";
import { show } from "./show.js";
import { entryTitle } from "./status.js";
import { keepFlow, state } from "./state.js";
import { t } from "./words.js";

/** A click on the queue's list: the entry's button, if it was one. */
export async function entryAction(event) {
  const button = event.target.closest("button[data-entry]");
  if (!button) return;
  const id = button.dataset.entry;
  const entry = state.entries.find((e) => e.id === id);
  if (!entry) return;
  if (button.dataset.act === "again") {
    await queue.sendAgain(id);
    await send(true);
  } else if (button.dataset.act === "delete") {
    if (await confirm(t("Delete “%(title)s” from this device? The service never booked it.", { title: entryTitle(entry.summary) }), t("Delete"))) {
      await queue.remove(id);
    }
  } else if (button.dataset.act === "edit") {
    if (state.flow) return note(t("Finish or discard the open flow first."), "error");
    state.flow = entry.summary.flow;
    await keepFlow();
    await queue.remove(id);
    show();
  }
}
