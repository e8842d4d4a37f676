// Every way a code reaches the page, turned into one callback: scanned(text, source).
//   wedge   a scanner that types (Zebra DataWedge, Honeywell, a USB scanner): characters GAP_MS apart
//           or less on average, ended by Enter or Tab, at least MIN_LENGTH of them. Caught wherever
//           the focus is: a burst that landed in another field (the quantity) is taken back out of it.
//           On average, so that one late character (a busy phone) does not split a scan; a pause
//           longer than PAUSE_MS starts a new burst.
//   typed   the Scan field's text, ended by Enter or Tab, however slowly it was typed; so too keys
//           that came while something that takes no text had the focus (the Reason's list, a
//           button, the page), at any pace up to SLOW_MS a key: nobody types there, but a busy
//           phone may space a scan's keys out, and a stray key seconds before a scan is no part of it
//   camera  camera.js's reads
// The same code again within a moment counts once: a wedge that sends a code twice (its second copy
// begins within DOUBLE_WEDGE_MS of the first one's end; a person pulls the trigger again later), a
// camera that sees the same label frame after frame (DOUBLE_CAMERA_MS, for as long as it stays in view).

const GAP_MS = 80;
const PAUSE_MS = 250;
const SLOW_MS = 2000;
const MIN_LENGTH = 3;
const DOUBLE_WEDGE_MS = 250;
const DOUBLE_CAMERA_MS = 1500;

export class ScanInput {
  /** field: the Scan input; scanned(text, source); keepsTyping(element): whether a burst into that
   * element is typing meant for it (the Lot field: a scanned lot label belongs there). */
  constructor(field, scanned, keepsTyping = () => false) {
    this.field = field;
    this.scanned = scanned;
    this.keepsTyping = keepsTyping;
    this.burst = null; // {text, first, last, target, before, noText}
    this.previous = { text: "", at: 0, source: "" };
    document.addEventListener("keydown", (event) => this.key(event), true);
  }

  key(event) {
    const now = event.timeStamp || performance.now();
    if (event.key === "Enter" || event.key === "Tab") {
      this.end(event, now);
      return;
    }
    if (event.key.length !== 1 || event.ctrlKey || event.metaKey || event.altKey) {
      this.burst = null;
      return;
    }
    const target = event.target;
    const burst = this.burst;
    const moved = burst !== null && burst.target !== target;
    // A burst begun on something that takes no text goes on at any pace up to SLOW_MS a key, into
    // the scan field too once the page gives it the focus back; in a field that takes text a pause
    // longer than PAUSE_MS begins anew.
    const within = burst !== null && now - burst.last <= (burst.noText ? SLOW_MS : PAUSE_MS);
    const refocused = within && moved && target === this.field && burst.noText;
    if (!within || (moved && !refocused)) {
      this.burst = { text: "", first: now, last: now, target, before: "value" in target ? target.value : null,
                     noText: !editable(target) };
    } else if (refocused) {
      this.burst.target = target;
    }
    this.burst.text += event.key;
    this.burst.last = now;
  }

  end(event, now) {
    const burst = this.burst;
    this.burst = null;
    const target = event.target;
    // The focus may come back to the scan field between a code's last character and its Enter (a
    // busy page runs the refocus after the keys already queued): the code is still the field's.
    const refocused = burst !== null && burst.target !== target && target === this.field && burst.noText;
    const own = burst !== null && (burst.target === target || refocused) && burst.text.length >= MIN_LENGTH;
    const isWedge = own && now - burst.last <= PAUSE_MS && (now - burst.first) / burst.text.length <= GAP_MS;
    // Keys that came where nobody types, slower than a scanner's pace (a busy phone): a code all the same.
    const slowCode = own && !isWedge && burst.noText && now - burst.last <= SLOW_MS;
    const source = isWedge ? "wedge" : "typed";
    if (target === this.field) {
      // The field holds the code, unless some of it arrived before the field had its focus back:
      // then the burst holds it whole (and the field only its end).
      const typed = this.field.value;
      const whole = (isWedge || slowCode) && burst.text.length > typed.length && burst.text.endsWith(typed);
      const text = (whole ? burst.text : typed).trim();
      if (!text && event.key === "Tab") return; // Tab out of an empty field moves on, as anywhere
      event.preventDefault();
      this.field.value = "";
      if (text) this.emit(text, source, isWedge ? burst.first : now, now);
      return;
    }
    if ((isWedge || slowCode) && !this.keepsTyping(target)) {
      // The trigger was pulled while another field had the focus: the code was typed into it.
      event.preventDefault();
      if (burst.before !== null) target.value = burst.before;
      this.emit(burst.text, source, isWedge ? burst.first : now, now);
    }
  }

  /** A code the camera read. */
  camera(text) {
    const now = performance.now();
    this.emit(text, "camera", now, now);
  }

  /** began: when the code began to arrive; ended: when it was whole. */
  emit(text, source, began, ended) {
    const window = source === "camera" ? DOUBLE_CAMERA_MS : source === "wedge" ? DOUBLE_WEDGE_MS : 0;
    const again = text === this.previous.text && source === this.previous.source && began - this.previous.at < window;
    this.previous = { text, at: ended, source };
    if (again) return;
    this.scanned(text, source);
  }
}

function editable(element) {
  return element.tagName === "INPUT" || element.tagName === "TEXTAREA" || element.isContentEditable;
}
