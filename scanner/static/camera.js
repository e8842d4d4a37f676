// The phone's camera as a scanner (DESIGN 24): the browser's BarcodeDetector where it has one
// (Chrome on Android, the scanners' own browsers), else a few frames a second read by the service
// with zxing-cpp (POST /v1/barcodes/read). The camera needs a secure page: HTTPS, or localhost.

import { call } from "./api.js";
import { said, t } from "./words.js";

const FORMATS = ["ean_13", "ean_8", "upc_a", "code_128", "qr_code"];
const DETECT_EVERY_MS = 150;
const SEND_EVERY_MS = 300; // a few frames a second, one at a time
const FRAME_WIDTH = 960; // wide enough for a label at arm's length, small enough to send quickly

export class CameraError extends Error {
  constructor(reason, message) { super(message); this.reason = reason; }
}

/** Why the camera cannot start here, before trying it: null when it may. */
export function cannotStart() {
  if (!window.isSecureContext) {
    return new CameraError("https", t("The camera needs HTTPS: open the scanner at its https:// address."));
  }
  if (!navigator.mediaDevices?.getUserMedia) return new CameraError("none", t("This browser gives no camera to pages."));
  return null;
}

export class Camera {
  /** video: the viewfinder; found(text): a code read; key: the device's key (for the service's reader);
   * trouble(message): the service could not read frames (offline). */
  constructor(video, found, key, trouble) {
    Object.assign(this, { video, found, key, trouble, stream: null, timer: null, busy: false });
  }

  async start() {
    const refused = cannotStart();
    if (refused) throw refused;
    try {
      this.stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
    } catch (error) {
      if (error.name === "NotAllowedError" || error.name === "SecurityError") {
        throw new CameraError("permission", t("The camera was not allowed: allow it in the browser's site settings."));
      }
      throw new CameraError("none", t("The camera did not start (%(error)s).", { error: error.name }));
    }
    this.video.srcObject = this.stream;
    this.video.hidden = false;
    await this.video.play().catch(() => {});
    const detector = await this.detector();
    this.timer = setInterval(() => (detector ? this.detect(detector) : this.send()),
                             detector ? DETECT_EVERY_MS : SEND_EVERY_MS);
    return detector ? "browser" : "service";
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
    this.stream?.getTracks().forEach((track) => track.stop());
    this.stream = null;
    this.video.srcObject = null;
    this.video.hidden = true;
  }

  get running() { return this.stream !== null; }

  async detector() {
    if (!("BarcodeDetector" in window)) return null;
    try {
      const supported = await window.BarcodeDetector.getSupportedFormats();
      const formats = FORMATS.filter((format) => supported.includes(format));
      return formats.length ? new window.BarcodeDetector({ formats }) : null;
    } catch {
      return null;
    }
  }

  async detect(detector) {
    if (this.busy || this.video.readyState < 2) return;
    this.busy = true;
    try {
      const [code] = await detector.detect(this.video);
      if (code?.rawValue) this.found(code.rawValue);
    } catch {
      // a frame the detector could not take: the next one will do
    } finally {
      this.busy = false;
    }
  }

  async send() {
    if (this.busy || this.video.readyState < 2 || !this.video.videoWidth) return;
    this.busy = true;
    try {
      const scale = Math.min(1, FRAME_WIDTH / this.video.videoWidth);
      const canvas = document.createElement("canvas");
      canvas.width = Math.round(this.video.videoWidth * scale);
      canvas.height = Math.round(this.video.videoHeight * scale);
      canvas.getContext("2d").drawImage(this.video, 0, 0, canvas.width, canvas.height);
      const frame = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.85));
      if (!frame || !this.running) return;
      const answer = await call(this.key, "POST", "/v1/barcodes/read", { raw: frame, type: "image/jpeg" });
      if (answer.kind === "ok") this.found(answer.data.item.text);
      else if (answer.kind === "later" || answer.kind === "unpaired") this.trouble(answer.kind === "later"
        ? t("The camera's pictures are read by the service, which does not answer: use the scanner's trigger or type the code.")
        : said(answer.message));
    } finally {
      this.busy = false;
    }
  }
}
