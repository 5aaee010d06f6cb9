// The page agent: run by the background with scripting.executeScript only after the
// user acts (popup, keyboard command or a site rule they set). It runs in the extension's
// isolated world, so page scripts can neither see nor call it. It
//  * snapshots the live DOM without disturbing it: ids are stamped on a clone, and the map
//    from id back to live element stays here;
//  * marks the live elements of link blocks so that CSS injected by the background hides
//    them (no node is removed, so the page keeps working and the toggle restores it);
//  * draws the block overlay and visible messages in a shadow root;
//  * exposes its status on <html data-blocksift-status> for people's tools and tests.
// The background runs `agentCall` with scripting.executeScript({func}): the function is
// serialized, so everything it needs is inside it. The first call in a document installs
// the agent; every call is one round trip. The answer is {ok, value} or {ok: false, error}:
// Chromium reports a throw inside executeScript as no result at all.
export function agentCall(method, args) {
  const failed = (err) => ({ ok: false, error: String(err?.message ?? err) });
  try {
    // A page's own scripts can remove its document element (document.open() left empty)
    if (!document.documentElement) return failed("the page's own scripts emptied it: there is no document left to read");
    if (!globalThis.__blocksiftAgent) installAgent();
    const value = globalThis.__blocksiftAgent[method](...args);
    if (typeof value?.then === "function") return value.then((settled) => ({ ok: true, value: settled }), failed);
    return { ok: true, value };
  } catch (err) {
    return failed(err);
  }

  function installAgent() {
    const ID_ATTR = "data-bsid";
    // Set on the outermost elements the live page does not draw (see drawnState()).
    const HIDDEN_ATTR = "data-bshidden";
    const HIDE_ATTR = "data-blocksift-hide";
    const UNLOCK_ATTR = "data-blocksift-unlock";
    const UNPAD_ATTR = "data-blocksift-unpad";
    const UI_TAG = "blocksift-ui";
    const LAZY_SRC_ATTRS = ["data-src", "data-lazy-src", "data-original", "data-url", "data-srcset"];
    // Long enough to read two lines; an error stays until dismissed (it may hold a command).
    const INFO_TOAST_MS = 6000;

    /** id -> live element, from the last snapshot. */
    let liveById = [];
    /** What the last snapshot could not read: frames of other sites, closed shadow roots. */
    let unreadable = { frames: 0 };
    let hiddenElements = [];
    /** Empty spacers that kept the room for a fixed bar hidden with them (roomKeepers). */
    let roomKeepers = [];
    let overlayBlocks = null;
    /** How many of the blocks last drawn are in the page but show nothing (drawOverlay). */
    let overlayUnseen = 0;
    let uiHost = null;
    let uiRoot = null;
    let uiLayer = null;
    let uiFixed = null;
    /** The boxes that scroll with the document (in uiLayer), clipped where the page's own bars
     * fixed or sticky to the window lie over it (coverClip). */
    let uiDoc = null;
    /** The page's bars over what scrolls under them: {element, hole(sx, sy), breaks} each
     * (findCovers); the clip's animation on the window's scroll timeline (Chromium). */
    let covers = [];
    /** What is clipped under the page's bars: the overlay's uiDoc and the labeler's layer of
     * outlines (underBars), each with its clip's animation. */
    const coverLayers = new Map();
    /** The page's scroll area in document coordinates, without our layer, and the layer's
     * origin: {left, top, right, bottom, originX, originY} (measureScrollArea). */
    let scrollArea = null;
    /** Boxes drawn, with what places them: {box, pane, elements, fixed, scrollers, stuck,
     * sticky, pinned, following} (drawOverlay). */
    let overlayBoxes = [];
    /** The legend, and the labels it keeps off (document coordinates). */
    let legendPlace = null;
    /** Whether the next Tab, with nothing focused, goes to the legend (the overlay was just
     * drawn). */
    let tabToLegend = false;
    /** Notices a change of the page's size, which changes its scroll area. */
    let pageResized = null;
    /** Layers laid over the document around the window (placeUi): the overlay's, and the
     * labeler's (labeler.js, through followDocument). {host, layer, fixed} each. */
    const docLayers = new Set();
    let seq = 0;

    function absolute(url) {
      try {
        return new URL(url, document.baseURI).href;
      } catch {
        return url;
      }
    }

    /** The real source of a lazy or responsive image: what it shows, else where a lazy
     * loader keeps it (data-src, data-srcset, a <picture>'s <source srcset>). */
    function imageSource(original) {
      const src = original.currentSrc || original.getAttribute("src") || "";
      if (src && !src.startsWith("data:")) return src;
      const lazy = LAZY_SRC_ATTRS.map((a) => original.getAttribute(a)).find(Boolean);
      if (lazy) return lazy.split(",")[0].trim().split(/\s+/)[0];
      const sources = original.parentElement?.localName === "picture"
        ? [...original.parentElement.querySelectorAll("source")] : [];
      for (const source of [original, ...sources]) {
        const set = source.getAttribute("srcset") || source.getAttribute("data-srcset") || "";
        const first = set.split(",")[0].trim().split(/\s+/)[0];
        if (first && !first.startsWith("data:")) return first;
      }
      return src;
    }

    /**
     * With scripts on, a <noscript> holds its markup as raw text, which serializes as it came:
     * a tag manager's <noscript> inside another then leaves the host's parser inside one to the
     * end of the page. Its markup is parsed here as a page without scripts would (the host
     * reads lazy images' fallbacks from it), and a <noscript> nested in it, never shown, goes.
     */
    function parseNoscript(element) {
      const markup = element.textContent;
      if (!markup.includes("<")) return;
      const parsed = new DOMParser().parseFromString(markup, "text/html");
      for (const nested of parsed.querySelectorAll("noscript")) nested.remove();
      element.replaceChildren(...parsed.head.childNodes, ...parsed.body.childNodes);
    }

    // Script types whose bodies are data, not code: kept in the snapshot (see snapshot()).
    const KEPT_SCRIPT_TYPE = /^\s*(?:math\/|application\/ld\+json\s*(?:;|$))/i;

    // Tags the host reads as inline (it never sees CSS: anything but its block tags runs on
    // into the text beside it) that pages often lay out as boxes of their own. Custom
    // elements (a "-" in the name) are inline by default too.
    const INLINE_TAGS = new Set(["a", "abbr", "acronym", "b", "bdi", "bdo", "big", "cite", "code",
      "data", "del", "dfn", "em", "font", "i", "ins", "kbd", "label", "mark", "nobr", "output", "q",
      "s", "samp", "small", "span", "strike", "strong", "sub", "sup", "time", "tt", "u", "var"]);
    // Tags laid out in the line (display: inline) that the snapshot still sets apart where the
    // page keeps them apart by a gap of their own (apartSides): an older menu's links, each
    // with a margin and no white space between them, read "Home" "News", not "HomeNews".
    // Other inline tags keep a padding for a background in the line (inline code, a <mark>,
    // a <kbd>), often inside a word ("<code>Promise</code>s"), and are left as written.
    const INLINE_GAP_TAGS = new Set(["a"]);
    // Punctuation that clings to the word before it (a full stop, a closing bracket or quote)
    // and to the word after it (an opening bracket or quote).
    const CLINGS_BACK = /[\p{Pe}\p{Pf}\p{Po}]/u;
    const CLINGS_ON = /[\p{Ps}\p{Pi}]/u;
    const NO_TEXT_TAGS = new Set(["script", "style", "template", "noscript", "svg", "math"]);

    // Tags of what is never drawn as the page's text, or read otherwise (a <noscript>'s
    // markup): neither they nor anything in them is marked HIDDEN_ATTR.
    const UNMARKED_TAGS = new Set(["head", "title", "meta", "link", "base", "script", "style",
      "template", "noscript", "noembed", "noframes", "svg", "math", "select", "datalist", "area",
      "param", "rp"]);
    const DRAWN = 0, HIDDEN = 1, INSIDE = 2;

    /**
     * Whether the live page draws an element, for the snapshot's HIDDEN_ATTR: HIDDEN when it
     * computes `display: none` (a layout's copy for another screen width, hidden by a media
     * query; a closed tab), INSIDE when it lies in one (`notDrawn` holds its parent: the host
     * reads only the outermost mark, so nothing inside is asked about) or is of
     * UNMARKED_TAGS, else DRAWN. `checkVisibility` is asked first (no style object made), the
     * computed display only where it finds no box (`display: contents` has none, and draws).
     */
    function drawnState(original, tag, notDrawn) {
      const parent = original.parentElement;
      if ((parent && notDrawn.has(parent)) || UNMARKED_TAGS.has(tag)) return INSIDE;
      if (!original.checkVisibility || original.checkVisibility()) return DRAWN;
      const style = original.ownerDocument.defaultView?.getComputedStyle(original);
      return style?.display === "none" ? HIDDEN : DRAWN;
    }

    /**
     * The computed display of an element of an inline tag that may stand apart on the page
     * (see apartSides), else null: asked of these tags only (a page has thousands of
     * elements; one not shown or only its children is done, and so is a span or other tag
     * laid out inline: it reads as the page's markup reads, see INLINE_GAP_TAGS). Only the
     * display is kept: the rest is read where a space is missing beside the element.
     */
    function boxDisplay(original, tag) {
      if (!INLINE_TAGS.has(tag) && !tag.includes("-")) return null;
      const style = original.ownerDocument.defaultView?.getComputedStyle(original);
      const display = style?.display;
      if (!display || display === "none" || display === "contents") return null;
      if (display === "inline") return INLINE_GAP_TAGS.has(tag) ? display : null;
      if (/^(?:inline|ruby|math)|-inline-/.test(display) && !display.startsWith("inline-")) return null;
      return display;
    }

    /**
     * The sides ([before, after], in the text's order) on which an element of an inline tag
     * (its computed display from boxDisplay) stands apart from the text beside it on the live
     * page, so that the snapshot gives it white space there. Both when it is a box of its own
     * (display block, flex, grid, list-item, table parts; a flex or grid item, floated or
     * positioned out of the line: its computed display is then blockified), whose text is
     * never one word with the text beside it. In the line (inline, inline-block,
     * inline-flex ...) only a side with a gap of margin, border and padding of at least
     * 0.2 em (its inline start or end: the right side of a right-to-left link comes first):
     * a link of an older menu kept from the next by its margin ("Home" "News"), a badge's
     * padding, while "water<span>front</span>" stays one word. Neither when it is an empty
     * icon out of the line (the text on both sides of it reads as one word), or when it keeps
     * its white space as written (pre, a code view, where a space would show). Asked only
     * where a space is missing beside it: these reads cost more than the display.
     */
    function apartSides(original, display) {
      const style = original.ownerDocument.defaultView.getComputedStyle(original);
      const collapse = style.whiteSpaceCollapse || style.whiteSpace || "";
      if (/^(?:pre|preserve|break-spaces)/.test(collapse) || original.closest("pre, textarea")) return [false, false];
      if (display === "inline" || display.startsWith("inline-")) {
        const px = (name) => parseFloat(style[name]) || 0;
        const least = 0.2 * (px("fontSize") || 16);
        const gap = (side) => px(`margin${side}`) + px(`border${side}Width`) + px(`padding${side}`);
        return [gap("InlineStart") >= least, gap("InlineEnd") >= least];
      }
      const out = !hasText(original)
        && (style.float !== "none" || style.position === "absolute" || style.position === "fixed");
      return [!out, !out];
    }

    /** Whether an element holds text (a look at its first few nodes: a large one is taken to). */
    function hasText(element) {
      const walker = element.ownerDocument.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let budget = 32; walker.nextNode(); budget -= 1) {
        if (budget <= 0 || walker.currentNode.data.trim()) return true;
      }
      return false;
    }

    /** The character next to a node in the text (the side: "before" or "after"), through
     * its siblings and up through the inline elements that hold it: "" when there is none
     * before a block edge, " " when too much would have to be read to find it. */
    function neighbourChar(node, side) {
      const sibling = side === "before" ? "previousSibling" : "nextSibling";
      const inward = side === "before" ? "lastChild" : "firstChild";
      let budget = 64;
      for (let at = node; at;) {
        for (let next = at[sibling]; next; next = next[sibling]) {
          // the first character met going into `next` from that side (depth first; a walk
          // without arrays: a page's links each ask it twice)
          for (let current = next; current;) {
            if ((budget -= 1) < 0) return " ";
            if (current.nodeType === 3) {
              if (current.data) return side === "before" ? current.data.slice(-1) : current.data[0];
            } else if (current.nodeType === 1 && !NO_TEXT_TAGS.has(current.localName)) {
              if (current.localName === "br") return "\n";
              if (current[inward]) {
                current = current[inward];
                continue;
              }
            }
            while (current !== next && !current[sibling]) current = current.parentNode;
            current = current === next ? null : current[sibling];
          }
        }
        at = at.parentNode;
        if (!at || at.nodeType !== 1 || !(INLINE_TAGS.has(at.localName) || at.localName.includes("-"))) return "";
      }
      return "";
    }

    /** White space around the snapshot's copies of the elements that stand apart on the page
     * (see apartSides) where the text beside them has none: the host, which sees no CSS,
     * then reads "Software" and "to replace" in a flex row as two words, not "Softwareto".
     * [copy, live element, its computed display] each. */
    function spaceApart(candidates) {
      for (const [element, original, display] of candidates) {
        const charBefore = neighbourChar(element, "before");
        const charAfter = neighbourChar(element, "after");
        // Beside a link in the line, none where punctuation clings to the link: its gap may
        // hold an icon ("a site[icon]."), and a space there parts no words.
        const inLine = display === "inline";
        const before = /\S/.test(charBefore) && !(inLine && CLINGS_ON.test(charBefore));
        const after = /\S/.test(charAfter) && !(inLine && CLINGS_BACK.test(charAfter));
        if (!(before || after)) continue;
        const [start, end] = apartSides(original, display);
        if (before && start) element.before(" ");
        if (after && end) element.after(" ");
      }
    }

    /**
     * Serialize the live DOM (after the page's scripts ran) with an id on every element.
     * The ids go on a deep clone, matched to live elements by document order, so the page
     * itself is not touched. On the clone: lazy images get their real source, links and
     * images become absolute, inline script bodies are dropped (never needed, often large,
     * and they may hold tokens) except data the host reads as it reads a fetched page's:
     * JSON-LD (the page's type, byline and dates) and MathJax 2's formula sources. Open
     * shadow roots and same-origin frames are flattened into the clone (their ids follow the
     * document's); frames of other sites cannot be read and are counted, so the reader can
     * say what it could not see.
     */
    function snapshot() {
      const started = performance.now();
      const root = document.documentElement;
      const clone = root.cloneNode(true);
      const map = [root];
      // The root itself is id 0; descendants follow in document order.
      clone.setAttribute(ID_ATTR, "0");
      const ui = [];
      const unreachable = { frames: 0, frameUrls: [], shadowRoots: 0 };
      const reached = { shadowRoots: 0, closedShadowRoots: 0, frames: 0 };
      /** Inline-tag elements the live page may set apart from the text beside them (spaceApart). */
      const apart = [];
      /** Live elements not drawn, or whose inside is not looked at (drawnState()). */
      const notDrawn = new Set();

      function stamp(liveElements, copyElements) {
        const count = Math.min(liveElements.length, copyElements.length);
        const nested = [];
        for (let i = 0; i < count; i += 1) {
          const element = copyElements[i];
          const original = liveElements[i];
          const id = map.length;
          element.setAttribute(ID_ATTR, String(id));
          map.push(original);
          const tag = element.localName;
          const drawn = drawnState(original, tag, notDrawn);
          if (drawn !== DRAWN) notDrawn.add(original);
          if (drawn === HIDDEN) element.setAttribute(HIDDEN_ATTR, "");
          const display = tag === UI_TAG ? null : boxDisplay(original, tag);
          if (display) apart.push([element, original, display]);
          if (tag === UI_TAG) {
            ui.push(element);
            continue;
          } else if (tag === "img") {
            const chosen = imageSource(original);
            if (chosen) element.setAttribute("src", absolute(chosen));
            element.removeAttribute("srcset");
          } else if (tag === "a" && original.hasAttribute("href")) {
            element.setAttribute("href", original.href);
          } else if (tag === "script" && !original.src && !KEPT_SCRIPT_TYPE.test(original.type || "")) {
            element.textContent = "";
          }
          const shadow = shadowOf(original);
          if (shadow) nested.push([element, original, "shadow", shadow]);
          else if (tag === "iframe" || tag === "frame") nested.push([element, original, "frame"]);
        }
        // After the whole list: flattening adds elements the live list does not have.
        for (const [element, original, kind, shadow] of nested) {
          if (kind === "shadow") flattenShadow(element, shadow);
          else flattenFrame(element, original);
        }
      }

      /** An element's shadow root: open ones from the DOM; closed ones (custom elements only,
       * where they are used) through the extension-only APIs, else counted as unreachable
       * when the element shows something that is not in its light DOM. */
      function shadowOf(original) {
        if (original.shadowRoot) return original.shadowRoot;
        if (!original.localName.includes("-")) return null;
        let closed = null;
        try {
          if (globalThis.chrome?.dom?.openOrClosedShadowRoot) closed = chrome.dom.openOrClosedShadowRoot(original);
          else if ("openOrClosedShadowRoot" in original) closed = original.openOrClosedShadowRoot;
          else if (!original.childElementCount && !original.textContent.trim()) {
            const rect = original.getBoundingClientRect();
            if (rect.width >= 50 && rect.height >= 50) unreachable.shadowRoots += 1;
          }
        } catch {
          closed = null;
        }
        if (closed) reached.closedShadowRoots += 1;
        return closed || null;
      }

      function flattenShadow(host, shadowRoot) {
        reached.shadowRoots += 1;
        const holder = document.createElement("div");
        const live = [];
        for (const child of shadowRoot.childNodes) {
          if (child.nodeType === 1 && ["style", "link"].includes(child.localName)) continue;
          holder.append(child.cloneNode(true));
          if (child.nodeType === 1) live.push(child, ...child.getElementsByTagName("*"));
        }
        stamp(live, holder.getElementsByTagName("*"));
        // The shadow tree renders in place of the host's light children; slots show them.
        for (const slot of [...holder.querySelectorAll("slot")]) {
          const name = slot.getAttribute("name");
          const assigned = [...host.children].filter((child) => (child.getAttribute("slot") || "") === (name || ""));
          if (assigned.length) slot.replaceWith(...assigned);
        }
        host.prepend(...holder.childNodes);
      }

      function flattenFrame(element, original) {
        let frameDocument = null;
        try {
          frameDocument = original.contentDocument;
        } catch {
          frameDocument = null;
        }
        const src = original.getAttribute("src") || "";
        if (!frameDocument || !frameDocument.body) {
          const rect = original.getBoundingClientRect();
          // tracking pixels and empty frames are not content anyone misses
          if (src && !src.startsWith("about:") && rect.width >= 50 && rect.height >= 50) {
            unreachable.frames += 1;
            if (unreachable.frameUrls.length < 5) unreachable.frameUrls.push(absolute(src));
          }
          return;
        }
        reached.frames += 1;
        const body = frameDocument.body;
        const holder = document.createElement("div");
        holder.setAttribute("data-blocksift-frame", src ? absolute(src) : "");
        for (const child of body.childNodes) holder.append(child.cloneNode(true));
        stamp([...body.getElementsByTagName("*")], holder.getElementsByTagName("*"));
        element.replaceWith(holder);
      }

      stamp(root.getElementsByTagName("*"), clone.getElementsByTagName("*"));
      // Once every shadow root and frame is in place, so their text counts as a neighbour.
      spaceApart(apart);
      readableMath(clone, (element) => map[Number(element.getAttribute(ID_ATTR))]);
      // Our own UI (overlay, messages) is never part of the page sent to the host.
      for (const element of ui) element.remove();
      for (const element of clone.querySelectorAll("noscript")) parseNoscript(element);
      clone.removeAttribute("data-blocksift-status");
      for (const name of [...clone.getAttributeNames()]) {
        if (name.startsWith("data-blocksift-")) clone.removeAttribute(name);
      }
      const doctype = document.doctype ? `<!DOCTYPE ${document.doctype.name}>` : "";
      const html = doctype + clone.outerHTML;
      liveById = map;
      unreadable = unreachable;
      return {
        html,
        url: location.href,
        title: document.title,
        lang: root.lang || "",
        elements: map.length,
        unreachable,
        reached,
        ms: performance.now() - started,
      };
    }

    /**
     * One readable form of each formula in the snapshot (after the ids are stamped, so
     * the live map is intact). MathJax 2: its rendered spans become the MathML they carry
     * for assistive tools (the TeX script is then dropped), else they go and the TeX
     * script stays (the host shows it as TeX code); a math/mml script becomes its MathML.
     * KaTeX rendered without MathML: its visual spans become plain text with sup/sub and
     * fractions as a/b, read from the live layout.
     */
    function readableMath(clone, liveOf) {
      const rendered = ".MathJax, .MathJax_Display, .MathJax_CHTML, .MathJax_SVG, .MathJax_SVG_Display, .MathJax_PHTML";
      for (const element of [...clone.querySelectorAll(rendered)]) {
        if (!clone.contains(element)) continue;
        let script = element.nextElementSibling;
        if (script?.localName === "span" && script.classList.contains("MathJax")) script = script.nextElementSibling;
        const math = element.querySelector("math");
        if (math && script?.localName === "script" && (script.type || "").startsWith("math/")) {
          if (element.classList.contains("MathJax_Display") || element.classList.contains("MathJax_SVG_Display")) {
            math.setAttribute("display", "block");
          }
          element.replaceWith(math);
          script.remove();
        } else if (script?.localName === "script" && (script.type || "").startsWith("math/")) {
          element.remove();
        }
      }
      for (const script of [...clone.querySelectorAll("script[type^='math/mml']")]) {
        const parsed = new DOMParser().parseFromString(script.textContent, "text/html").querySelector("math");
        if (parsed) script.replaceWith(document.importNode(parsed, true));
      }
      for (const katex of [...clone.querySelectorAll(".katex")]) {
        const visual = katex.querySelector(".katex-html");
        if (!visual || katex.querySelector(".katex-mathml math")) continue;
        const live = liveOf(visual);
        const text = document.createElement("span");
        text.className = "blocksift-math-text";
        text.append(...(live ? katexText(live) : [visual.textContent]));
        visual.replaceWith(text);
      }
    }

    function katexText(node) {
      if (node.nodeType === Node.TEXT_NODE) return [node.data.replace(/\u200b/g, "")];
      if (node.nodeType !== Node.ELEMENT_NODE || node.getAttribute("aria-hidden") === "true" && node.localName === "svg") return [];
      const classes = node.classList;
      const rows = () => [...node.querySelectorAll(":scope > .vlist-t > .vlist-r > .vlist > span")]
        .filter((row) => row.textContent.trim());
      const flat = (element) => katexText(element).map((part) => (typeof part === "string" ? part : part.textContent)).join("");
      const grouped = (text) => (text.length > 1 ? `(${text})` : text);
      if (classes.contains("msupsub")) {
        const nucleus = node.previousElementSibling?.getBoundingClientRect();
        const middle = nucleus && nucleus.height ? nucleus.top + nucleus.height / 2 : null;
        return rows().map((row) => {
          const box = (row.lastElementChild ?? row).getBoundingClientRect();  // not the strut
          const up = middle === null ? true : box.top + box.height / 2 < middle;
          const out = document.createElement(up ? "sup" : "sub");
          out.textContent = flat(row);
          return out;
        });
      }
      if (classes.contains("mfrac")) {
        const top = (row) => (row.lastElementChild ?? row).getBoundingClientRect().top;
        const parts = rows().sort((a, b) => top(a) - top(b));
        if (parts.length === 2) return [`${grouped(flat(parts[0]))}/${grouped(flat(parts[1]))}`];
      }
      if (classes.contains("sqrt")) return [`√${grouped(rows().map(flat).join(""))}`];
      return [...node.childNodes].flatMap(katexText);
    }

    function elementsFor(ids) {
      const out = [];
      for (const id of ids) {
        const element = liveById[Number(id)];
        if (element && element.isConnected) out.push(element);
      }
      return out;
    }

    /** Mark the elements of the link blocks; the background's CSS hides what is marked. */
    function markHidden(ids) {
      unmarkHidden();
      hiddenElements = elementsFor(ids).filter((element) => element !== document.documentElement
        && element !== document.body);
      const unlock = scrollLock(hiddenElements);
      const unpad = reservedRoom(hiddenElements);
      roomKeepers = spacersFor(hiddenElements);
      for (const element of [...hiddenElements, ...roomKeepers]) element.setAttribute(HIDE_ATTR, "");
      if (unlock) document.documentElement.setAttribute(UNLOCK_ATTR, unlock);
      if (unpad) document.documentElement.setAttribute(UNPAD_ATTR, unpad);
      return hiddenElements.length;
    }

    function unmarkHidden() {
      for (const element of [...hiddenElements, ...roomKeepers]) element.removeAttribute(HIDE_ATTR);
      roomKeepers = [];
      document.documentElement.removeAttribute(UNLOCK_ATTR);
      document.documentElement.removeAttribute(UNPAD_ATTR);
      const count = hiddenElements.length;
      hiddenElements = [];
      return count;
    }

    /**
     * How the page is locked against scrolling ("fixed": its body is pinned, "overflow": html
     * or body clip it), when one of the elements about to be hidden is what locked it: a
     * window-filling fixed layer, as a consent dialog and its backdrop are (the element, or
     * one of its first few levels). "" otherwise: a page that never scrolls (an app whose
     * panes scroll) stays as it is.
     */
    function scrollLock(elements) {
      const html = getComputedStyle(document.documentElement);
      const body = document.body ? getComputedStyle(document.body) : null;
      const clipped = (style) => style && ["hidden", "clip"].includes(style.overflowY);
      const lock = body?.position === "fixed" ? "fixed"
        : clipped(html) || clipped(body) ? "overflow" : "";
      if (!lock) return "";
      const windowArea = innerWidth * innerHeight;
      const covers = (element, depth) => {
        const style = getComputedStyle(element);
        if (style.position === "fixed" && style.display !== "none" && style.visibility !== "hidden") {
          const r = element.getBoundingClientRect();
          const w = Math.min(r.right, innerWidth) - Math.max(r.left, 0);
          const h = Math.min(r.bottom, innerHeight) - Math.max(r.top, 0);
          if (w > 0 && h > 0 && w * h >= 0.4 * windowArea) return true;
        }
        return depth < 3 && [...element.children].some((child) => covers(child, depth + 1));
      };
      return elements.some((element) => covers(element, 0)) ? lock : "";
    }

    /**
     * The room <html> or <body> keeps at the window's top or bottom edge for a bar fixed
     * there that is about to be hidden (the element, or one of its first few levels): a
     * cookie banner whose script pads the body's bottom by its height, so that the page's
     * end can scroll above it (Amazon's), or a fixed header the page's style sheet makes room
     * for. Hidden, the bar leaves that room as an empty band. As tokens ("body-bottom",
     * "html-top", ...) for UNPAD_ATTR, whose user style sheet sets that padding to 0. A
     * padding the page's script set (inline) counts when it is half to one and a half times
     * the bar's height (it was measured in another window); one from a style sheet only
     * when it is the bar's height (to 2 px): other padding is the page's own spacing.
     */
    function reservedRoom(elements) {
      const root = document.documentElement;
      const bars = fixedBars(elements);
      if (!bars.length) return "";
      const tokens = [];
      for (const [name, element] of [["html", root], ["body", document.body]]) {
        if (!element) continue;
        const style = getComputedStyle(element);
        for (const edge of ["top", "bottom"]) {
          const property = edge === "top" ? "paddingTop" : "paddingBottom";
          const room = parseFloat(style[property]) || 0;
          if (room < 20) continue;
          const inline = element.style[property] !== "";
          const reserved = (bar) => bar.edge === edge && (inline
            ? room >= 0.5 * bar.height && room <= 1.5 * bar.height
            : Math.abs(room - bar.height) <= 2);
          if (bars.some(reserved)) tokens.push(`${name}-${edge}`);
        }
      }
      return tokens.join(" ");
    }

    /** Bars fixed to the window's top or bottom edge among the elements (the element, or one
     * of its first few levels): {edge, height, element}. */
    function fixedBars(elements) {
      const root = document.documentElement;
      const bars = [];
      // a bar of no height of its own whose content overflows it (Material UI's app bar, on
      // wcxb-dev 0577) is as tall as what it shows
      const extent = (element) => {
        const r = element.getBoundingClientRect();
        if (r.height >= 20) return r;
        const shown = [...element.children].map((child) => child.getBoundingClientRect())
          .filter((c) => c.width >= 1 && c.height >= 1);
        if (!shown.length) return r;
        const top = Math.min(r.top, ...shown.map((c) => c.top));
        const bottom = Math.max(r.bottom, ...shown.map((c) => c.bottom));
        const left = Math.min(r.left, ...shown.map((c) => c.left));
        const right = Math.max(r.right, ...shown.map((c) => c.right));
        return { top, bottom, left, right, width: right - left, height: bottom - top };
      };
      const collect = (element, depth) => {
        const style = getComputedStyle(element);
        if (style.display === "none") return;
        if (style.position === "fixed") {
          const r = extent(element);
          const top = r.top <= 2, bottom = r.bottom >= root.clientHeight - 2;
          // a layer over the whole window (a dialog's backdrop) is no bar at an edge
          if (style.visibility !== "hidden" && r.height >= 20 && r.width >= 0.5 * root.clientWidth
              && r.height <= 0.75 * root.clientHeight && top !== bottom) {
            bars.push({ edge: top ? "top" : "bottom", height: r.height, element });
          }
          return;
        }
        if (depth < 3) for (const child of element.children) collect(child, depth + 1);
      };
      for (const element of elements) collect(element, 0);
      return bars;
    }

    /**
     * Empty elements that keep the room for a bar fixed to the window's top that is about to
     * be hidden: a spacer beside the bar (or beside the wrapper it is in) as tall as the bar,
     * at the top of the page's flow, with nothing in it, as a fixed app bar's offset is
     * (Material UI's <Toolbar />). Hidden with the bar (and shown again with it); left, it
     * was an empty band over the page's first line (wcxb-dev 0577: 100 pixels).
     */
    function spacersFor(elements) {
      const root = document.documentElement;
      const hidden = new Set(elements);
      const found = [];
      const inFlow = (element) => {
        const style = getComputedStyle(element);
        return style.display !== "none" && !["fixed", "absolute"].includes(style.position);
      };
      const spacer = (element, bar) => {
        if (hidden.has(element) || found.includes(element)) return false;
        const r = element.getBoundingClientRect();
        return Math.abs(r.height - bar.height) <= 2 && r.width >= 0.5 * root.clientWidth
          && r.top + scrollY < bar.height / 2 && !element.textContent.trim()
          && !element.querySelector("img, picture, svg, video, canvas, iframe, object, embed, input, button, select, textarea");
      };
      for (const bar of fixedBars(elements)) {
        if (bar.edge !== "top") continue;
        // the first in-flow element after (or before) the bar, or the wrapper it is in
        for (let at = bar.element; at && at !== document.body && at !== root; at = at.parentElement) {
          let next = at.nextElementSibling;
          while (next && !inFlow(next)) next = next.nextElementSibling;
          let previous = at.previousElementSibling;
          while (previous && !inFlow(previous)) previous = previous.previousElementSibling;
          const match = [next, previous].find((element) => element && spacer(element, bar));
          if (match) {
            found.push(match);
            break;
          }
          // a wrapper with more than the bar in its flow: the room is kept inside it, or nowhere
          if (next || previous) break;
        }
      }
      return found;
    }

    function ensureUi() {
      if (uiHost && uiHost.isConnected) return uiRoot;
      uiHost = document.createElement(UI_TAG);
      // A layer over the part of the document around the window, absolutely positioned in
      // it and clipped to it, which nothing it holds can make larger: it never reaches past
      // the page's scroll area (placeUi), so the page's scroll size stays as it was, also
      // where the page is locked against scrolling (its body pinned) and boxes for what lies
      // below the window would otherwise have made it scroll. The boxes in it lie in the
      // document and move with the page as the browser scrolls it, in the same frame; a
      // layer fixed to the window and moved on the page's scroll event lagged a frame behind.
      // Clipped, not hidden: a layer with overflow hidden scrolls itself to show a label
      // given focus, away from the page it marks. Only labels, the legend, toasts and the
      // cover take the mouse.
      uiHost.style.cssText = "all: initial; position: absolute; top: 0; left: 0; width: 0; height: 0;"
        + " overflow: clip; pointer-events: none; z-index: 2147483647;";
      uiRoot = uiHost.attachShadow({ mode: "open" });
      // The boxes, in document coordinates (the layer's origin is the document's); boxes of
      // what is fixed to the window go on a layer fixed to it, in window coordinates.
      uiLayer = document.createElement("div");
      uiLayer.className = "layer";
      uiFixed = document.createElement("div");
      uiFixed.className = "fixed";
      uiDoc = document.createElement("div");
      uiDoc.className = "doc";
      uiLayer.append(uiDoc);
      coverLayers.set(uiDoc, null);
      const style = document.createElement("style");
      style.textContent = `
        .layer { position: absolute; top: 0; left: 0; width: 0; height: 0; }
        .fixed { position: fixed; inset: 0; overflow: clip; }
        .doc { position: absolute; top: 0; left: 0; width: 0; height: 0; }
        .pane { position: absolute; overflow: clip; }
        .box { position: absolute; box-sizing: border-box; pointer-events: none;
               border: 2px solid var(--c); background: color-mix(in srgb, var(--c) 7%, transparent); }
        .box.main { border-style: dashed; background: none; }
        .label { position: absolute; top: 0; left: 0; pointer-events: auto; cursor: help;
                 font: 600 11px/1.3 system-ui, sans-serif; color: #fff; background: var(--c);
                 padding: 1px 6px; white-space: nowrap; border-radius: 4px; outline-offset: 1px;
                 box-shadow: 0 1px 3px rgba(0,0,0,.25); }
        .label .why { display: none; position: absolute; top: 100%; left: 0; margin-top: 2px; z-index: 1;
                      width: max-content; max-width: 360px; white-space: normal; font-weight: 400;
                      color: #1b1b1f; background: #fff; border: 1px solid var(--c); border-radius: 4px;
                      padding: 4px 6px; box-shadow: 0 2px 8px rgba(0,0,0,.2); }
        .label:hover .why, .label:focus .why { display: block; }
        .label.up .why { top: auto; bottom: 100%; margin: 0 0 2px; }
        .label:focus { outline: 2px solid #000; z-index: 2; }
        .legend { position: fixed; left: 12px; bottom: 12px; z-index: 3; pointer-events: auto; padding: 8px 10px;
                  font: 12px/1.5 system-ui, sans-serif; color: #1b1b1f; background: #fff;
                  border-radius: 6px; box-shadow: 0 2px 12px rgba(0,0,0,.3); max-width: 200px; }
        .legend strong { display: flex; align-items: center; gap: 6px; margin-bottom: 2px; }
        .legend .fold { border: 0; background: none; padding: 0 2px; font-size: 12px; cursor: pointer; }
        .legend.folded .key, .legend.folded .buttons, .legend.folded .note { display: none; }
        .legend .note { margin-top: 4px; font-size: 11px; line-height: 1.35; color: #5f5f68; }
        .legend.folded strong { margin-bottom: 0; }
        .key::before { content: ""; display: inline-block; width: 10px; height: 10px; margin-right: 6px;
                       vertical-align: -1px; background: var(--c); border-radius: 2px; }
        .legend .buttons { display: flex; flex-direction: column; align-items: flex-start; gap: 4px; margin-top: 6px; }
        .legend button { font: 12px system-ui, sans-serif; padding: 2px 6px; cursor: pointer; }
        .toast { position: fixed; right: 16px; bottom: 16px; z-index: 4; max-width: 420px; padding: 12px 14px; pointer-events: auto;
                 font: 14px/1.45 system-ui, sans-serif; color: #1b1b1f; background: #fff;
                 border-left: 4px solid #c62828; border-radius: 6px; box-shadow: 0 4px 18px rgba(0,0,0,.25); }
        .toast.info { border-left-color: #1565c0; }
        .toast strong { display: block; margin-bottom: 4px; }
        .toast code { display: block; margin-top: 6px; padding: 4px 6px; background: #f1f1f4;
                      font: 12px ui-monospace, monospace; user-select: all; }
        .toast button { position: absolute; top: 4px; right: 6px; border: 0; background: none;
                        font-size: 16px; cursor: pointer; color: #555; }
        .cover { --fg: #1b1b1f; --bg: #ffffff; --muted: #5f5f68; --line: #dedee4; --link: #0b57d0;
                 --font: Georgia, "Noto Serif", "DejaVu Serif", "Noto Serif CJK SC", serif;
                 position: fixed; inset: 0; z-index: 5; overflow: hidden; pointer-events: auto; cursor: progress;
                 background: var(--bg); color: var(--fg); font: var(--size, 20px)/1.6 var(--font); }
        .cover.sepia { --fg: #43351f; --bg: #f4ecd8; --muted: #6b5c43; --line: #dccfb2; --link: #8a4b08; }
        .cover.dark { --fg: #e4e4ea; --bg: #1c1c20; --muted: #a1a1ab; --line: #34343c; --link: #8ab4f8; }
        .cover.sans { --font: system-ui, "Noto Sans", "DejaVu Sans", "Noto Sans CJK SC", sans-serif; }
        .cover .bar { height: 40px; box-sizing: border-box; border-bottom: 1px solid var(--line); }
        .cover .page { max-width: 38em; box-sizing: border-box; margin: 0 auto; padding: 24px 20px; }
        .cover .rule { margin: 0 0 1.5em; padding-bottom: 1em; font-size: 14px;
                       border-bottom: 1px solid var(--line); }
        .cover .site { margin: 0; color: var(--muted); font: 14px system-ui, sans-serif; }
        .cover h1 { font-size: 1.7em; line-height: 1.2; margin: .3em 0; font-weight: bold; }
        .cover .loading { display: flex; align-items: center; gap: .6em; margin: 1em 0;
                          color: var(--muted); font: 15px system-ui, sans-serif; }
        .cover .spinner { width: 1em; height: 1em; box-sizing: border-box; border: 2px solid var(--line);
                          border-top-color: var(--link); border-radius: 50%; animation: spin .8s linear infinite; }
        @keyframes spin { to { transform: rotate(360deg); } }
        @media (prefers-reduced-motion: reduce) { .cover .spinner { animation: none; } }`;
      uiRoot.append(style, uiLayer, uiFixed);
      // A label reached with Tab out of the window: the page scrolls to it (the fixed layer
      // cannot bring it into view itself).
      // a label's reason shows where it can be read
      uiRoot.addEventListener("mouseover", (event) => {
        const label = event.target.closest?.(".label");
        if (label && !label.contains(event.relatedTarget)) fitReason(label);
      });
      uiRoot.addEventListener("focusin", (event) => {
        if (!event.target.classList?.contains("label")) return;
        // a block cut off in a scroll pane: the pane scrolls to show it first
        const entry = overlayBoxes.find(({ box }) => box.contains(event.target));
        if (entry?.pane) revealInPanes(entry);
        revealInWindow(event.target);
        fitReason(event.target);
      });
      document.documentElement.append(uiHost);
      followDocument(uiHost, uiLayer, uiFixed, replaceBoxes);
      return uiRoot;
    }

    /**
     * Keep a layer host (absolutely positioned at the document's corner, clipped, appended to
     * <html>) laid over the window and half a window around it, its `layer`'s origin at the
     * document's and its `fixed` layer (fixed, inset 0) at the window's corner, as the page
     * scrolls and changes size; `moved` is called when the page changed size (what it marks
     * may have moved: an ad slot filled in above it, a list loaded late). Returns the
     * function that lets it go.
     */
    function followDocument(host, layer, fixed, moved = null) {
      const entry = { host, layer, fixed, moved };
      docLayers.add(entry);
      if (!pageResized) {
        // (after the page's layout, before it is painted: the boxes move in the same frame)
        pageResized = new ResizeObserver(() => {
          scrollArea = null;
          placeUi();
          for (const { moved: callback } of docLayers) callback?.();
          // (the page's bars found again once it has settled: finding a sticky one's place
          // restyles the page, and a page may change its size every frame)
          clearTimeout(coversTimer);
          if (coversWanted()) coversTimer = setTimeout(() => coversWanted() && findCovers(), 300);
        });
        for (const element of [document.documentElement, document.body]) if (element) pageResized.observe(element);
      }
      scrollArea = null;
      placeUi();
      return () => {
        docLayers.delete(entry);
        if (!docLayers.size) {
          pageResized?.disconnect();
          pageResized = null;
        }
      };
    }

    /** Scroll the panes a block lies in (innermost first) so that its top shows, with its
     * box and label moved along at once. */
    function revealInPanes(entry) {
      for (const scroller of entry.scrollers) {
        const rect = unionRect(entry.elements);
        if (!rect) return;
        const area = visibleArea([scroller]), m = 24;
        const top = rect.top - area.top, left = rect.left - area.left;
        const dy = top < m || top + Math.min(rect.height, area.height - m) > area.height ? top - m : 0;
        const dx = left < 0 || left + Math.min(rect.width, area.width) > area.width ? left : 0;
        if (dx || dy) scroller.scrollBy({ left: dx, top: dy, behavior: "instant" });
      }
      placeBox(entry);
    }

    /** Show a label's reason above the label where below it would leave the window or the
     * pane the label is in, and moved left where it would leave them to the right. */
    function fitReason(label) {
      const why = label.querySelector(".why");
      if (!why) return;
      label.classList.remove("up");
      why.style.left = "";
      why.style.display = "block"; // (measured as shown, before :hover applies)
      const w = why.getBoundingClientRect(), at = label.getBoundingClientRect();
      why.style.display = "";
      if (!w.width) return;
      const scroller = document.scrollingElement ?? document.documentElement;
      let top = 0, left = 0, bottom = scroller.clientHeight, right = scroller.clientWidth;
      const pane = label.closest(".pane")?.getBoundingClientRect();
      if (pane) {
        [top, left] = [Math.max(top, pane.top), Math.max(left, pane.left)];
        [bottom, right] = [Math.min(bottom, pane.bottom), Math.min(right, pane.right)];
      }
      if (w.bottom > bottom && at.top - w.height - 2 >= top) label.classList.add("up");
      if (w.right > right) why.style.left = `${Math.max(left - at.left, right - w.right)}px`;
    }

    /** Scroll the window to show an element of ours (a label given focus), below the page's
     * own bars at the window's top and above those at its bottom where it lies under them. */
    function revealInWindow(element) {
      const r = element.getBoundingClientRect(), m = 40;
      let top = 0, bottom = innerHeight;
      for (const cover of uiDoc?.contains(element) ? covers : []) {
        const [x1, y1, x2, y2] = cover.hole(scrollX, scrollY).map((v, i) => v - (i % 2 ? scrollY : scrollX));
        if (x2 <= r.left || x1 >= r.right) continue;
        if (y1 <= 1 && y2 < innerHeight / 2) top = Math.max(top, y2);
        else if (y2 >= innerHeight - 1 && y1 > innerHeight / 2) bottom = Math.min(bottom, y1);
      }
      const dx = r.left < 0 ? r.left - m : r.right > innerWidth ? r.right - innerWidth + m : 0;
      const dy = r.top < top ? r.top - top - m : r.bottom > bottom ? r.bottom - bottom + m : 0;
      if (dx || dy) scrollBy({ left: dx, top: dy, behavior: "instant" });
    }

    /** The page's scroll area in document coordinates, measured without our layer (a page
     * overflowing leftwards, right to left, scrolls to negative x), and where the layer's
     * containing block starts (the document's corner, unless the page moved <html>). */
    function measureScrollArea(layers) {
      const root = document.documentElement;
      const scroller = document.scrollingElement ?? root;
      const displays = layers.map(({ host }) => host.style.display);
      for (const { host } of layers) host.style.display = "none";
      const width = scroller.scrollWidth, height = scroller.scrollHeight;
      layers.forEach(({ host }, i) => {
        host.style.display = displays[i];
        host.style.left = host.style.top = "0px";
      });
      // (all of them children of <html>, absolutely positioned alike: one origin)
      const origin = layers[0].host.getBoundingClientRect();
      for (const { fixed } of layers) {
        fixed.style.transform = "";
        const fixedAt = fixed.getBoundingClientRect();
        // (a page whose <html> has a transform fixes the layer to <html> instead of the window)
        if (fixedAt.left || fixedAt.top) fixed.style.transform = `translate(${-fixedAt.left}px, ${-fixedAt.top}px)`;
      }
      const left = getComputedStyle(root).direction === "rtl" ? Math.min(0, scroller.clientWidth - width) : 0;
      return {
        left, top: 0, right: left + width, bottom: height,
        originX: origin.left + scrollX, originY: origin.top + scrollY,
      };
    }

    /**
     * Lay the layer over the window and half a window around it, within the page's scroll
     * area (so that it never makes it larger), and put the boxes' origin at the document's.
     * Between two calls the browser scrolls the layer with the page; the half window around
     * keeps boxes coming into view drawn until it is placed again.
     */
    function placeUi() {
      const layers = [...docLayers].filter(({ host }) => host.isConnected);
      if (!layers.length) return;
      const scroller = document.scrollingElement ?? document.documentElement;
      const width = scroller.clientWidth, height = scroller.clientHeight;
      // the window always lies in the scroll area: one that does not hold it is out of date
      // (the page grew); one that shrank is measured again when the page's size changes
      const stale = (a) => scrollX < a.left - 1 || scrollY < a.top - 1
        || scrollX + width > a.right + 1 || scrollY + height > a.bottom + 1;
      if (!scrollArea || stale(scrollArea)) scrollArea = measureScrollArea(layers);
      const a = scrollArea;
      const left = Math.max(a.left, scrollX - width / 2), top = Math.max(a.top, scrollY - height / 2);
      const right = Math.min(a.right, scrollX + width * 1.5), bottom = Math.min(a.bottom, scrollY + height * 1.5);
      for (const { host, layer } of layers) {
        host.style.left = `${left - a.originX}px`;
        host.style.top = `${top - a.originY}px`;
        host.style.width = `${Math.max(0, Math.floor(right - left))}px`;
        host.style.height = `${Math.max(0, Math.floor(bottom - top))}px`;
        // (by its place, not a transform: a sticky box in it is stuck by where it lies)
        layer.style.left = `${-left}px`;
        layer.style.top = `${-top}px`;
      }
    }

    /** The frame elements (iframe, frame) of the page that an element of a frame of the
     * page's own site lies in, from the innermost; none for an element of the page. */
    function framesOf(element) {
      const out = [];
      for (let doc = element.ownerDocument; doc && doc !== document;) {
        let frame = null;
        try {
          frame = doc.defaultView?.frameElement ?? null;
        } catch {
          frame = null;
        }
        if (!frame) break;
        out.push(frame);
        doc = frame.ownerDocument;
      }
      return out;
    }

    /** An element's border box in the window's coordinates: for one in a frame (whose rect
     * is the frame's), moved by where the frame's content lies in the window. */
    function windowRect(element) {
      const r = element.getBoundingClientRect();
      if (element.ownerDocument === document) return r;
      let dx = 0, dy = 0;
      for (const frame of framesOf(element)) {
        const f = frame.getBoundingClientRect(), style = frame.ownerDocument.defaultView.getComputedStyle(frame);
        dx += f.left + frame.clientLeft + (parseFloat(style.paddingLeft) || 0);
        dy += f.top + frame.clientTop + (parseFloat(style.paddingTop) || 0);
      }
      return { left: r.left + dx, top: r.top + dy, right: r.right + dx, bottom: r.bottom + dy,
        x: r.left + dx, y: r.top + dy, width: r.width, height: r.height };
    }

    /** Whether `outer` holds `element`, also through the frames it lies in. */
    function holds(outer, element) {
      return outer.contains(element) || framesOf(element).some((frame) => outer === frame || outer.contains(frame));
    }

    /** The elements that clip an element as they scroll (or not): those with overflow other
     * than visible on its way to the document through its containing blocks (an absolutely
     * positioned element escapes those that do not position it; one fixed to the window,
     * all). For an element of a frame: those in the frame's document, then the frame element
     * (which shows only its part of the frame's document) and what clips it. */
    function scrollersOf(element) {
      const doc = element.ownerDocument ?? document, view = doc.defaultView ?? globalThis;
      const getComputedStyle = (e) => view.getComputedStyle(e);
      const root = doc.documentElement;
      const rootStyle = getComputedStyle(root);
      // <body>'s overflow is the window's, unless <html> has one of its own
      const bodyClips = rootStyle.overflowX !== "visible" || rootStyle.overflowY !== "visible";
      const out = [];
      for (let e = element; e;) {
        const position = getComputedStyle(e).position;
        if (position === "fixed") break;
        let parent = e.parentElement;
        if (position === "absolute") {
          while (parent && parent !== root) {
            const style = getComputedStyle(parent);
            if (style.position !== "static" || style.transform !== "none") break;
            parent = parent.parentElement;
          }
        }
        if (!parent || parent === root) break;
        const style = getComputedStyle(parent);
        if ((style.overflowX !== "visible" || style.overflowY !== "visible") && (parent !== doc.body || bodyClips)) {
          out.push(parent);
        }
        e = parent;
      }
      const [frame] = doc === document ? [] : framesOf(element);
      if (frame) out.push(frame, ...scrollersOf(frame));
      return out;
    }

    /** What clips all the elements, from the innermost. */
    function commonScrollers(elements) {
      const [first, ...rest] = elements;
      if (!first) return [];
      return scrollersOf(first).filter((scroller) => rest.every((element) => holds(scroller, element)));
    }

    /** The part of the page the scrollers show (their padding boxes less scroll bars), in
     * document coordinates. */
    function visibleArea(scrollers) {
      let left = -Infinity, top = -Infinity, right = Infinity, bottom = Infinity;
      for (const scroller of scrollers) {
        const r = windowRect(scroller);
        const x = r.left + scroller.clientLeft + scrollX, y = r.top + scroller.clientTop + scrollY;
        left = Math.max(left, x);
        top = Math.max(top, y);
        right = Math.min(right, x + scroller.clientWidth);
        bottom = Math.min(bottom, y + scroller.clientHeight);
      }
      return { left, top, width: Math.max(0, right - left), height: Math.max(0, bottom - top) };
    }

    /**
     * Put a box on its block (document coordinates on the layer; window coordinates on the
     * fixed layer); a box inside a scroll pane lies in a clip of the pane's visible area.
     * Returns the block's rect (document coordinates), null when nothing of it shows.
     */
    function placeBox(entry) {
      const { box, pane, elements, fixed, scrollers, stuck } = entry;
      const rect = unionRect(elements);
      if (!rect) {
        box.style.width = box.style.height = "0px";
        return null;
      }
      if (stuck) {
        // (in the copy of its sticky element, where it lies unstuck)
        box.style.left = `${stuck.rect.left - stuck.left}px`;
        box.style.top = `${stuck.rect.top - stuck.top}px`;
        box.style.width = `${stuck.rect.width}px`;
        box.style.height = `${stuck.rect.height}px`;
        return rect;
      }
      let originX = fixed ? scrollX : 0, originY = fixed ? scrollY : 0;
      if (pane) {
        const clip = visibleArea(scrollers);
        pane.style.left = `${clip.left - originX}px`;
        pane.style.top = `${clip.top - originY}px`;
        pane.style.width = `${clip.width}px`;
        pane.style.height = `${clip.height}px`;
        [originX, originY] = [clip.left, clip.top];
      }
      box.style.left = `${rect.left - originX}px`;
      box.style.top = `${rect.top - originY}px`;
      box.style.width = `${rect.width}px`;
      box.style.height = `${rect.height}px`;
      if (pane) entry.following = followPane(box, entry, rect, originX, originY, entry.following);
      return rect;
    }

    // Scroll timelines (Chromium): an animation driven by a scroll pane's scroll offset.
    const SCROLL_TIMELINES = typeof ScrollTimeline === "function";

    /**
     * Have the browser move a node (at `rect`, document coordinates, less the origin) with the
     * one pane that scrolls it, as the pane scrolls: an animation of its translation on the
     * pane's scroll timeline, from where it lies at the pane's scroll start to where it lies
     * at its end, run by the browser with the scroll itself (in the frame that shows the pane
     * scrolled, also when the page scrolls it from an animation frame; moved on the pane's
     * scroll event, the node came a frame later). Not for what sticks in the pane (it does
     * not scroll with it), nested panes, or a right-to-left pane that scrolls sideways: those
     * are placed again as the pane scrolls, by whoever drew them (and so is this node, which
     * that keeps right). Returns the animations, given back to be replaced on the next call.
     */
    function followPane(node, { scrollers, elements, pinned }, rect, originX, originY, previous = []) {
      for (const animation of previous) animation.cancel();
      const [scroller] = scrollers;
      if (!SCROLL_TIMELINES || scrollers.length !== 1 || pinned) return [];
      const ltr = getComputedStyle(scroller).direction !== "rtl";
      if (!ltr && scroller.scrollWidth > scroller.clientWidth) return [];
      if (!elements.every((element) => scroller.contains(element))) return [];
      // where it lies with the pane at its scroll start
      node.style.left = `${rect.left + scroller.scrollLeft - originX}px`;
      node.style.top = `${rect.top + scroller.scrollTop - originY}px`;
      // Over a way in pixels longer than any pane scrolls, not the pane's scroll range: a pane
      // that grows (a chat's new message) keeps the node where it is, and one scrolled to its
      // end leaves no animation finished (those were not brought back in the frame that
      // scrolled the pane back, in Chromium 156).
      const way = 1e7;
      const animations = [];
      const run = (keyframes, axis) => animations.push(node.animate(keyframes, {
        duration: "auto", fill: "both", easing: "linear", rangeStart: "0px", rangeEnd: `${way}px`,
        timeline: new ScrollTimeline({ source: scroller, axis }),
      }));
      try {
        run({ transform: ["translateY(0px)", `translateY(${-way}px)`] }, "y");
        if (ltr) run({ translate: ["0px 0px", `${-way}px 0px`] }, "x");
      } catch {
        for (const animation of animations) animation.cancel();
        node.style.left = `${rect.left - originX}px`;
        node.style.top = `${rect.top - originY}px`;
        return [];
      }
      return animations;
    }

    /** Where a sticky element's containing block lies, and its size (document coordinates). */
    function stickyKey(sticky, block) {
      const b = block.getBoundingClientRect();
      return [b.left + scrollX, b.top + scrollY, b.width, b.height, sticky.offsetWidth, sticky.offsetHeight].join(" ");
    }

    /** Put the boxes on their blocks again, after the page changed size: what was drawn where
     * a block lay had stayed there when the page moved it (a slot above it filled in). A copy
     * of a sticky element's stickiness is made again only where its containing block moved
     * (where it lies unstuck is found by restyling the page for a moment). */
    function replaceBoxes() {
      for (const entry of overlayBoxes) {
        if (entry.stuck) {
          if (stickyKey(entry.stuck.sticky, entry.stuck.block) === entry.stuck.at) continue;
          const stuck = stickyFrame(entry.elements);
          if (!stuck) continue;
          stuck.inner.append(entry.box);
          entry.stuck.outer.replaceWith(stuck.outer);
          entry.stuck = stuck;
        }
        placeBox(entry);
      }
    }

    /** The windows of the frames the boxes drawn lie in, each with the listener that places
     * those boxes again as the frame's document (or a pane in it) scrolls: the window's
     * scroll events are not the frame's. */
    const frameScrolls = new Map();
    function followFrames() {
      const frames = new Set(overlayBoxes.flatMap(({ elements }) => elements.flatMap(framesOf)));
      const views = new Set([...frames].map((frame) => frame.contentWindow).filter(Boolean));
      for (const [view, listener] of frameScrolls) {
        if (views.has(view)) continue;
        try {
          view.removeEventListener("scroll", listener, true);
        } catch {
          // (a frame gone with its window)
        }
        frameScrolls.delete(view);
      }
      for (const view of views) {
        if (frameScrolls.has(view)) continue;
        const listener = () => {
          for (const entry of overlayBoxes) {
            if (entry.scrollers.some((scroller) => scroller.contentWindow === view)) placeBox(entry);
          }
        };
        try {
          view.addEventListener("scroll", listener, { capture: true, passive: true });
          frameScrolls.set(view, listener);
        } catch {
          // (a frame of another site now: its boxes stay where they were drawn)
        }
      }
    }

    /** The page scrolled (the window: move the layer along and the boxes of sticky
     * elements; an element: the boxes of what it holds). */
    function followScroll(event) {
      if (!docLayers.size) return;
      const target = event?.target;
      if (!target || target === document || target === document.documentElement || target === document.scrollingElement) {
        placeUi();
        // (a sticky element whose stickiness the layer could not copy: moved, a frame late;
        // one sticking in a scroll pane moves only as that scrolls)
        for (const entry of overlayBoxes) if (entry.sticky) placeBox(entry);
        if (covers.length) coverClip();
      } else if (target instanceof Element) {
        for (const entry of overlayBoxes) {
          if (entry.scrollers.some((scroller) => scroller === target || target.contains(scroller))) placeBox(entry);
        }
      }
    }

    /**
     * The page's own bars that lie over what scrolls under them: elements fixed to the window
     * (an app banner, a header that stays put) or sticky to it (a sticky header), shown, not
     * behind the page (negative z-index), the outermost, each smaller than half the window (a
     * dialog's backdrop or a wrapper over the whole window is no bar). Each gives the hole it
     * makes in the clip of the boxes, in document coordinates, as a function of the window's
     * scroll offset (piecewise linear: `breaks` are the offsets where its pieces meet).
     * Boxes were drawn over the page's header as their blocks scrolled under it.
     */
    function findCovers() {
      covers = [];
      if (!coversWanted()) {
        coverClip();
        return;
      }
      const scroller = document.scrollingElement ?? document.documentElement;
      const vw = innerWidth, vh = innerHeight, windowHeight = scroller.clientHeight;
      const px = (value) => parseFloat(value) || 0;
      for (const element of document.body?.querySelectorAll("*") ?? []) {
        if (covers.length >= 24) break;
        if (element.localName === UI_TAG) continue;
        const style = getComputedStyle(element);
        if (style.position !== "fixed" && style.position !== "sticky") continue;
        if (covers.some((cover) => cover.element.contains(element))) continue;
        const r = element.getBoundingClientRect();
        if (r.width < 1 || r.height < 1 || r.width * r.height > vw * vh / 2) continue;
        if (px(style.zIndex) < 0 || (element.checkVisibility && !element.checkVisibility(SHOWN))) continue;
        // what of it shows: itself, or the parts a transparent wrapper holds (a logo, a menu);
        // nothing shows under its transparent rest, so the boxes there are not cut away
        const parts = paintedParts(element, r);
        if (!parts.length) continue;
        if (style.position === "fixed") {
          for (const p of parts) {
            covers.push({ element, breaks: [], hole: (sx, sy) => [sx + p.left, sy + p.top, sx + p.right, sy + p.bottom],
              over: () => true });
          }
          continue;
        }
        // sticky: to the window only (one in a scroll pane moves with the pane)
        if (scrollersOf(element).length) continue;
        const at = measureUnstuck(element, () => element.getBoundingClientRect());
        let block = element.parentElement;
        while (block && getComputedStyle(block).display === "contents") block = block.parentElement;
        if (!at || !block) continue;
        const b = block.getBoundingClientRect(), bs = getComputedStyle(block);
        const blockTop = b.top + scrollY + block.clientTop + px(bs.paddingTop) + px(style.marginTop);
        const blockBottom = blockTop - px(style.marginTop) + block.clientHeight - px(bs.paddingTop)
          - px(bs.paddingBottom) - px(style.marginBottom);
        const n = at.top + scrollY, h = at.height, x1 = at.left + scrollX, x2 = at.right + scrollX;
        let y = null, breaks = [];
        if (style.top !== "auto") {
          const top = px(style.top), high = Math.max(n, blockBottom - h);
          y = (sy) => Math.min(Math.max(n, sy + top), high);
          breaks = [n - top, high - top];
        } else if (style.bottom !== "auto") {
          const gap = windowHeight - px(style.bottom) - h, low = Math.min(n, blockTop);
          y = (sy) => Math.max(Math.min(n, sy + gap), low);
          breaks = [n - gap, low - gap];
        }
        // (over the page only where stuck: in its own place it is the page)
        if (!y) continue;
        for (const p of parts) {
          const dx1 = p.left - r.left, dx2 = p.right - r.left, dy1 = p.top - r.top, dy2 = p.bottom - r.top;
          covers.push({ element, breaks, hole: (sx, sy) => [x1 + dx1, y(sy) + dy1, x1 + dx2, y(sy) + dy2],
            over: (sy) => Math.abs(y(sy) - n) > 0.5 });
        }
      }
      coverClip(true);
    }

    /** Whether an element paints anything of its own over what lies under it: a background,
     * a border, a shadow, a backdrop filter, or it is an image, a frame or a control. */
    function paints(element, style) {
      if (/^(img|svg|video|canvas|iframe|embed|object|picture|input|select|textarea|button)$/.test(element.localName)) return true;
      const opaque = (colour) => colour && colour !== "transparent" && !/rgba\([^)]*,\s*0\)$/.test(colour)
        && !/\/\s*0\)$/.test(colour);
      if (opaque(style.backgroundColor) || style.backgroundImage !== "none") return true;
      if (style.boxShadow !== "none" || (style.backdropFilter && style.backdropFilter !== "none")) return true;
      return ["Top", "Right", "Bottom", "Left"].some((side) => parseFloat(style[`border${side}Width`]) > 0
        && style[`border${side}Style`] !== "none" && opaque(style[`border${side}Color`]));
    }

    /**
     * The rectangles (window coordinates) of what a page's bar shows: the bar's own when it
     * paints, else those of the outermost parts inside it that paint or hold text (at most 8;
     * more, and the bar's own). A full-width header wrapper with nothing painted but its logo
     * hid the boxes under all its width, though the page shows through it there.
     */
    function paintedParts(bar, rect) {
      // (a header's background is often its ::before, laid over all of it)
      const pseudo = (which) => {
        const style = getComputedStyle(bar, which);
        return style.content !== "none" && style.content !== "normal" && paints(bar, style);
      };
      if (paints(bar, getComputedStyle(bar)) || pseudo("::before") || pseudo("::after")) return [rect];
      const parts = [];
      const hasText = (element) => [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.data.trim());
      const visit = (element) => {
        for (const child of element.children) {
          if (parts.length > 8) return;
          const style = getComputedStyle(child);
          if (style.display === "none") continue;
          const r = child.getBoundingClientRect();
          if (style.visibility !== "hidden" && (paints(child, style) || hasText(child))) {
            if (r.width >= 1 && r.height >= 1) parts.push(r);
          } else {
            visit(child);
          }
        }
      };
      if (hasText(bar)) return [rect];
      visit(bar);
      return parts.length > 8 ? [rect] : parts;
    }

    /** The clip of the boxes that scroll with the document for the window scrolled to (sx,
     * sy): around the window and a window each way, less the holes of the page's bars (one
     * polygon, even-odd: each hole a loop from and back to the first corner). */
    function coverPolygon(sx, sy) {
      const vw = innerWidth, vh = innerHeight;
      const [l, t, r, b] = [sx - vw, sy - vh, sx + 2 * vw, sy + 2 * vh];
      const points = [[l, t], [r, t], [r, b], [l, b], [l, t]];
      for (const cover of covers) {
        const [x1, y1, x2, y2] = cover.hole(sx, sy);
        points.push([x1, y1], [x2, y1], [x2, y2], [x1, y2], [x1, y1], [l, t]);
      }
      return `polygon(evenodd, ${points.map(([x, y]) => `${x.toFixed(2)}px ${y.toFixed(2)}px`).join(", ")})`;
    }

    let coverScrollX = 0, coversTimer = 0;
    /**
     * Clip the boxes that scroll with the document where the page's bars lie over them. In a
     * browser with scroll timelines (Chromium) the clip is an animation on the window's
     * scroll offset, run with the scroll itself, built again when `rebuild` or the page
     * scrolled sideways; elsewhere (Firefox ESR) it is set for where the window lies, on
     * each scroll event (a frame late).
     */
    function coverClip(rebuild = false) {
      const polygon = covers.length ? coverPolygon(scrollX, scrollY) : "";
      const build = SCROLL_TIMELINES && covers.length && (rebuild || coverScrollX !== scrollX);
      coverScrollX = scrollX;
      let keyframes = null, timing = null;
      if (build) {
        const scroller = document.scrollingElement ?? document.documentElement;
        // (a way in pixels past the page's end; the clip is built again when the page grows)
        const way = Math.max(1e5, 2 * scroller.scrollHeight);
        const offsets = [...new Set([0, way, ...covers.flatMap(({ breaks }) => breaks)])]
          .filter((sy) => sy >= 0 && sy <= way).sort((a, b) => a - b);
        keyframes = offsets.map((sy) => ({ offset: sy / way, clipPath: coverPolygon(scrollX, sy) }));
        timing = { duration: "auto", fill: "both", easing: "linear", rangeStart: "0px", rangeEnd: `${way}px`,
          timeline: new ScrollTimeline({ source: scroller, axis: "y" }) };
      }
      for (const [layer, animation] of coverLayers) {
        layer.style.clipPath = polygon;
        if (covers.length && !build && (animation || !SCROLL_TIMELINES)) continue;
        animation?.cancel();
        let next = null;
        try {
          if (build) next = layer.animate(keyframes, timing);
        } catch {
          next = null;
        }
        coverLayers.set(layer, next);
      }
    }

    /** Whether anything is drawn that goes under the page's bars. */
    function coversWanted() {
      return overlayBlocks !== null || [...coverLayers.keys()].some((layer) => layer !== uiDoc);
    }

    /** Clip a layer of outlines in document coordinates (the labeler's) under the page's
     * bars, as the overlay's boxes are; returns the function that lets it go. */
    function underBars(layer) {
      coverLayers.set(layer, null);
      findCovers();
      return () => {
        coverLayers.get(layer)?.cancel();
        coverLayers.delete(layer);
        layer.style.clipPath = "";
        if (!coversWanted()) covers = [];
      };
    }

    // One colour per kind (the legend names them); text on them stays readable (WCAG AA).
    const KIND_COLORS = { main: "#2e7d32", links: "#c2185b", nav: "#6a1b9a", ad: "#e65100", comments: "#1565c0", other: "#546e7a" };
    const KIND_NAMES = { main: "main text", links: "link block", nav: "navigation", ad: "ad", comments: "comments", other: "other" };
    let overlayMode = "explained";

    /** Elements of the list not inside another element of the list (document order kept). */
    function outermost(elements) {
      const set = new Set(elements);
      return elements.filter((element) => {
        for (let parent = element.parentElement; parent; parent = parent.parentElement) {
          if (set.has(parent)) return false;
        }
        return true;
      });
    }

    /**
     * The outermost elements, with every parent all of whose element children are covered
     * taking their place (so a list whose items all belong to the block is one box).
     */
    function coverElements(elements) {
      let current = outermost(elements);
      for (let changed = true; changed;) {
        changed = false;
        const set = new Set(current);
        const parents = new Set(current.map((e) => e.parentElement).filter((p) => p && p !== document.body && p !== document.documentElement));
        for (const parent of parents) {
          if ([...parent.children].every((child) => set.has(child))) {
            for (const child of parent.children) set.delete(child);
            set.add(parent);
            changed = true;
          }
        }
        if (changed) current = outermost([...set]);
      }
      return current;
    }

    // A closed dropdown menu keeps its layout box while transparent or visibility:hidden:
    // a box drawn for it would cover the page with outlines of nothing a reader sees.
    // (Both spellings of the options: older browsers know only the first two.)
    const SHOWN = { checkOpacity: true, checkVisibilityCSS: true, opacityProperty: true, visibilityProperty: true };

    /**
     * Union of the elements' boxes in document coordinates; null when nothing shows. An
     * element with no box of its own that still shows (a consent banner's wrapper, whose
     * children are fixed to the window; `display: contents`) counts by its descendants'
     * boxes, a few levels down.
     */
    function unionRect(elements) {
      let top = Infinity, left = Infinity, bottom = -Infinity, right = -Infinity;
      const add = (element, depth) => {
        const rect = windowRect(element);
        if (rect.width < 1 || rect.height < 1) {
          // (a child of what is hidden, transparent or display: none, is so too)
          if (depth < 4) for (const child of element.children) add(child, depth + 1);
          return;
        }
        if (element.checkVisibility && !element.checkVisibility(SHOWN)) return;
        top = Math.min(top, rect.top + scrollY);
        left = Math.min(left, rect.left + scrollX);
        bottom = Math.max(bottom, rect.bottom + scrollY);
        right = Math.max(right, rect.right + scrollX);
      };
      for (const element of elements) add(element, 0);
      return top === Infinity ? null : { top, left, width: right - left, height: bottom - top };
    }

    /** Whether every element shown of a block is fixed to the window (itself or an
     * ancestor `position: fixed`; an element with no box of its own by its children's). */
    function fixedToWindow(ids) {
      const fixed = (element, depth) => {
        const rect = element.getBoundingClientRect();
        if (rect.width < 1 || rect.height < 1) {
          const shown = [...element.children].filter((child) => depth < 4 && child.getClientRects().length);
          return shown.length > 0 && shown.every((child) => fixed(child, depth + 1));
        }
        for (let e = element; e; e = e.parentElement) {
          if (getComputedStyle(e).position === "fixed") return true;
        }
        return false;
      };
      const elements = elementsFor(ids);
      return elements.length > 0 && elements.every((element) => fixed(element, 0));
    }

    /** Where the sticky elements an element is in (itself included) stick: {window, pane},
     * whether one of them sticks to the window's edge (no scroll pane around it), one to a
     * scroll pane's. */
    function stickiness(element) {
      const out = { window: false, pane: false };
      for (let e = element; e && e !== document.documentElement; e = e.parentElement) {
        if (getComputedStyle(e).position !== "sticky") continue;
        if (scrollersOf(e).length) out.pane = true;
        else out.window = true;
      }
      return out;
    }

    /** A selector for one element of the document by its place, which needs nothing of the
     * page's written on it (":root > body:nth-child(2) > header:nth-child(1)"); null for an
     * element in a shadow tree or out of the document. */
    function selectorOf(element) {
      const parts = [];
      for (let e = element; e !== document.documentElement; e = e.parentElement) {
        if (!e?.parentElement) return null;
        let index = 1;
        for (let s = e.previousElementSibling; s; s = s.previousElementSibling) index += 1;
        parts.unshift(`${CSS.escape(e.localName)}:nth-child(${index})`);
      }
      return [":root", ...parts].join(" > ");
    }

    /**
     * What `measure` returns while a sticky element lies where it would unstuck: its
     * stickiness taken off for that moment by a style sheet adopted by the document and
     * given back before anything else runs (still relatively positioned, so that what it
     * positions stays where it is). Nothing is written on the page's elements: a style set
     * on the element itself, even for a moment, is seen by the page's observers of its
     * attributes. Null where that cannot be done (in a shadow tree, a browser without
     * adopted style sheets, stickiness the sheet cannot override).
     */
    function measureUnstuck(sticky, measure) {
      const selector = selectorOf(sticky);
      if (!selector || typeof CSSStyleSheet !== "function" || !("adoptedStyleSheets" in document)) return null;
      // (ids that match nothing: outweighs the page's own rules, but for its inline style)
      const weight = ":not(#blocksift-unstuck)".repeat(4);
      // (a copy: the document's list is live)
      const before = [...document.adoptedStyleSheets];
      try {
        const sheet = new CSSStyleSheet();
        sheet.replaceSync(`${selector}${weight} { position: relative !important; top: auto !important;`
          + " right: auto !important; bottom: auto !important; left: auto !important; }");
        document.adoptedStyleSheets = [...before, sheet];
        if (getComputedStyle(sticky).position === "sticky") return null;
        return measure();
      } catch {
        return null;
      } finally {
        document.adoptedStyleSheets = before;
      }
    }

    /**
     * Where a box over elements sticking with a sticky element of the page (a header sticky to
     * the window's top, or what lies in it) goes, so that the browser sticks the box with it
     * as the page scrolls, in the same frame: a copy of the element's stickiness on a layer
     * in document coordinates, an empty block at the place of the element's containing block
     * holding a sticky block of its size at its place, with its insets and margins. Returns
     * {outer, inner, left, top, rect}: `outer` goes on the layer, the box in `inner` at
     * `rect` (the elements' place unstuck, document coordinates) less (left, top). Null
     * when there is none to copy: no sticky element, one sticking in a scroll pane, in
     * another sticky element or a table (whose stickiness a copy does not follow), or the
     * elements not all in it.
     */
    function stickyFrame(elements) {
      if (elements.some((element) => element.ownerDocument !== document)) return null;
      let sticky = null;
      for (let e = elements[0]; e && e !== document.documentElement; e = e.parentElement) {
        const position = getComputedStyle(e).position;
        if (position === "fixed") return null;
        if (position !== "sticky") continue;
        if (sticky) return null; // sticky in sticky
        sticky = e;
      }
      if (!sticky || !elements.every((element) => sticky.contains(element)) || scrollersOf(sticky).length) return null;
      const style = getComputedStyle(sticky);
      if (style.display.startsWith("table")) return null;
      let block = sticky.parentElement;
      while (block && getComputedStyle(block).display === "contents") block = block.parentElement;
      if (!block) return null;
      const unstuck = measureUnstuck(sticky, () => [sticky.getBoundingClientRect(), unionRect(elements)]);
      if (!unstuck?.[1]) return null;
      const [at, rect] = unstuck;
      const b = block.getBoundingClientRect(), bs = getComputedStyle(block);
      const px = (value) => parseFloat(value) || 0;
      const cb = {
        left: b.left + scrollX + block.clientLeft + px(bs.paddingLeft),
        top: b.top + scrollY + block.clientTop + px(bs.paddingTop),
        width: Math.max(0, block.clientWidth - px(bs.paddingLeft) - px(bs.paddingRight)),
        height: Math.max(0, block.clientHeight - px(bs.paddingTop) - px(bs.paddingBottom)),
      };
      const left = at.left + scrollX, top = at.top + scrollY;
      const marginTop = px(style.marginTop);
      const spacer = Math.max(0, top - cb.top - marginTop);
      const outer = document.createElement("div");
      outer.style.cssText = `position: absolute; left: ${cb.left}px; top: ${cb.top}px; width: ${cb.width}px;`
        + ` height: ${cb.height}px; pointer-events: none;`;
      const gap = document.createElement("div");
      gap.style.cssText = `display: block; height: ${spacer}px;`;
      const inner = document.createElement("div");
      inner.style.cssText = `display: block; position: sticky; top: ${style.top}; right: ${style.right};`
        + ` bottom: ${style.bottom}; left: ${style.left}; width: ${at.width}px; height: ${at.height}px;`
        + ` margin: ${top - cb.top - spacer}px ${px(style.marginRight)}px ${px(style.marginBottom)}px ${left - cb.left}px;`;
      outer.append(gap, inner);
      return { outer, inner, left, top, rect, sticky, block, at: stickyKey(sticky, block) };
    }

    /**
     * Where a box over elements goes on a layer in document coordinates, so that it stays on
     * them: {outer, inner, left, top, rect}, the box in `inner` at `rect` less (left, top),
     * `outer` on the layer (null: the box itself, at `rect`). In a sticky element: a copy of
     * its stickiness (stickyFrame). In a scroll pane: a clip of what the pane shows, and
     * `follow(box)` (after the box is placed) to have the browser move the box as the pane
     * scrolls where it can (followPane); placed again as it scrolls, by whoever drew it, in
     * any case. Null when nothing of them shows.
     */
    function placeOver(elements) {
      const stuck = stickyFrame(elements);
      if (stuck) return stuck;
      const rect = unionRect(elements);
      if (!rect) return null;
      const scrollers = commonScrollers(elements);
      if (!scrollers.length) return { outer: null, inner: null, left: 0, top: 0, rect };
      const clip = visibleArea(scrollers);
      const pane = document.createElement("div");
      pane.style.cssText = `position: absolute; overflow: clip; left: ${clip.left}px; top: ${clip.top}px;`
        + ` width: ${clip.width}px; height: ${clip.height}px; pointer-events: none;`;
      // the box, placed in the pane at `rect`, moved with the pane by the browser where it can
      const pinned = elements.some((element) => stickiness(element).pane);
      const follow = (node) => followPane(node, { scrollers, elements, pinned }, rect, clip.left, clip.top);
      return { outer: pane, inner: pane, left: clip.left, top: clip.top, rect, follow };
    }

    /** Document-coordinate boxes of the page's visible lines of text, its form controls and
     * frames (labels and the legend avoid them). */
    function textRects() {
      const rects = [];
      const walker = document.createTreeWalker(document.body ?? document.documentElement, NodeFilter.SHOW_TEXT);
      const range = document.createRange();
      const shows = textShows();
      for (let node = walker.nextNode(); node && rects.length < 20000; node = walker.nextNode()) {
        if (!node.data.trim() || !shows(node.parentElement)) continue;
        range.selectNodeContents(node);
        for (const r of range.getClientRects()) {
          if (r.width >= 1 && r.height >= 1) rects.push({ x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height });
        }
      }
      // form controls show text that is no text node; frames and players, what is none of
      // the page's text (an embedded post, a video)
      for (const control of document.querySelectorAll("input, button, select, textarea, iframe, frame, embed, object, video")) {
        const r = control.getBoundingClientRect();
        if (r.width >= 1 && r.height >= 1) rects.push({ x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height });
      }
      return rects;
    }

    /**
     * Whether the text in an element can be seen (cached per element for one pass): not in
     * an element hidden (visibility), all but transparent (opacity under 0.05, multiplied
     * down its ancestors: a font's trick draws a letter 2,400 pixels high at opacity 0.0001
     * over a shop's page, wcxb-dev 0591) or clipped to a pixel (a heading for screen
     * readers, whose text's rectangles run on past its one-pixel box). Labels and the
     * legend kept off such text as off any other, and found no free place.
     */
    function textShows() {
      const opacity = new Map();
      const opacityOf = (element) => {
        if (!element) return 1;
        let value = opacity.get(element);
        if (value !== undefined) return value;
        const style = getComputedStyle(element);
        const own = parseFloat(style.opacity);
        // (an inline element has no box to clip to: its client size is 0)
        const clipped = style.overflowX !== "visible" && !["inline", "contents"].includes(style.display)
          && element.clientWidth <= 1 && element.clientHeight <= 1;
        value = clipped ? 0 : (Number.isNaN(own) ? 1 : own) * opacityOf(element.parentElement);
        opacity.set(element, value);
        return value;
      };
      return (element) => !element || (getComputedStyle(element).visibility === "visible" && opacityOf(element) >= 0.05);
    }

    /** Document-coordinate boxes of the page's pictures (images, drawings, canvases): a
     * label keeps off them where it has room, and goes on one only where nothing else is free. */
    function pictureRects() {
      const rects = [];
      for (const picture of document.querySelectorAll("img, svg, canvas, video, picture")) {
        if (picture.localName === "svg" && picture.ownerSVGElement) continue;
        const r = picture.getBoundingClientRect();
        // (a spacer or a tracking pixel is no picture)
        if (r.width >= 8 && r.height >= 8) rects.push({ x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height });
        if (rects.length >= 5000) break;
      }
      return rects;
    }

    /** Area of the text (and labels already placed) a w×h label at (x, y) would cover. */
    function covered(x, y, w, h, obstacles) {
      let area = 0;
      for (const o of obstacles) {
        const dx = Math.min(x + w, o.x + o.w) - Math.max(x, o.x);
        const dy = Math.min(y + h, o.y + o.h) - Math.max(y, o.y);
        if (dx > 0 && dy > 0) area += dx * dy;
      }
      return area;
    }

    /**
     * Where a label of size w×h goes for a box: the first place, on or next to the box, that
     * covers no text and no other label. Tried in order: the box's top corners inside, its
     * margins to the left and right, just above and below it, its bottom corners (not for a
     * box taller than the window), then the gaps between its first lines; when every place
     * covers something, the one covering least. A place on a picture counts as free only
     * where no place off the pictures is: the first place covering neither text nor a
     * picture wins, else the first covering no text.
     */
    function placeLabel(box, w, h, text, placed, bounds = null, hidden = [], pictures = []) {
      // The page's width in document coordinates: a right-to-left page overflows leftwards.
      const root = document.documentElement;
      const pageLeft = getComputedStyle(root).direction === "rtl" ? Math.min(0, root.clientWidth - root.scrollWidth) : 0;
      const pageWidth = Math.max(root.scrollWidth, innerWidth) + pageLeft;
      const inset = 2;
      const right = box.left + box.width - w - inset;
      const candidates = [
        { x: box.left + inset, y: box.top + inset, side: "inside" },
        { x: right, y: box.top + inset, side: "inside" },
        { x: box.left - w - 4, y: box.top, side: "left" },
        { x: box.left + box.width + 4, y: box.top, side: "right" },
        { x: box.left, y: box.top - h - 2, side: "above" },
        { x: right, y: box.top - h - 2, side: "above" },
      ];
      const bottom = [
        { x: box.left, y: box.top + box.height + 2, side: "below" },
        { x: box.left + inset, y: box.top + box.height - h - inset, side: "inside" },
        { x: right, y: box.top + box.height - h - inset, side: "inside" },
      ];
      // A box taller than the window (a long article's main text) keeps its label near its
      // top, where it is seen with the box: its bottom was the first free place, thousands
      // of pixels down; the gaps between its first lines come first, then the least covered.
      const tall = box.height > innerHeight;
      if (!tall) candidates.push(...bottom);
      for (let y = box.top + h; y + h < box.top + box.height && candidates.length < 60; y += Math.max(4, h / 2)) {
        candidates.push({ x: box.left + inset, y, side: "inside" }, { x: right, y, side: "inside" });
      }
      // A box the window shows across keeps its label where the window shows it: on a page
      // wider than the window (by some overflowing part), the first free place beside a box
      // as wide as the window lay past the window's edge, cut off or out of sight.
      const viewLeft = scrollX, viewRight = scrollX + root.clientWidth;
      const across = box.left < viewRight && box.left + box.width > viewLeft;
      const fits = (c) => c.x >= pageLeft && c.y >= 0 && c.x + w <= pageWidth
        && (!across || (c.x >= viewLeft && c.x + w <= viewRight))
        && (!bounds || (c.x >= bounds.left && c.x + w <= bounds.left + bounds.width));
      const obstacles = text.concat(placed);
      let best = null;
      let onPicture = null;
      for (const candidate of candidates.filter(fits)) {
        // (a label under the page's own bar is not seen at all)
        const area = covered(candidate.x, candidate.y, w, h, obstacles) + 10 * covered(candidate.x, candidate.y, w, h, hidden);
        if (area === 0) {
          if (!covered(candidate.x, candidate.y, w, h, pictures)) return candidate;
          onPicture ??= candidate;
        }
        if (!best || area < best.area) best = { ...candidate, area };
      }
      return onPicture ?? best ?? candidates[0];
    }

    /**
     * Draw overlay items {kind, elementIds, label, reason}: one box per item (the union of its
     * elements, so a region of many paragraphs is one box), one label per box placed outside
     * it (never over the text it marks), the reason in words on hover or keyboard focus, and a
     * legend with one colour per kind. Main regions are drawn first, so boxes inside them
     * (an ad in the article) lie on top. Everything lives in a shadow root on a layer fixed
     * to the window and clipped to it (ensureUi), with pointer-events off except labels and
     * the legend, so the page's layout and scroll size never move and its clicks still work.
     */
    function drawOverlay(items, mode = "explained") {
      clearOverlay();
      tabToLegend = true;
      overlayBlocks = items;
      overlayMode = mode;
      const root = ensureUi();
      const counts = {};
      const placed = [];
      const text = textRects();
      const pictures = pictureRects();
      // the page's bars, which hide the labels of what scrolls under them (where they lie
      // over the page now)
      findCovers();
      const bars = covers.filter((cover) => cover.over(scrollY)).map((cover) => {
        const [x1, y1, x2, y2] = cover.hole(scrollX, scrollY);
        return { x: x1, y: y1, w: x2 - x1, h: y2 - y1 };
      });
      let drawn = 0;
      overlayUnseen = 0;
      items.forEach((item, index) => {
        const found = elementsFor(item.elementIds ?? []);
        const elements = coverElements(found);
        if (!unionRect(elements)) {
          // in the page, but nothing of it shows (hidden, or empty): the page did not change
          if (found.length) overlayUnseen += 1;
          return;
        }
        const box = document.createElement("div");
        box.className = `box ${item.kind === "main" ? "main" : ""}`;
        box.dataset.kind = item.kind;
        box.dataset.block = String(index);
        box.style.setProperty("--c", KIND_COLORS[item.kind] ?? KIND_COLORS.other);
        const label = document.createElement("span");
        label.className = "label";
        label.tabIndex = 0;
        label.setAttribute("role", "note");
        label.textContent = item.label ?? KIND_NAMES[item.kind] ?? item.kind;
        const why = document.createElement("span");
        why.className = "why";
        why.textContent = item.reason ?? "";
        label.setAttribute("aria-label", `${label.textContent}: ${why.textContent}`);
        label.append(why);
        box.append(label);
        // A bar fixed to the window (a cookie banner) stays in place as the page scrolls:
        // so does its box, on the layer fixed to the window. A block inside an element that
        // scrolls by itself (a docs sidebar, a comments pane) has its box moved as that
        // scrolls, shown only within what it shows; so does a block in a frame of the page's
        // own site, within the frame, as the frame scrolls (followFrames).
        const framed = elements.some((element) => element.ownerDocument !== document);
        const fixed = !framed && fixedToWindow(item.elementIds ?? []);
        const scrollers = commonScrollers(elements);
        let pane = null;
        if (scrollers.length) {
          pane = document.createElement("div");
          pane.className = "pane";
          pane.append(box);
        }
        // A block in a sticky element (a sticky header) has its box stuck with it by the
        // browser, as the page scrolls: moved on the page's scroll event, it jittered.
        const stuck = fixed || scrollers.length ? null : stickyFrame(elements);
        const sticks = framed ? [] : elements.map(stickiness);
        // moved as the window scrolls: in a sticky element stuck to the window, uncopied
        const sticky = !fixed && !stuck && sticks.some((at) => at.window);
        if (stuck) {
          stuck.inner.append(box);
          uiLayer.append(stuck.outer);
        } else {
          // what scrolls with the document goes under the page's own bars (coverClip)
          (fixed ? uiFixed : sticky ? uiLayer : uiDoc).append(pane ?? box);
        }
        const entry = { box, pane, elements, fixed, scrollers, stuck, following: [], sticky,
          // stuck in its pane: moved as the pane scrolls, not with it
          pinned: sticks.some((at) => at.pane) };

        overlayBoxes.push(entry);
        const rect = placeBox(entry);
        // How the box is kept on its block, for people's tools and tests: by the browser (in
        // the document, on the fixed layer, in a copy of its sticky element, on its pane's
        // scroll timeline), or placed again on the window's or its pane's scroll events.
        box.dataset.follows = fixed ? "window" : stuck ? "sticky" : entry.sticky ? "window-scroll"
          : !pane ? "document" : entry.following.length ? "pane-timeline" : "pane-scroll";
        // a label in a pane keeps to its width (the pane cuts off what lies beside it)
        const bounds = pane ? visibleArea(scrollers) : null;
        // a pixel of room around the label (sizes are fractional; lines touch)
        const measure = () => {
          const size = label.getBoundingClientRect();
          return [Math.ceil(size.width || 80) + 1, Math.ceil(size.height || 16) + 1];
        };
        let [w, h] = measure();
        const hidden = box.closest(".doc") ? bars : [];
        let at = placeLabel(rect, w, h, text, placed, bounds, hidden, pictures);
        // a long name ("cookie consent banner") that finds no free spot gives way to the
        // short one ("other"), which may; the reason still names it
        if (at.area > 0 && item.shortLabel && item.shortLabel !== item.label) {
          const long = label.firstChild.textContent;
          label.firstChild.textContent = item.shortLabel;
          const [shortW, shortH] = measure();
          const shortAt = placeLabel(rect, shortW, shortH, text, placed, bounds, hidden, pictures);
          if (!(shortAt.area > 0) || shortAt.area < at.area) {
            [w, h, at] = [shortW, shortH, shortAt];
            label.setAttribute("aria-label", `${item.shortLabel}: ${why.textContent}`);
          } else {
            label.firstChild.textContent = long;
          }
        }
        placed.push({ x: at.x, y: at.y, w, h });
        label.dataset.side = at.side;
        // the label is placed inside the box's border: offsets count from its padding edge
        label.style.left = `${at.x - rect.left - box.clientLeft}px`;
        label.style.top = `${at.y - rect.top - box.clientTop}px`;
        drawn += 1;
        counts[item.kind] = (counts[item.kind] ?? 0) + 1;
      });
      followFrames();
      const legend = drawLegend(root, counts, mode);
      legendPlace = { legend, labels: placed };
      placeLegend(legend, text, placed);
      return drawn;
    }

    function drawLegend(root, counts, mode) {
      const legend = document.createElement("div");
      legend.className = "legend";
      legend.setAttribute("role", "region");
      legend.setAttribute("aria-label", "blocksift overlay legend");
      const title = document.createElement("strong");
      title.textContent = mode === "paper" ? "Link blocks as the paper finds them" : "What hide would hide";
      // folds the legend to its title line, so that it covers less of the page
      const fold = document.createElement("button");
      fold.className = "fold";
      fold.setAttribute("aria-expanded", "true");
      fold.title = "Fold or unfold the legend";
      fold.textContent = "▾";
      fold.addEventListener("click", () => {
        delete legend.dataset.autoFolded; // folded or unfolded by hand: it stays so
        setFolded(legend, !legend.classList.contains("folded"));
      });
      title.append(fold);
      legend.append(title);
      for (const kind of Object.keys(KIND_COLORS)) {
        const row = document.createElement("div");
        row.className = "key";
        row.dataset.kind = kind;
        row.style.setProperty("--c", KIND_COLORS[kind]);
        row.textContent = `${KIND_NAMES[kind]} (${counts[kind] ?? 0})`;
        legend.append(row);
      }
      // frames of other sites cannot be read: their blocks are neither found nor drawn
      if (unreadable.frames) {
        const note = document.createElement("div");
        note.className = "note";
        const n = unreadable.frames;
        note.textContent = `${n} frame${n === 1 ? "" : "s"} of other sites not covered`;
        legend.append(note);
      }
      const buttons = document.createElement("div");
      buttons.className = "buttons";
      const other = document.createElement("button");
      other.className = "mode";
      other.textContent = mode === "paper" ? "Explained view" : "As the paper finds them";
      other.addEventListener("click", () => {
        const runtime = globalThis.browser?.runtime ?? globalThis.chrome?.runtime;
        runtime?.sendMessage({ type: "blocksift/run", action: "overlay", mode: mode === "paper" ? "explained" : "paper" });
      });
      const close = document.createElement("button");
      close.className = "close";
      close.textContent = "Close (Esc)";
      close.addEventListener("click", () => closeOverlay());
      buttons.append(other, close);
      legend.append(buttons);
      // first in the UI, so that Tab goes from the legend on to the labels (painted over
      // them, and under a toast or the cover, as before: z-index)
      root.insertBefore(legend, uiLayer);
      return legend;
    }

    /** The parts of the boxes drawn that show, in document coordinates, but for those of
     * main text (which cover most of the page). */
    function boxRects() {
      const rects = [];
      for (const { box, pane } of overlayBoxes) {
        if (box.dataset.kind === "main") continue;
        let { left, top, right, bottom } = box.getBoundingClientRect();
        if (pane) {
          const clip = pane.getBoundingClientRect();
          [left, top] = [Math.max(left, clip.left), Math.max(top, clip.top)];
          [right, bottom] = [Math.min(right, clip.right), Math.min(bottom, clip.bottom)];
        }
        if (right > left && bottom > top) rects.push({ x: left + scrollX, y: top + scrollY, w: right - left, h: bottom - top });
      }
      return rects;
    }

    /** Put the legend at the window's left or right edge where it covers the least text
     * and the fewest boxes (a corner when nothing is free): an ad that is a picture has no
     * text to keep it free. */
    function placeLegend(legend, text, labels) {
      const w = legend.offsetWidth, h = legend.offsetHeight, m = 12;
      const boxes = boxRects();
      const spots = [];
      for (let top = innerHeight - h - m; top >= m; top -= 40) {
        spots.push({ left: m, top }, { left: innerWidth - w - m, top });
      }
      spots.push({ left: m, top: m }, { left: innerWidth - w - m, top: m });
      let best = null;
      for (const spot of spots) {
        const x = spot.left + scrollX, y = spot.top + scrollY;
        // a label hidden under the legend is worse than a line of text (it has no other copy)
        const area = covered(x, y, w, h, text) + 10 * covered(x, y, w, h, labels) + covered(x, y, w, h, boxes);
        if (!best || area < best.area) best = { ...spot, area };
        if (area === 0) break;
      }
      legend.style.bottom = legend.style.right = "auto";
      legend.style.left = `${best.left}px`;
      legend.style.top = `${best.top}px`;
      // nowhere free: fold it to its title line and place that instead
      if (best.area > 0 && !legend.classList.contains("folded")) {
        setFolded(legend, true);
        legend.dataset.autoFolded = "";
        placeLegend(legend, text, labels);
      }
    }

    /** Place the legend again for what the window now shows (after a scroll), unfolded if it
     * was folded for want of room. The page's text is measured again: what sticks to the
     * window (a sticky table of contents, 'Popular posts') has come down the page since the
     * overlay was drawn, and a page changes after its load; the labels lie where they were. */
    function replaceLegend() {
      const { legend, labels } = legendPlace ?? {};
      if (!legend?.isConnected) return;
      if (legend.dataset.autoFolded !== undefined) {
        setFolded(legend, false);
        delete legend.dataset.autoFolded;
      }
      placeLegend(legend, textRects(), labels);
    }

    function setFolded(legend, folded) {
      legend.classList.toggle("folded", folded);
      const fold = legend.querySelector(".fold");
      fold?.setAttribute("aria-expanded", String(!folded));
      if (fold) fold.textContent = folded ? "▸" : "▾";
    }

    function closeOverlay() {
      const count = clearOverlay();
      setStatus("overlay-cleared", { action: "overlay", count });
    }

    function clearOverlay() {
      const drawn = overlayBoxes;
      overlayBlocks = null;
      overlayBoxes = [];
      legendPlace = null;
      covers = [];
      coverClip();
      followFrames();
      if (!uiRoot) return 0;
      const boxes = uiRoot.querySelectorAll(".box");
      for (const box of boxes) box.remove();
      for (const pane of uiRoot.querySelectorAll(".pane")) pane.remove();
      for (const { stuck } of drawn) stuck?.outer.remove();
      for (const legend of uiRoot.querySelectorAll(".legend")) legend.remove();
      releaseUi();
      return boxes.length;
    }

    /** Take the UI's host element out of the page once it shows nothing: closing the
     * overlay or a toast gives back the page's DOM as it was. */
    function releaseUi() {
      if (!uiHost || uiRoot.querySelector(".box, .legend, .toast, .cover")) return;
      uiHost.remove();
      for (const entry of docLayers) if (entry.host === uiHost) docLayers.delete(entry);
      if (!docLayers.size) {
        pageResized?.disconnect();
        pageResized = null;
      }
      coverLayers.get(uiDoc)?.cancel();
      coverLayers.delete(uiDoc);
      if (!coversWanted()) covers = [];
      uiHost = uiRoot = uiLayer = uiFixed = uiDoc = null;
    }

    function toast(title, { detail = "", command = "", kind = "error" } = {}) {
      const root = ensureUi();
      for (const old of root.querySelectorAll(".toast")) old.remove();
      const box = document.createElement("div");
      box.className = `toast ${kind}`;
      box.setAttribute("role", kind === "error" ? "alert" : "status");
      const heading = document.createElement("strong");
      heading.textContent = title;
      box.append(heading);
      if (detail) box.append(document.createTextNode(detail));
      if (command) {
        const code = document.createElement("code");
        code.textContent = command;
        box.append(code);
      }
      const close = document.createElement("button");
      close.textContent = "×";
      close.title = "Dismiss";
      const dismiss = () => {
        box.remove();
        releaseUi();
      };
      close.addEventListener("click", dismiss);
      box.append(close);
      root.append(box);
      if (kind !== "error") dismissLater(box, dismiss);
    }

    /** An info toast goes by itself after INFO_TOAST_MS, the clock paused while the pointer
     * is on it (someone reading it or going for a link). */
    function dismissLater(box, dismiss) {
      let timer = setTimeout(dismiss, INFO_TOAST_MS);
      box.addEventListener("mouseenter", () => clearTimeout(timer));
      box.addEventListener("mouseleave", () => {
        clearTimeout(timer);
        timer = setTimeout(dismiss, INFO_TOAST_MS);
      });
    }

    function clearToast() {
      if (uiRoot) for (const old of uiRoot.querySelectorAll(".toast")) old.remove();
      releaseUi();
    }

    /** Status for tests and tools: attributes on <html>, bumped sequence per finished action. */
    function setStatus(status, details = {}) {
      if (status !== "working") clearCover(); // the action ended on this page
      const root = document.documentElement;
      root.setAttribute("data-blocksift-status", status);
      for (const [key, value] of Object.entries(details)) {
        const name = `data-blocksift-${key}`;
        if (value === null || value === undefined || value === "") root.removeAttribute(name);
        else root.setAttribute(name, String(value));
      }
      if (status !== "working") {
        seq += 1;
        root.setAttribute("data-blocksift-seq", String(seq));
      }
    }

    /**
     * Start an action in one round trip: the current state, and unless the action only
     * toggles something off, the "working" status and a fresh snapshot.
     */
    function begin(action, redraw = false, look = null) {
      const current = state();
      if (!redraw && ((action === "hide" && current.hidden) || (action === "overlay" && current.overlay))) {
        return { state: current, snapshot: null };
      }
      setStatus("working", { action, stage: "snapshot", error: null, "error-code": null });
      clearToast();
      if (action !== "reader" || !look) return { state: current, snapshot: snapshot() };
      // The reader view's look at once, painted before the snapshot is taken (a big page
      // makes that slow); coverAt is the frame that shows it. A hidden tab paints nothing.
      const beganAt = Date.now();
      showCover(look);
      let coverAt = null;
      const painted = document.visibilityState === "visible"
        ? new Promise((resolve) => {
          requestAnimationFrame(() => {
            coverAt = Date.now();
            setTimeout(resolve, 0); // after this frame's paint
          });
          setTimeout(resolve, 100); // no frame (a throttled window): do not wait for one
        })
        : Promise.resolve();
      return painted.then(() => ({ state: current, snapshot: { ...snapshot(), beganAt, coverAt } }));
    }

    let cover = null;
    let coverTimer = 0;

    /**
     * What the reader view shows while it loads (the page's title and a spinner), over the
     * page itself: the reader page takes a new document (and often a new process) to appear.
     * In our shadow root, out of the snapshot; gone when the page is left (so Back, even from
     * the back-forward cache, shows the page as it was), when the action ends here, or after
     * 20 s if the reader view never opened.
     */
    function showCover({ theme = "light", font = "serif", size = 20 } = {}) {
      clearCover(); // first: it lets an empty UI go
      const root = ensureUi();
      const title = document.title.trim() || location.hostname || "Reader view";
      cover = document.createElement("div");
      cover.className = `cover ${["sepia", "dark"].includes(theme) ? theme : ""} ${font === "sans" ? "sans" : ""}`;
      cover.setAttribute("role", "status");
      cover.setAttribute("aria-label", "Opening the reader view");
      cover.style.setProperty("--size", `${Math.min(40, Math.max(10, Number(size) || 20))}px`);
      const bar = document.createElement("div");
      bar.className = "bar";
      const page = document.createElement("div");
      page.className = "page";
      const site = document.createElement("p");
      site.className = "site";
      site.textContent = location.hostname.replace(/^www\./, "");
      const heading = document.createElement("h1");
      heading.textContent = title;
      const rule = document.createElement("div"); // where the reader shows the byline and date
      rule.className = "rule";
      const loading = document.createElement("div");
      loading.className = "loading";
      const spinner = document.createElement("span");
      spinner.className = "spinner";
      loading.append(spinner, "Loading the article…");
      page.append(site, heading, rule, loading);
      cover.append(bar, page);
      root.append(cover);
      addEventListener("pagehide", clearCover, { once: true });
      coverTimer = setTimeout(clearCover, 20000);
    }

    function clearCover() {
      clearTimeout(coverTimer);
      cover?.remove();
      cover = null;
      releaseUi();
    }

    function state() {
      return { hidden: hiddenElements.length > 0, overlay: overlayBlocks !== null, seq };
    }

    let settled = 0;
    addEventListener("resize", () => {
      scrollArea = null;
      placeUi();
      if (overlayBlocks) drawOverlay(overlayBlocks, overlayMode);
      // and again once the page has settled: its own scripts lay it out anew a moment after
      // the window changed (a menu closed into a drawer), which changes nothing the overlay
      // watches; the menu's box stayed over the article
      clearTimeout(settled);
      settled = setTimeout(() => overlayBlocks && drawOverlay(overlayBlocks, overlayMode), 400);
    });
    addEventListener("scroll", followScroll, { passive: true, capture: true });
    // The legend goes where it covers least of what the window shows once the page stops
    // scrolling (where it was placed may now lie over the text).
    let legendTimer = 0;
    const windowScrolled = (event) => event.target === document || event.target === document.documentElement;
    // So do the page's bars the boxes go under (a header that shows once the page scrolls).
    const scrolled = () => {
      replaceLegend();
      if (coversWanted()) findCovers();
    };
    if ("onscrollend" in globalThis) {
      addEventListener("scrollend", (event) => windowScrolled(event) && scrolled(), { passive: true, capture: true });
    } else {
      addEventListener("scroll", (event) => {
        if (!windowScrolled(event) || !legendPlace) return;
        clearTimeout(legendTimer);
        legendTimer = setTimeout(scrolled, 150);
      }, { passive: true, capture: true });
    }
    // Keyboard: Esc closes the overlay (the "show blocks" command toggles it). The first Tab
    // after it opens, with nothing on the page focused, goes to the legend, and on from it to
    // the labels: the UI comes after the page in its order, and a keyboard reached the labels
    // only after every link of the page. Opening it takes no focus; a Tab from something
    // focused goes on in the page.
    addEventListener("keydown", (event) => {
      if (event.key === "Escape" && overlayBlocks) closeOverlay();
      if (event.key !== "Tab" || !tabToLegend) return;
      tabToLegend = false;
      const active = document.activeElement;
      const first = legendPlace?.legend.querySelector("button");
      if (event.shiftKey || event.altKey || event.ctrlKey || event.metaKey || !first) return;
      if (active && active !== document.body && active !== document.documentElement) return;
      event.preventDefault();
      first.focus();
    }, true);

    globalThis.__blocksiftAgent = Object.freeze({
      begin, snapshot, markHidden, unmarkHidden, drawOverlay, clearOverlay, closeOverlay, toast, clearToast, setStatus, state,
      clearCover,
      // (why the overlay drew nothing: blocks the page no longer has, or none that show)
      overlayUnseen: () => overlayUnseen,
      // The labeler (labeler.js, same isolated world) maps snapshot ids to live elements.
      liveElements: () => liveById,
      // what "Hide link blocks" hides (the labeler shows it while open, and hides it again)
      hiddenParts: () => [...hiddenElements, ...roomKeepers],
      // ... and lays its outlines over the document as the overlay's boxes are.
      followDocument, placeOver, underBars,
    });
  }
}
