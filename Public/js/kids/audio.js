// Waldabenteuer's voice and sounds. Lines come from the server's `speak` effects and are spoken one
// after another (each line's `delay` counts from the end of the line before it), shown in a speech bubble,
// and read aloud in German at 85 % speed when sound is on. Sounds are short, soft tones made with
// WebAudio: no audio files, never a buzzer.

const RATE = 0.85;
/** How long a line stays readable when no voice tells us it finished (seconds). */
function readingSeconds(text) {
  return Math.min(7, 1.2 + text.length * 0.065);
}

let audioEnabled = true;
let context = null;

/** Sound and voice on or off (view.audioEnabled). Turning it off stops a line being spoken. */
export function setAudioEnabled(enabled) {
  audioEnabled = Boolean(enabled);
  if (!audioEnabled && window.speechSynthesis) window.speechSynthesis.cancel();
}

/** Browsers only allow sound after a touch: the first tap unlocks the audio context. */
export function unlockAudio() {
  if (context || !(window.AudioContext || window.webkitAudioContext)) return;
  try {
    context = new (window.AudioContext || window.webkitAudioContext)();
  } catch {
    context = null;
  }
}

function germanVoice() {
  const voices = window.speechSynthesis ? window.speechSynthesis.getVoices() : [];
  return voices.find((v) => v.lang === "de-DE") || voices.find((v) => v.lang && v.lang.startsWith("de")) || null;
}

/**
 * Speaks `text`; resolves when it has been said (or after its reading time when there is no voice).
 * `cancel` receives a function that ends the line at once.
 */
function sayAloud(text, cancel) {
  const fallback = readingSeconds(text) * 1000;
  return new Promise((resolve) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      resolve();
    };
    cancel(finish);
    // Some browsers never report the end of an utterance: the reading time is the upper bound.
    setTimeout(finish, fallback + 1500);
    if (!audioEnabled || !window.speechSynthesis || typeof SpeechSynthesisUtterance === "undefined") {
      setTimeout(finish, fallback);
      return;
    }
    try {
      const utterance = new SpeechSynthesisUtterance(text);
      utterance.lang = "de-DE";
      utterance.rate = RATE;
      const voice = germanVoice();
      if (voice) utterance.voice = voice;
      utterance.onend = () => setTimeout(finish, 350);
      utterance.onerror = () => setTimeout(finish, fallback);
      window.speechSynthesis.speak(utterance);
    } catch {
      setTimeout(finish, fallback);
    }
  });
}

/**
 * The line queue. `show(line)` puts a line on screen (the bubble) and returns nothing; `hide()` clears it
 * once the queue is empty. Lines of one response follow each other; a new screen may `clear()` the queue.
 */
export class Narrator {
  constructor({ show, hide, holdMs }) {
    this.show = show;
    this.hide = hide;
    // How long the last line stays (the server's bubbleHoldSeconds).
    this.holdMs = holdMs;
    this.queue = [];
    this.running = false;
    this.generation = 0;
    this.hideTimer = null;
    /** The line being said (null between lines). */
    this.current = null;
  }

  /** Adds a `speak` effect {speaker, text, delay, trigger}. */
  say(line) {
    if (!line || !line.text) return;
    this.queue.push(line);
    if (!this.running) this.run();
  }

  /**
   * Drops the lines not yet spoken and ends the current one: something new happened on screen. Lines the
   * server marks `inFull` (the daily limit's gentle exit) are kept: one being said finishes, the new lines
   * follow it.
   */
  clear() {
    this.queue = this.queue.filter((line) => line.inFull);
    if (this.current && this.current.inFull) return;
    this.generation += 1;
    if (window.speechSynthesis) window.speechSynthesis.cancel();
    if (this.stopCurrent) this.stopCurrent();
  }

  /** Like `clear()`, and the bubble goes at once: a new screen does not keep the old screen's words (a line
   *  heard in full stays on it). */
  reset() {
    this.clear();
    clearTimeout(this.hideTimer);
    if (this.current && this.current.inFull) this.show(this.current);
    else this.hide();
  }

  async run() {
    this.running = true;
    const generation = this.generation;
    clearTimeout(this.hideTimer);
    while (this.queue.length && generation === this.generation) {
      const line = this.queue.shift();
      if (line.delay > 0) {
        await new Promise((resolve) => {
          const timer = setTimeout(resolve, line.delay * 1000);
          this.stopCurrent = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      if (generation !== this.generation) break;
      this.current = line;
      this.show(line);
      await sayAloud(line.text, (stop) => {
        this.stopCurrent = stop;
      });
      this.current = null;
      this.stopCurrent = null;
    }
    this.current = null;
    this.stopCurrent = null;
    this.running = false;
    if (this.queue.length) return this.run();
    // The last line stays a moment longer, then the bubble goes.
    this.hideTimer = setTimeout(() => {
      if (!this.running) this.hide();
    }, this.holdMs());
  }
}

// MARK: Sounds

/** Soft tone shapes: [frequency Hz, start s, length s, peak gain, wave]. */
const SOUNDS = {
  tap_wood: [[330, 0, 0.09, 0.18, "triangle"], [660, 0, 0.05, 0.05, "sine"]],
  success_chime: [[784, 0, 0.35, 0.14, "sine"], [988, 0.1, 0.35, 0.12, "sine"], [1175, 0.2, 0.3, 0.1, "sine"]],
  coin_collect: [[988, 0, 0.12, 0.12, "sine"], [1319, 0.08, 0.22, 0.1, "sine"]],
  celebration_fanfare: [
    [523, 0, 0.4, 0.12, "triangle"], [659, 0.3, 0.4, 0.12, "triangle"], [784, 0.6, 0.4, 0.12, "triangle"],
    [1047, 0.9, 0.9, 0.12, "sine"], [784, 0.9, 0.9, 0.06, "sine"], [659, 0.9, 1.1, 0.05, "sine"],
  ],
  chest_open: [[392, 0, 0.3, 0.12, "triangle"], [523, 0.2, 0.3, 0.12, "triangle"], [784, 0.45, 0.55, 0.1, "sine"]],
  gentle_boop: [[392, 0, 0.18, 0.12, "sine"], [349, 0.08, 0.14, 0.08, "sine"]],
  bell: [[880, 0, 1, 0.12, "sine"], [1760, 0, 0.7, 0.04, "sine"], [1320, 0.02, 0.8, 0.03, "sine"]],
};

/** Plays a `sound` effect by name (only with sound on, only after the first tap unlocked audio). */
export function playSound(name) {
  if (!audioEnabled || !context) return;
  const shape = SOUNDS[name];
  if (!shape) return;
  if (context.state === "suspended") context.resume().catch(() => null);
  const now = context.currentTime + 0.01;
  const master = context.createGain();
  master.gain.value = 0.7;
  master.connect(context.destination);
  for (const [frequency, start, length, peak, wave] of shape) {
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = wave;
    oscillator.frequency.value = frequency;
    // A soft attack and a long, round release: nothing clicks or buzzes.
    gain.gain.setValueAtTime(0.0001, now + start);
    gain.gain.exponentialRampToValueAtTime(peak, now + start + Math.min(0.03, length / 3));
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    oscillator.connect(gain).connect(master);
    oscillator.start(now + start);
    oscillator.stop(now + start + length + 0.05);
  }
}
