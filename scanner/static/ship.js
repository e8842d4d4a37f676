// Ship (DESIGN 24): a goods-out without an order (type R, direction O): the warehouse, then the scans.

import { flowScreen } from "./flow_screen.js";

export const ship = flowScreen("ship");
