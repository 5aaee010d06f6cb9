// The reader's notice about frames it could not read names only frames that could hold text.
import assert from "node:assert/strict";
import { test } from "node:test";

import { framesOf, mayHoldText, textFramesOnly } from "../../extension/src/readerframes.js";

const PAGE = "https://news.example/books/story.html";
const HTML = `<html><body>
  <iframe id="header" frameborder="0" scrolling="no" height="165" src="https://tv.example/home/navonly?link_target=_top&amp;r=1" width="100%"></iframe>
  <iframe src="http://ads.news.example/html.ng/spacedesc=banner&amp;site=Books" width="728" height="90"></iframe>
  <iframe src="http://ads.news.example/html.ng/spacedesc=mpu&amp;site=Books" width="300" height="250"></iframe>
  <iframe src="https://www.facebook.com/plugins/like.php?href=x&amp;layout=box_count" style="border:none; overflow:hidden; width:85px; height:60px;"></iframe>
  <iframe src='/letters/1912.html' width="700" height="900" title="The letter"></iframe>
</body></html>`;

test("frames are found in the snapshot's markup by their resolved address", () => {
  const frames = framesOf(HTML, PAGE);
  assert.equal(frames.get("https://news.example/letters/1912.html").title, "The letter");
  assert.equal(frames.get("https://tv.example/home/navonly?link_target=_top&r=1").height, "165");
});

test("ads, social buttons and navigation strips are not frames that hold text", () => {
  const frames = framesOf(HTML, PAGE);
  for (const url of ["https://tv.example/home/navonly?link_target=_top&r=1",
    "http://ads.news.example/html.ng/spacedesc=banner&site=Books",
    "http://ads.news.example/html.ng/spacedesc=mpu&site=Books",
    "https://www.facebook.com/plugins/like.php?href=x&layout=box_count"]) {
    assert.equal(mayHoldText(url, frames.get(url)), false, url);
  }
  assert.equal(mayHoldText("https://news.example/letters/1912.html", frames.get("https://news.example/letters/1912.html")), true);
  // a frame whose size and names are unknown is named, unless its address says what it is
  assert.equal(mayHoldText("https://docs.example/d/1", undefined), true);
  assert.equal(mayHoldText("https://securepubads.g.doubleclick.net/x", undefined), false);
  // a site called "ad" is a site, not an ad server
  assert.equal(mayHoldText("https://ad.nl/nieuws/1", undefined), true);
});

test("the notice counts and names only the frames that could hold text", () => {
  const urls = ["http://ads.news.example/html.ng/spacedesc=banner&site=Books",
    "https://news.example/letters/1912.html",
    "https://www.facebook.com/plugins/like.php?href=x&layout=box_count"];
  const said = textFramesOnly({ frames: 4, frameUrls: urls, shadowRoots: 1 }, HTML, PAGE);
  assert.deepEqual(said, { frames: 2, frameUrls: ["https://news.example/letters/1912.html"], shadowRoots: 1 });
  const none = textFramesOnly({ frames: 1, frameUrls: [urls[0]], shadowRoots: 0 }, HTML, PAGE);
  assert.equal(none.frames, 0);
  assert.equal(textFramesOnly(null, HTML, PAGE), null);
});
