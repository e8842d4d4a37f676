// What a scan sounds and feels like (DESIGN 24): distinct tones for ok, warning and error, made by
// Web Audio (nothing to download), and the phone's vibration where it has one.

const TONES = {
  ok: [[1320, 0.07]],
  warning: [[660, 0.09], [0, 0.05], [660, 0.09]],
  error: [[220, 0.12], [0, 0.04], [220, 0.12], [0, 0.04], [220, 0.2]],
};
const BUZZ = { ok: [40], warning: [60, 60, 60], error: [200, 80, 200] };
let audio = null;

/** Browsers let a page sound only after a person touched it: the first touch or key opens the sound. */
export function allowSound() {
  const open = () => {
    try {
      audio ??= new AudioContext();
      if (audio.state === "suspended") audio.resume();
    } catch {
      audio = null; // no sound on this device: the screen and the vibration still tell
    }
  };
  document.addEventListener("pointerdown", open, { once: true, capture: true });
  document.addEventListener("keydown", open, { once: true, capture: true });
}

export function signal(kind) {
  navigator.vibrate?.(BUZZ[kind]);
  if (!audio || audio.state !== "running") return;
  let at = audio.currentTime;
  for (const [frequency, seconds] of TONES[kind]) {
    if (frequency) {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.type = kind === "error" ? "square" : "sine";
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.2, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + seconds);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(at);
      oscillator.stop(at + seconds);
    }
    at += seconds;
  }
}
