// The Camera button of a flow's screen: the phone's camera (camera.js) opened and closed, its reads
// given to the scan input as any code, and why it cannot open said beside it, with the HTTPS help.

import { Camera, cannotStart } from "./camera.js";
import { $, focusScan } from "./screen.js";
import { state } from "./state.js";
import { t } from "./words.js";

export async function toggleCamera() {
  if (state.camera?.running) {
    state.camera.stop();
    $("camera").textContent = t("Camera");
    return focusScan();
  }
  const refused = cannotStart();
  if (refused) return cameraNote(refused.message);
  state.camera = new Camera($("viewfinder"), (text) => state.input.camera(text), state.key, cameraNote);
  try {
    const how = await state.camera.start();
    $("camera").textContent = t("Stop camera");
    cameraNote(how === "service" ? t("Hold the code in the picture; the service reads it.") : t("Hold the code in the picture."));
  } catch (error) {
    cameraNote(error.message);
  }
  focusScan();
}

function cameraNote(text) {
  const note = $("camera-note");
  note.replaceChildren(text + " ");
  if (/HTTPS/.test(text)) {
    const link = document.createElement("a");
    link.href = "/scan/help#https";
    link.textContent = t("How to set up HTTPS");
    note.append(link);
  }
  note.hidden = false;
}
