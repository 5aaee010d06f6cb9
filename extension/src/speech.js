// Read aloud with the browser's own speech synthesis: sentence by sentence, the sentence
// being read highlighted (CSS Custom Highlight API, else its block), pause / resume / speed.

const BLOCKS = "h1,h2,h3,h4,h5,h6,p,li,blockquote,figcaption,dt,dd,td,th,caption";
const HIGHLIGHT = "blocksift-speaking";
export const RATES = Object.freeze([0.75, 1, 1.25, 1.5, 1.75, 2]);

/** Sentences of `container` as {text, range, block}, in reading order. */
export function sentences(container, lang) {
  const out = [];
  const segmenter = typeof Intl.Segmenter === "function"
    ? new Intl.Segmenter(lang || undefined, { granularity: "sentence" }) : null;
  const blocks = [...container.querySelectorAll(BLOCKS)].filter((block) => !block.querySelector(BLOCKS)
    && !block.closest("pre"));
  for (const block of blocks) {
    const nodes = [];
    let text = "";
    const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement?.closest("math, pre")) continue;
      nodes.push({ node, start: text.length });
      text += node.data;
    }
    const pieces = segmenter
      ? [...segmenter.segment(text)].map((part) => ({ start: part.index, end: part.index + part.segment.length }))
      : [...text.matchAll(/[^.!?]+[.!?]*\s*/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
    for (const { start, end } of pieces) {
      const said = text.slice(start, end).trim();
      if (!said) continue;
      const range = document.createRange();
      const locate = (offset) => {
        let found = nodes[0];
        for (const entry of nodes) if (entry.start <= offset) found = entry;
        return [found.node, Math.min(offset - found.start, found.node.data.length)];
      };
      range.setStart(...locate(start));
      range.setEnd(...locate(end));
      out.push({ text: said, range, block });
    }
  }
  return out;
}

/**
 * A speaker over `container`. onChange({state, index, total, rate, error, sentence}) after
 * every change;
 * state is "idle", "playing", "paused" or "unavailable".
 */
export function createSpeaker(container, { lang = "", onChange = () => {} } = {}) {
  const synth = globalThis.speechSynthesis;
  let queue = [];
  let index = 0;
  let rate = 1;
  let state = synth ? "idle" : "unavailable";
  let current = null;
  let error = synth ? "" : "This browser cannot read aloud (no speech synthesis).";

  const report = () => onChange({ state, index, total: queue.length, rate, error,
    sentence: state === "idle" ? "" : queue[index]?.text ?? "" });

  function highlight(item) {
    for (const old of container.querySelectorAll(".speaking")) old.classList.remove("speaking");
    if (globalThis.CSS?.highlights && globalThis.Highlight) {
      if (item) CSS.highlights.set(HIGHLIGHT, new Highlight(item.range));
      else CSS.highlights.delete(HIGHLIGHT);
    }
    if (item) {
      item.block.classList.add("speaking");
      const box = item.range.getBoundingClientRect();
      if (box.top < 60 || box.bottom > innerHeight - 20) item.block.scrollIntoView({ block: "center", behavior: "smooth" });
    }
  }

  function speakAt(position) {
    if (position < 0) position = 0;
    if (position >= queue.length) {
      stop();
      return;
    }
    index = position;
    const item = queue[index];
    const utterance = new SpeechSynthesisUtterance(item.text);
    utterance.rate = rate;
    if (lang) utterance.lang = lang;
    utterance.onend = () => {
      if (current === utterance && state === "playing") speakAt(index + 1);
    };
    utterance.onerror = (event) => {
      if (current !== utterance || ["interrupted", "canceled"].includes(event.error)) return;
      const why = event.error || "speech failed";
      stop();
      error = `This browser could not read aloud (${why}); it may have no voice installed.`;
      report();
      error = "";
    };
    current = utterance;
    highlight(item);
    synth.cancel();
    synth.speak(utterance);
    state = "playing";
    report();
  }

  function play() {
    if (!synth) return report();
    if (state === "paused") {
      state = "playing";
      synth.resume();
      // some engines drop a paused utterance: start the sentence again if nothing speaks
      setTimeout(() => { if (state === "playing" && !synth.speaking) speakAt(index); }, 250);
      return report();
    }
    if (state === "playing") return pause();
    queue = sentences(container, lang);
    error = "";
    speakAt(index < queue.length ? index : 0);
  }

  function pause() {
    if (state !== "playing") return;
    state = "paused";
    synth.pause();
    report();
  }

  function stop() {
    if (!synth) return;
    current = null;
    synth.cancel();
    state = "idle";
    index = 0;
    highlight(null);
    report();
  }

  function setRate(next) {
    if (!synth) return report();
    rate = next;
    if (state === "playing") speakAt(index); // the new speed applies from this sentence
    else report();
  }

  function step(delta) {
    if (state === "idle" || !queue.length) return;
    speakAt(Math.max(0, Math.min(queue.length - 1, index + delta)));
  }

  function faster(delta) {
    const at = RATES.indexOf(rate);
    setRate(RATES[Math.max(0, Math.min(RATES.length - 1, (at < 0 ? 1 : at) + delta))]);
  }

  addEventListener("pagehide", () => synth?.cancel());
  report();
  return { play, pause, stop, setRate, step, faster, get state() { return state; } };
}
