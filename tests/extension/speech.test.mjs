// Read aloud (extension/src/speech.js) without a page: sentence splitting and the speaker's
// state machine. The browsers' real engines are exercised in tests/e2e/test_read_aloud_e2e.py;
// node has no speech engine, so the state machine runs here against StandInSynthesis below.
import assert from "node:assert/strict";
import { test } from "node:test";

import { NO_SYNTHESIS, NO_VOICE, RATES, createSpeaker, splitSentences, textPosition } from "../../extension/src/speech.js";

const TEXT = "Tide gauges record the height of the sea. At 09:00 it was 4.62 m, e.g. near the top! "
  + "Why?  Because the Moon was full.";

test("sentences from Intl.Segmenter: trimmed, and their offsets give back their text", () => {
  const pieces = splitSentences(TEXT, "en");
  assert.deepEqual(pieces.map((p) => p.text), [
    "Tide gauges record the height of the sea.", "At 09:00 it was 4.62 m, e.g. near the top!",
    "Why?", "Because the Moon was full."]);
  for (const piece of pieces) assert.equal(TEXT.slice(piece.start, piece.end), piece.text);
});

test("the punctuation fallback keeps decimals and times inside a sentence and splits CJK stops", () => {
  const pieces = splitSentences(TEXT, "en", { useSegmenter: false });
  assert.equal(pieces[0].text, "Tide gauges record the height of the sea.");
  assert.ok(pieces[1].text.startsWith("At 09:00 it was 4.62 m,"), pieces[1].text);
  assert.equal(pieces.at(-1).text, "Because the Moon was full.");
  for (const piece of pieces) assert.equal(TEXT.slice(piece.start, piece.end), piece.text);
  assert.deepEqual(splitSentences("潮汐很高。月亮圆了！没有句号", "zh", { useSegmenter: false }).map((p) => p.text),
    ["潮汐很高。", "月亮圆了！", "没有句号"]);
  assert.deepEqual(splitSentences("  \n ", "en", { useSegmenter: false }), []);
  assert.deepEqual(splitSentences("No stop at the end", "en", { useSegmenter: false }).map((p) => p.text),
    ["No stop at the end"]);
});

test("the punctuation fallback ends a sentence at Arabic's question mark and Urdu's full stop", () => {
  assert.deepEqual(splitSentences("هل ارتفع البحر؟ نعم ارتفع. «قال الفني.» انتهى", "ar", { useSegmenter: false }).map((p) => p.text),
    ["هل ارتفع البحر؟", "نعم ارتفع.", "«قال الفني.»", "انتهى"]);
  assert.deepEqual(splitSentences("سمندر اونچا ہے۔ آج ہوا تیز ہے۔", "ur", { useSegmenter: false }).map((p) => p.text),
    ["سمندر اونچا ہے۔", "آج ہوا تیز ہے۔"]);
});

test("an unknown language tag still splits (the engine's default locale)", () => {
  assert.equal(splitSentences("One. Two.", "not a tag!").length, 2);
});

test("a text offset maps to its text node: boundaries go to the next node, the end stays in the last", () => {
  const lengths = [5, 3, 10]; // "Tide " + "<b>gau</b>" + "ges record"
  assert.deepEqual(textPosition(lengths, 0), [0, 0]);
  assert.deepEqual(textPosition(lengths, 4), [0, 4]);
  assert.deepEqual(textPosition(lengths, 5), [1, 0]);
  assert.deepEqual(textPosition(lengths, 9), [2, 1]);
  assert.deepEqual(textPosition(lengths, 18), [2, 10]);
});

/**
 * A stand-in for the Web Speech API's speechSynthesis, for this node test only (node has no
 * speech engine; the real ones run in the E2E test). It follows the specification's order: an
 * utterance is queued by speak(), fires `start` when the engine begins it and `end` when done;
 * cancel() empties the queue, the one being spoken fires `error` "interrupted" and queued ones
 * "canceled" (Chromium's events). The test drives the engine by hand: begin(), finish().
 */
class StandInSynthesis extends EventTarget {
  constructor(voices = ["English"]) {
    super();
    this.voices = voices;
    this.queue = [];
    this.spoken = [];
    this.cancels = 0;
  }

  getVoices() { return this.voices.map((name) => ({ name, lang: "en" })); }

  get speaking() { return this.queue.length > 0; }

  speak(utterance) {
    if (this.drops > 0) { // Firefox's loss of an utterance spoken right after a cancel
      this.drops -= 1;
      return;
    }
    this.queue.push(utterance);
    this.spoken.push({ text: utterance.text, rate: utterance.rate });
    this.langs = [...(this.langs ?? []), utterance.lang];
  }

  cancel() {
    this.cancels += 1;
    const [first, ...rest] = this.queue;
    this.queue = [];
    if (first) first.onerror?.({ error: first.begun ? "interrupted" : "canceled" });
    for (const utterance of rest) utterance.onerror?.({ error: "canceled" });
  }

  /** The engine starts the first queued utterance. */
  begin() {
    const utterance = this.queue[0];
    utterance.begun = true;
    utterance.onstart?.({});
    return utterance;
  }

  /** The engine finishes the utterance it speaks. */
  finish() {
    const utterance = this.queue.shift();
    utterance.onend?.({});
    return utterance;
  }

  fail(error) {
    const utterance = this.queue.shift();
    utterance.onerror?.({ error });
  }
}

class StandInUtterance {
  constructor(text) {
    this.text = text;
    this.rate = 1;
    this.lang = "";
  }
}

/** Timers fired by hand, for the speaker's watchdog. */
class HandTimers {
  constructor() { this.due = new Map(); this.next = 1; }

  setTimeout(run) { this.due.set(this.next, run); return this.next++; }

  clearTimeout(id) { this.due.delete(id); }

  fire() {
    const due = [...this.due.values()];
    this.due.clear();
    for (const run of due) run();
  }
}

const ITEMS = ["First sentence.", "Second sentence.", "Third sentence."].map((text) => ({ text }));

function speakerWith(synth, items = ITEMS, options = {}) {
  const changes = [];
  const marked = [];
  const speaker = createSpeaker({}, {
    lang: "en",
    speech: synth ? { speechSynthesis: synth, SpeechSynthesisUtterance: StandInUtterance, navigator: { language: "de-CH" } } : {},
    split: () => items,
    mark: (container, item) => marked.push(item?.text ?? null),
    onChange: (change) => changes.push(change),
    voiceWaitMs: 20,
    watchTimers: new HandTimers(),
    ...options,
  });
  return { speaker, changes, marked, last: () => changes.at(-1), timers: options.watchTimers };
}

test("idle, playing sentence by sentence, paused, playing again, idle at the end", async () => {
  const synth = new StandInSynthesis();
  const { speaker, marked, last } = speakerWith(synth);
  assert.equal(last().state, "idle");
  await speaker.play();
  assert.equal(last().state, "playing");
  assert.equal(last().sentence, "First sentence.");
  assert.deepEqual(marked, ["First sentence."]);
  synth.begin();
  assert.equal(last().started, 1);
  synth.finish();
  assert.equal(last().index, 1);
  assert.equal(synth.spoken.at(-1).text, "Second sentence.");
  assert.deepEqual(marked, ["First sentence.", "Second sentence."]);
  synth.begin();

  await speaker.play(); // the Listen button again: pause
  assert.equal(last().state, "paused");
  assert.equal(last().index, 1);
  assert.equal(synth.speaking, false); // the voice stops, and its "interrupted" moved nothing
  assert.equal(synth.spoken.length, 2);

  await speaker.play(); // resume: the paused sentence again, from its start
  assert.equal(last().state, "playing");
  assert.equal(synth.spoken.at(-1).text, "Second sentence.");
  synth.begin();
  synth.finish();
  synth.begin();
  synth.finish();
  assert.equal(last().state, "idle");
  assert.equal(last().sentence, "");
  assert.equal(marked.at(-1), null); // the highlight goes
  assert.equal(last().started, 4);
});

test("a speed change restarts the current sentence at the new rate; the old one's end is ignored", async () => {
  const synth = new StandInSynthesis();
  const { speaker, last } = speakerWith(synth);
  await speaker.play();
  synth.begin();
  speaker.setRate(2);
  assert.equal(last().rate, 2);
  assert.equal(last().index, 0);
  assert.deepEqual(synth.spoken.at(-1), { text: "First sentence.", rate: 2 });
  speaker.faster(-1);
  assert.equal(last().rate, RATES[RATES.indexOf(2) - 1]);
  synth.finish(); // the restarted one ends: on to the second, at the new rate
  assert.deepEqual(synth.spoken.at(-1), { text: "Second sentence.", rate: 1.75 });
  speaker.faster(10);
  assert.equal(last().rate, RATES.at(-1));
  speaker.setRate(Number.NaN); // a broken value from the select: ignored
  assert.equal(last().rate, RATES.at(-1));
});

test("while paused a speed change waits for resume and the sentence keys move the place", async () => {
  const synth = new StandInSynthesis();
  const { speaker, marked, last } = speakerWith(synth);
  await speaker.play();
  speaker.pause();
  const spoken = synth.spoken.length;
  speaker.setRate(1.5);
  speaker.step(1);
  assert.equal(synth.spoken.length, spoken); // nothing spoken while paused
  assert.equal(last().state, "paused");
  assert.equal(marked.at(-1), "Second sentence.");
  await speaker.play();
  assert.deepEqual(synth.spoken.at(-1), { text: "Second sentence.", rate: 1.5 });
  speaker.step(-5);
  assert.equal(synth.spoken.at(-1).text, "First sentence.");
  speaker.stop();
  assert.equal(last().state, "idle");
  assert.equal(last().index, 0);
});

test("an engine error ends in a clear idle state with the reason; without voices it names that", async () => {
  const synth = new StandInSynthesis();
  const { speaker, last, changes } = speakerWith(synth);
  await speaker.play();
  synth.fail("audio-busy");
  const failed = changes.find((change) => change.error);
  assert.equal(failed.state, "idle");
  assert.match(failed.error, /could not read aloud \(audio-busy\)/);
  await speaker.play(); // and it can start again
  assert.equal(last().state, "playing");
  assert.equal(last().error, ""); // said once, not on every later change
  synth.voices = [];
  synth.fail("synthesis-failed");
  assert.equal(changes.findLast((change) => change.error).error, NO_VOICE);
});

test("no voice at all: Listen says so and stays idle; voices that arrive late are used", async () => {
  const silent = new StandInSynthesis([]);
  const { speaker, last, changes } = speakerWith(silent);
  await speaker.play();
  assert.equal(silent.spoken.length, 0);
  assert.equal(last().state, "idle");
  assert.equal(changes.findLast((change) => change.error).error, NO_VOICE);
  assert.match(NO_VOICE, /^No voice is installed for speech; /);

  const late = new StandInSynthesis([]);
  const { speaker: second, last: lastOfSecond } = speakerWith(late, ITEMS, { voiceWaitMs: 5000 });
  const playing = second.play();
  late.voices = ["English"];
  late.dispatchEvent(new Event("voiceschanged"));
  await playing;
  assert.equal(lastOfSecond().state, "playing");
});

test("no text to read and no speech synthesis are said, not silent", async () => {
  const synth = new StandInSynthesis();
  const { speaker, changes } = speakerWith(synth, []);
  await speaker.play();
  assert.match(changes.findLast((change) => change.error).error, /no text to read aloud/);
  const { speaker: none, last } = speakerWith(null);
  assert.equal(last().state, "unavailable");
  assert.equal(last().error, NO_SYNTHESIS);
  await none.play();
  none.setRate(2);
  none.step(1);
  assert.equal(last().state, "unavailable");
});

test("utterances carry the article's language, else the browser's (never the engine's default voice)", async () => {
  const synth = new StandInSynthesis();
  const { speaker } = speakerWith(synth);
  await speaker.play();
  assert.equal(synth.langs.at(-1), "en");
  const unlabelled = new StandInSynthesis();
  const { speaker: second } = speakerWith(unlabelled, ITEMS, { lang: "" });
  await second.play();
  assert.equal(unlabelled.langs.at(-1), "de-CH");
});

test("a sentence in another language than the article's (a quoted line) is spoken in its own", async () => {
  const synth = new StandInSynthesis();
  const items = [{ text: "The sign reads:" }, { text: "הים עלה עד המדרגה השלישית.", lang: "he" }, { text: "It held." }];
  const { speaker } = speakerWith(synth, items);
  await speaker.play();
  synth.finish();
  synth.finish();
  assert.deepEqual(synth.langs.slice(-3), ["en", "he", "en"]);
});

test("an utterance the engine drops without a word is spoken again, and after three a reason is given", async () => {
  const synth = new StandInSynthesis();
  const timers = new HandTimers();
  const { speaker, last, changes } = speakerWith(synth, ITEMS, { watchTimers: timers });
  await speaker.play();
  timers.fire(); // queued, not started yet: an engine may be slow, nothing is spoken again
  assert.equal(synth.spoken.length, 1);
  synth.begin();
  timers.fire(); // started: the watch ends
  assert.equal(timers.due.size, 0);
  synth.drops = 1;
  synth.finish(); // the next sentence is lost on its way
  assert.equal(synth.speaking, false);
  timers.fire();
  assert.equal(synth.queue[0].text, "Second sentence.");
  assert.equal(last().state, "playing");
  synth.drops = 3;
  speaker.step(1);
  timers.fire();
  timers.fire();
  timers.fire();
  assert.equal(last().state, "idle");
  assert.match(changes.findLast((change) => change.error).error, /did not start speaking/);
  speaker.pause(); // paused or stopped: no watch left behind
  assert.equal(timers.due.size, 0);
});
