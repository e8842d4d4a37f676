// Every way a code reaches the page, turned into one callback: scanned(text, source).
//   wedge   a scanner that types (Zebra DataWedge, Honeywell, a USB scanner): characters GAP_MS apart
//           or less on average, ended by Enter or Tab, at least MIN_LENGTH of them. Caught wherever
//           the focus is: a burst that landed in another field (the quantity) is taken back out of it.
//           On average, so that one late character (a busy phone) does not split a scan; a pause
//           longer than PAUSE_MS starts a new burst.
//   typed   the Scan field's text, ended by Enter or Tab, however slowly it was typed; so too keys
//           typed while something that takes no text had the focus (the Reason's list, a button)
//   camera  camera.js's reads
// The same code again within a moment counts once: a wedge that sends a code twice (its second copy
// begins within DOUBLE_WEDGE_MS of the first one's end; a person pulls the trigger again later), a
// camera that sees the same label frame after frame (DOUBLE_CAMERA_MS, for as long as it stays in view).

const GAP_MS = 80;
const PAUSE_MS = 250;
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
    this.burst = null; // {text, last, target, before}
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
    const paused = burst !== null && now - burst.last > PAUSE_MS;
    // The page gives the scan field its focus back a moment after a tap elsewhere: a code that began
    // to arrive before that goes on in the field.
    const refocused = moved && !paused && target === this.field && !editable(burst.target);
    // Keys into an element that takes no text (the Reason's list, a button) can only be a code, however
    // slowly a busy phone delivers them; in a field that takes text a pause begins anew.
    const goesOn = refocused || (burst !== null && !moved && (!paused || !editable(target)));
    if (!goesOn) {
      this.burst = { text: "", first: now, last: now, target, before: "value" in target ? target.value : null };
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
    const refocused = burst !== null && burst.target !== target && target === this.field && !editable(burst.target);
    const isWedge = burst !== null && (burst.target === target || refocused) && burst.text.length >= MIN_LENGTH
      && now - burst.last <= PAUSE_MS && (now - burst.first) / burst.text.length <= GAP_MS;
    if (target === this.field) {
      // The field holds the code, unless some of it arrived before the field had its focus back:
      // then the burst holds it whole (and the field only its end).
      const typed = this.field.value;
      const text = (isWedge && burst.text.length > typed.length && burst.text.endsWith(typed) ? burst.text : typed).trim();
      if (!text && event.key === "Tab") return; // Tab out of an empty field moves on, as anywhere
      event.preventDefault();
      this.field.value = "";
      if (text) this.emit(text, isWedge ? "wedge" : "typed", isWedge ? burst.first : now, now);
      return;
    }
    // Typed, at any pace, while something that takes no text had the focus: the code is the Scan field's.
    const typedElsewhere = !isWedge && burst !== null && burst.target === target && !editable(target)
      && burst.text.length >= MIN_LENGTH;
    if ((isWedge || typedElsewhere) && !this.keepsTyping(target)) {
      // The trigger was pulled while another field had the focus: the code was typed into it.
      event.preventDefault();
      if (burst.before !== null) target.value = burst.before;
      this.emit(burst.text, isWedge ? "wedge" : "typed", isWedge ? burst.first : now, now);
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
