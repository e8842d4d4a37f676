// Count (DESIGN 24): a warehouse counted blind, the book stock never shown: the warehouse, then the
// scans; a quantity of 0 is "found none" (flow.js). Booked as that warehouse's count of the day
// (type V), whose differences the day's stocktaking books.

import { flowScreen } from "./flow_screen.js";

export const count = flowScreen("count");
