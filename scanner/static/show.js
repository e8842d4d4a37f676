// The page drawn from the state: which screen shows (pairing, home or the open flow) and everything
// on it. A choice (screen.js's choose) takes the screen for a moment; show() gives it back.

import { drawFlow } from "./lines.js";
import { $, focusScan } from "./screen.js";
import { state } from "./state.js";
import { drawQueue, drawStatus } from "./status.js";
import { moment, number, t } from "./words.js";

export function show() {
  const screen = !state.key ? "pair" : state.flow ? "flow" : "home";
  for (const id of ["pair", "home", "choose", "flow"]) $(id).hidden = id !== screen;
  document.body.dataset.screen = screen;
  draw();
  if (screen === "flow") focusScan();
}

export function draw() {
  drawStatus();
  drawQueue();
  if (state.flow) drawFlow();
  $("data-at").textContent = state.dataAt ? moment(state.dataAt) : t("never");
  $("data-size").textContent = t("%(products)s products, %(orders)s open orders", { products: number(state.catalogue.size), orders: number(state.orders.length) });
}
