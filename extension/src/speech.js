// Read aloud with the browser's own speech synthesis: sentence by sentence, the sentence
// being read highlighted (CSS Custom Highlight API, else its block), pause / resume / speed.

const BLOCKS = "h1,h2,h3,h4,h5,h6,p,li,blockquote,figcaption,dt,dd,td,th,caption";
const HIGHLIGHT = "blocksift-speaking";
export const RATES = Object.freeze([0.75, 1, 1.25, 1.5, 1.75, 2]);
const WATCH_MS = 1000;
export const NO_SYNTHESIS = "This browser cannot read aloud (no speech synthesis).";
export const NO_VOICE = "No voice is installed for speech; install one for your system (on Linux: "
  + "the speech-dispatcher and espeak-ng packages), then restart the browser.";
// A sentence ends at . ! ? … (and Arabic's ؟, Urdu's ۔; then closing quotes or brackets)
// before a space, or at a CJK stop.
const SENTENCE = /\S[^]*?(?:[.!?…؟۔]+["'”’)\]»]*(?=\s|$)|[。！？]+|$)/g;

/** Sentences of plain `text` as {start, end, text} offsets (trimmed): Intl.Segmenter where
 * the engine has it (and `useSegmenter`), else a punctuation rule. */
export function splitSentences(text, lang = "", { useSegmenter = true } = {}) {
  const pieces = [];
  const add = (start, end) => {
    const raw = text.slice(start, end);
    const lead = raw.length - raw.trimStart().length;
    const said = raw.trim();
    if (said) pieces.push({ start: start + lead, end: start + lead + said.length, text: said });
  };
  if (useSegmenter && typeof Intl.Segmenter === "function") {
    let segmenter;
    try {
      segmenter = new Intl.Segmenter(lang || undefined, { granularity: "sentence" });
    } catch {
      segmenter = new Intl.Segmenter(undefined, { granularity: "sentence" }); // unknown tag
    }
    for (const part of segmenter.segment(text)) add(part.index, part.index + part.segment.length);
  } else {
    for (const match of text.matchAll(SENTENCE)) add(match.index, match.index + match[0].length);
  }
  return pieces;
}

/** Where text offset `offset` falls among consecutive pieces of `lengths`: [piece, offset in
 * it]. An offset on a boundary belongs to the next piece (a range starts there). */
export function textPosition(lengths, offset) {
  let start = 0;
  for (let i = 0; i < lengths.length; i += 1) {
    if (offset < start + lengths[i] || i === lengths.length - 1) {
      return [i, Math.max(0, Math.min(offset - start, lengths[i]))];
    }
    start += lengths[i];
  }
  return [0, 0];
}

/** Sentences of `container` as {text, range, block}, in reading order; code (<pre>) and
 * formulas (<math>) are not read. */
export function sentences(container, lang, options = {}) {
  const blocks = [...container.querySelectorAll(BLOCKS)].filter((block) => !block.querySelector(BLOCKS)
    && !block.closest("pre"));
  return blocks.flatMap((block) => blockSentences(block, lang, options));
}

/** The language a block says it is in: the nearest lang around it below the document's root
 * (a Hebrew quote in an English article: "he"), else `lang`. */
export function blockLanguage(block, lang = "") {
  const holder = block.closest?.("[lang]");
  return holder && holder !== block.ownerDocument?.documentElement ? holder.getAttribute("lang") || lang : lang;
}

/** Sentences of one block (a paragraph, a heading) as {text, range, block, lang}: `lang` is
 * the block's own language (blockLanguage), spoken in its voice. */
export function blockSentences(block, lang, options = {}) {
  lang = blockLanguage(block, lang);
  const out = [];
  const nodes = [];
  const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement?.closest("math, pre")) nodes.push(node);
  }
  const lengths = nodes.map((node) => node.data.length);
  for (const { start, end, text } of splitSentences(nodes.map((node) => node.data).join(""), lang, options)) {
    const range = document.createRange();
    const [first, from] = textPosition(lengths, start);
    const [last, to] = textPosition(lengths, end);
    range.setStart(nodes[first], from);
    range.setEnd(nodes[last], to);
    out.push({ text, range, block, lang });
  }
  return out;
}

/** Sentences of the reader view `root`: its title (`#title`) first, as a listener expects,
 * then its article's (`#content`). */
export function readerSentences(root, lang, options = {}) {
  const title = root.querySelector("#title");
  const article = root.querySelector("#content");
  return [...(title ? blockSentences(title, lang, options) : []),
    ...(article ? sentences(article, lang, options) : [])];
}

/** Show `item` as the sentence being read (null: none), in view. */
function markSentence(container, item) {
  for (const old of container.querySelectorAll(".speaking")) old.classList.remove("speaking");
  if (globalThis.CSS?.highlights && globalThis.Highlight) {
    if (item) CSS.highlights.set(HIGHLIGHT, new Highlight(item.range));
    else CSS.highlights.delete(HIGHLIGHT);
  }
  if (item) {
    item.block.classList.add("speaking");
    // clear of the sticky toolbar above and the status line below
    const box = item.range.getBoundingClientRect();
    if (box.top < 60 || box.bottom > innerHeight - 80) item.block.scrollIntoView({ block: "center", behavior: "smooth" });
  }
}

/**
 * A speaker over `container`. onChange({state, index, total, rate, error, sentence, started})
 * after every change; state is "idle", "playing", "paused" or "unavailable"; `started` counts
 * the utterances the engine said it began (its `start` events).
 *
 * Pause cancels the utterance and resume speaks the sentence again from its start: on Linux
 * (speech-dispatcher) both browsers' own pause does not stop the voice, and Chromium then
 * never ends the utterance. `speech` (the Web Speech API's globals), `split`, `mark` and
 * `watchTimers` are parameters so the state machine can run outside a page.
 */
export function createSpeaker(container, {
  lang = "", onChange = () => {}, speech = globalThis, split = sentences, mark = markSentence,
  voiceWaitMs = 2000, watchTimers = globalThis,
} = {}) {
  const synth = speech.speechSynthesis;
  const Utterance = speech.SpeechSynthesisUtterance;
  const usable = Boolean(synth && Utterance);
  // without a language Chromium's default voice is the first listed (with espeak-ng: Afrikaans)
  const speakingLang = lang || speech.navigator?.language || "";
  let queue = [];
  let index = 0;
  let rate = 1;
  let started = 0;
  let state = usable ? "idle" : "unavailable";
  let current = null;
  let starting = false;
  let watchdog = null;
  let error = usable ? "" : NO_SYNTHESIS;

  const report = () => onChange({ state, index, total: queue.length, rate, error, started,
    sentence: state === "idle" ? "" : queue[index]?.text ?? "" });

  function fail(message) {
    stop();
    error = message;
    report();
    error = "";
  }

  function speakAt(position, tries = 0) {
    if (position >= queue.length) {
      stop();
      return;
    }
    index = Math.max(0, position);
    const item = queue[index];
    const utterance = new Utterance(item.text);
    let begun = false;
    utterance.rate = rate;
    // the sentence's own language (a quote in another), else the article's
    if (item.lang || speakingLang) utterance.lang = item.lang || speakingLang;
    utterance.onstart = () => {
      if (current !== utterance) return;
      begun = true;
      started += 1;
      report();
    };
    utterance.onend = () => {
      if (current === utterance && state === "playing") speakAt(index + 1);
    };
    utterance.onerror = (event) => {
      if (current !== utterance || ["interrupted", "canceled"].includes(event.error)) return;
      const noVoice = !synth.getVoices().length;
      fail(noVoice ? NO_VOICE : `This browser could not read aloud (${event.error || "speech failed"}).`);
    };
    current = utterance;
    state = "playing";
    mark(container, item);
    synth.cancel();
    synth.speak(utterance);
    report();
    watch(utterance, () => begun, tries);
  }

  /** Firefox drops an utterance spoken just after cancelling one that had not started yet
   * (no event ever; the engine then idle): speak the sentence again, twice at most. */
  function watch(utterance, hasBegun, tries) {
    watchTimers.clearTimeout(watchdog);
    watchdog = watchTimers.setTimeout(() => {
      if (current !== utterance || state !== "playing" || hasBegun()) return;
      if (synth.speaking || synth.pending) {
        watch(utterance, hasBegun, tries); // still queued or speaking: an engine may be slow
      } else if (tries < 2) {
        speakAt(index, tries + 1);
      } else {
        fail("The speech engine did not start speaking; try Listen again.");
      }
    }, WATCH_MS);
  }

  /** True once the engine lists a voice; voices may arrive late (Chromium loads them then
   * fires voiceschanged), and an engine without any takes utterances and never speaks. */
  async function haveVoice() {
    if (synth.getVoices().length) return true;
    await new Promise((resolve) => {
      const timer = setTimeout(done, voiceWaitMs);
      function done() {
        clearTimeout(timer);
        synth.removeEventListener?.("voiceschanged", done);
        resolve();
      }
      synth.addEventListener?.("voiceschanged", done);
    });
    return synth.getVoices().length > 0;
  }

  async function play() {
    if (!usable) return report();
    if (state === "paused") return speakAt(index);
    if (state === "playing") return pause();
    if (starting) return undefined;
    starting = true;
    try {
      if (!(await haveVoice())) return fail(NO_VOICE);
      queue = split(container, lang);
      error = "";
      if (!queue.length) return fail("There is no text to read aloud.");
      return speakAt(index < queue.length ? index : 0);
    } finally {
      starting = false;
    }
  }

  function pause() {
    if (state !== "playing") return;
    state = "paused";
    current = null;
    synth.cancel();
    report();
  }

  function stop() {
    if (!usable) return;
    watchTimers.clearTimeout(watchdog);
    current = null;
    synth.cancel();
    state = "idle";
    index = 0;
    mark(container, null);
    report();
  }

  function setRate(next) {
    if (!usable || !Number.isFinite(next) || next <= 0) return report();
    rate = next;
    if (state === "playing") speakAt(index); // the new speed applies from this sentence
    else report();
  }

  function step(delta) {
    if (state === "idle" || state === "unavailable" || !queue.length) return;
    const target = Math.max(0, Math.min(queue.length - 1, index + delta));
    if (state === "paused") {
      index = target;
      mark(container, queue[index]);
      report();
    } else {
      speakAt(target);
    }
  }

  function faster(delta) {
    const at = RATES.indexOf(rate);
    setRate(RATES[Math.max(0, Math.min(RATES.length - 1, (at < 0 ? 1 : at) + delta))]);
  }

  speech.addEventListener?.("pagehide", () => synth?.cancel());
  report();
  return { play, pause, stop, setRate, step, faster, get state() { return state; } };
}
