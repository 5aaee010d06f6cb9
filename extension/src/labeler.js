// The page labeler ("Label this page"): injected with scripting.executeScript({files}) only
// when the user asks for it, into the extension's isolated world next to the page agent
// (agent.js), whose snapshot ids it reuses. It starts from an algorithm's extraction and lets
// the user correct it with a picker:
//   * hover highlights the element under the mouse; ArrowUp / "[" moves to its parent,
//     ArrowDown / "]" back down (or to its first child);
//   * click (or Enter / Space) toggles the highlighted element in or out of the main text;
//   * mode L / A (or Shift+click / Alt+click) marks the element as a link block / ad block;
//     M returns to main-text mode;
//   * Ctrl+Z (or the Undo button) undoes; Save sends the example; Esc cancels.
// Everything it draws lives in a shadow root, so page CSS cannot break it, and page scripts
// never see the clicks and keys it consumes. Nothing is sent until the user presses Save.
//
// Selection model: a set of live elements. An element counts as main text when it and its
// whole subtree are in the set ("fully selected"); removing a paragraph from a selected
// container leaves the container partly selected, so the ids sent are exactly those of the
// fully selected elements and the host's text of them is exactly what the user kept.

(() => {
  if (globalThis.__blocksiftLabeler) return;

  // Internal message name, kept in step with MSG.LABEL_SAVE in protocol.js (a classic
  // script cannot import the module).
  const SAVE_MESSAGE = "blocksift/label-save";
  const UI_TAG = "blocksift-ui";
  const MAX_BLOCK_TEXT = 100000; // the host's limit on a marked block's text
  const api = globalThis.browser ?? globalThis.chrome;
  /** What the toolbar, the outlines and the highlight call a marked block of each kind. */
  const BLOCK_NAMES = { links: "link block", ad: "ad block" };

  let session = null;

  // "Hide link blocks" marks what it hides (agent.js markHidden; the background's style sheet
  // matches the marks) and, where that unlocked or unpadded the page, <html>.
  const HIDE_ATTR = "data-blocksift-hide";
  const HIDE_PAGE_ATTRS = ["data-blocksift-unlock", "data-blocksift-unpad"];

  /**
   * Show what "Hide link blocks" hides, for as long as the labeler is open: the user labels the
   * page as it is (what hide hides is what most needs marking, and could not be pointed at).
   * That is what it hid before labeling started, and what it hides when pressed while the
   * labeler is open (take, from the labeler's mutation observer: its marks go before the page
   * is drawn again). `restore` hides what hide last chose again, unless it was turned off.
   */
  class Unhidden {
    constructor() {
      this.before = 0; // parts hidden when labeling started
      this.later = 0; // parts of a hide pressed since, waiting for the labeler to close
      this.pageAttrs = new Map();
      this.before = this.take();
    }

    /** Take hide's marks off; returns how many parts it newly marked. */
    take() {
      const marked = [...document.querySelectorAll(`[${HIDE_ATTR}]`)];
      if (!marked.length) return 0;
      for (const element of marked) element.removeAttribute(HIDE_ATTR);
      const root = document.documentElement;
      this.pageAttrs = new Map(HIDE_PAGE_ATTRS.filter((name) => root.hasAttribute(name))
        .map((name) => [name, root.getAttribute(name)]));
      for (const name of this.pageAttrs.keys()) root.removeAttribute(name);
      return marked.length;
    }

    /** After hide's marks or the page's status changed: whether what is shown changed (hide
     * pressed while labeling, to hide or to show the page again). */
    check() {
      const taken = this.take();
      if (taken) {
        this.later = taken;
        return true;
      }
      if ((this.later || this.before) && !agent().state().hidden) {
        this.later = this.before = 0; // nothing to hide again: the note goes
        return true;
      }
      return false;
    }

    get count() {
      return this.later || this.before;
    }

    restore() {
      const agentNow = agent();
      if (!agentNow.state().hidden) return; // "Hide link blocks" was pressed again: the page stays shown
      for (const element of agentNow.hiddenParts()) if (element.isConnected) element.setAttribute(HIDE_ATTR, "");
      const root = document.documentElement;
      for (const [name, value] of this.pageAttrs) root.setAttribute(name, value);
    }
  }

  function agent() {
    const value = globalThis.__blocksiftAgent;
    if (!value) throw new Error("the page agent is not installed");
    return value;
  }

  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "text") node.textContent = value;
      else if (key === "class") node.className = value;
      else node.setAttribute(key, String(value));
    }
    for (const child of children.flat()) if (child != null) node.append(child);
    return node;
  }

  // Whitespace as the host's Python sees it (str.isspace, its regex's \s): JavaScript's \s
  // also takes U+FEFF, which a CMS leaves at the start of a paragraph and the host keeps, and
  // leaves out U+001C..U+001F and U+0085, which the host folds away; with \s the toolbar
  // counted one character fewer than Save then stored (wcxb-dev 2969).
  const HOST_SPACE = "\\t\\n\\v\\f\\r \\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
  const SPACE_RUNS = new RegExp(`[${HOST_SPACE}]+`, "g");
  const SPACE_ENDS = new RegExp(`^[${HOST_SPACE}]+|[${HOST_SPACE}]+$`, "g");

  function normalizeText(text) {
    return String(text || "").replace(SPACE_RUNS, " ").replace(SPACE_ENDS, "");
  }

  // The host's plain text of elements (content.py: NON_TEXT_TAGS are skipped, BLOCK_TAGS
  // and <br> start a paragraph, <pre> keeps its lines), so what the toolbar counts is what
  // Save stores: a script inside an article (ad code) is not main text.
  const NON_TEXT_TAGS = new Set(["script", "style", "noscript", "template", "head", "title", "meta",
    "link", "iframe", "object", "embed", "svg", "canvas", "select", "option", "button", "input", "textarea"]);
  const BLOCK_TAGS = new Set(["address", "article", "aside", "blockquote", "body", "caption", "center",
    "dd", "details", "dialog", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form",
    "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "html", "li", "main", "menu", "nav",
    "ol", "p", "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul"]);

  /**
   * Paragraphs of the elements' text, as the host renders an example's main text. `inSnapshot`
   * says whether an element is in the snapshot the host has: one the page added since is not
   * in the stored text, so it is not counted either.
   */
  function paragraphsOf(elements, inSnapshot = () => true) {
    const out = [];
    let current = "";
    const flush = () => {
      const text = normalizeText(current);
      if (text) out.push(text);
      current = "";
    };
    const walk = (node) => {
      if (node.nodeType === Node.TEXT_NODE || node.nodeType === Node.CDATA_SECTION_NODE) {
        current += node.data;
        return;
      }
      if (node.nodeType !== Node.ELEMENT_NODE) return;
      const tag = node.localName;
      if (NON_TEXT_TAGS.has(tag) || !inSnapshot(node)) return;
      if (BLOCK_TAGS.has(tag) || tag === "br") flush();
      if (tag === "pre") {
        const text = node.textContent.replace(/^\n+|\n+$/g, "");
        if (text.trim()) out.push(text);
        return;
      }
      for (const child of node.childNodes) walk(child);
      if (BLOCK_TAGS.has(tag)) flush();
    };
    for (const element of elements) {
      walk(element);
      flush();
    }
    return out;
  }

  /** Whether an element is fixed to the window (itself or an ancestor `position: fixed`). */
  function fixedToWindow(element) {
    for (let e = element; e && e !== document.documentElement; e = e.parentElement) {
      if (getComputedStyle(e).position === "fixed") return true;
    }
    return false;
  }

  /** Whether an element is, or lies in, one that is `position: sticky`. */
  function inSticky(element) {
    for (let e = element; e && e !== document.documentElement; e = e.parentElement) {
      if (getComputedStyle(e).position === "sticky") return true;
    }
    return false;
  }

  /**
   * Whether an id or class was made by a program, not named by a person: long, not starting
   * with a letter (React's ":r1:", a CSS module's "_3xk2L"), a run of four digits
   * ("post-123456", "ember1234") or a part mixing letters and digits like a hash
   * ("css-1x9k2ab", "bs-8f3a2c71-…"). It tells a user nothing and may run to dozens of
   * characters in a message.
   */
  function generatedName(token) {
    if (token.length > 24 || !/^[A-Za-z]/.test(token) || /\d{4,}/.test(token)) return true;
    return token.split(/[-_:.]/).some((part) => part.length >= 5
      && (part.match(/\d/g) ?? []).length >= 2 && (part.match(/[A-Za-z]/g) ?? []).length >= 2);
  }

  /** The tag, with its id and first two classes where a person named them: "ul#related". */
  function describe(element) {
    if (!element) return "";
    let name = element.localName;
    if (element.id && !generatedName(element.id)) name += `#${element.id}`;
    const classes = [...element.classList].filter((c) => !generatedName(c)).slice(0, 2);
    if (classes.length) name += `.${classes.join(".")}`;
    return name;
  }

  /** An element's first words, cut at a word before 40 characters: "Storm damage bill…". */
  function firstWords(element, max = 40) {
    const text = normalizeText(element.innerText ?? element.textContent ?? "").trim()
      || (element.getAttribute?.("alt") ?? element.querySelector?.("img[alt]")?.getAttribute("alt") ?? "").trim();
    if (text.length <= max) return text;
    const cut = text.slice(0, max + 1); // (a word ending at the limit is kept whole)
    const space = cut.lastIndexOf(" ");
    return `${(space > max / 2 ? cut.slice(0, space) : cut.slice(0, max)).replace(/[\s,;:.–—-]+$/, "")}…`;
  }

  /**
   * What the toolbar's messages call an element: the tag and its id where a person named it
   * ("ul#related"), else the tag (and named classes) with its first words
   * ('div "Storm damage bill tops…"'). A generated id was shown in full
   * ("marked div#bs-8f3a2c71-4b1e-… as a link block"), and a tag alone ("Added a to the main
   * text") said nothing of which one.
   */
  function named(element) {
    if (!element) return "";
    const name = describe(element);
    if (element.id && !generatedName(element.id)) return name;
    const words = firstWords(element);
    return words ? `${name} “${words}”` : name;
  }

  /** Frames on the page: their content is not in the snapshot and cannot be labeled. */
  function framesOf(doc) {
    const frames = [...doc.querySelectorAll("iframe, frame")];
    let sameOrigin = 0;
    for (const frame of frames) {
      try {
        if (frame.contentDocument) sameOrigin += 1;
      } catch {
        // cross-origin: reading it throws in some browsers, returns null in others
      }
    }
    return { frames, total: frames.length, sameOrigin, crossOrigin: frames.length - sameOrigin };
  }

  class Session {
    constructor({ css, html, url, title, algorithm, output, mainIds, tabIncognito }) {
      this.html = html;
      this.url = url;
      this.title = title;
      this.algorithm = algorithm;
      this.output = output;
      this.incognito = Boolean(tabIncognito);
      this.mode = "main";
      this.hover = null;
      this.downStack = [];
      this.history = [];
      this.busy = false;
      // id <-> live element, from the agent's snapshot (the ids the host saw).
      const live = agent().liveElements();
      this.idOf = new Map();
      this.byId = live;
      live.forEach((element, id) => {
        if (element) this.idOf.set(element, String(id));
      });
      this.selected = new Set();
      for (const id of mainIds) {
        const element = live[Number(id)];
        if (element && element.isConnected) this.selected.add(element);
      }
      this.inSnapshot = (element) => this.idOf.has(element);
      this.copies = null; // id -> the snapshot's copy of the element (copyOf)
      this.unhidden = new Unhidden();
      this.initialIds = new Set(this.mainIds());
      this.blocks = []; // [{kind, element}]
      this.frames = framesOf(document);
      this.buildUi(css);
      this.listeners = [];
      this.listen(window, "mouseover", (e) => this.onOver(e));
      this.listen(window, "click", (e) => this.onClick(e));
      for (const type of ["mousedown", "mouseup", "pointerdown", "pointerup", "auxclick", "dblclick", "submit"]) {
        this.listen(window, type, (e) => this.swallow(e));
      }
      this.listen(window, "keydown", (e) => this.onKey(e));
      this.listen(window, "resize", () => this.schedule());
      this.listen(window, "scroll", (event) => {
        // The window's scroll moves the outlines with the page by itself (the layer lies in
        // the document, agent.js followDocument), and sticks those of a sticky header with
        // it; a scroll pane's moves the outlines of what is in it, drawn again.
        const target = event.target;
        const windowScrolled = target === document || target === document.documentElement
          || target === document.scrollingElement;
        if (!windowScrolled || this.restick) this.schedule();
      });
      // Closing the tab, reloading or going back with marks not saved asks first (the
      // browser's own "Leave page?"), as a form with unsaved changes does: they would be lost.
      this.listen(window, "beforeunload", (event) => {
        if (!this.history.length || this.closed) return;
        event.preventDefault();
        event.returnValue = "";
      });
      // A page that redraws itself (a script replacing an element) takes marked parts away:
      // what it draws instead is not in the snapshot and cannot be labeled. Say so, and drop
      // them, so that what Save stores stays what the outlines show.
      this.lost = 0;
      // "Hide link blocks" pressed while labeling: what it chose stays shown until the labeler
      // closes (it vanished under the labeler, with its outlines and marks).
      this.observer = new MutationObserver((records) => {
        if (records.some((record) => record.type === "attributes") && this.unhidden.check()) this.noteHidden();
        this.checkLost();
      });
      this.observer.observe(document, { childList: true, subtree: true, attributes: true,
        attributeFilter: [HIDE_ATTR, ...HIDE_PAGE_ATTRS, "data-blocksift-status"] });
      this.render();
      if (!this.selected.size) {
        this.say(`${this.algorithm || "The algorithm"} found no main text here: click the elements that are.`, "warn");
      }
    }

    listen(target, type, handler) {
      target.addEventListener(type, handler, true);
      this.listeners.push([target, type, handler]);
    }

    // -- UI -------------------------------------------------------------------------------

    buildUi(css) {
      this.host = document.createElement(UI_TAG);
      this.host.setAttribute("data-blocksift-labeler", "");
      // A layer over the part of the document around the window, absolutely positioned in it
      // and clipped to it, which nothing it holds can make larger (the overlay's, agent.js
      // ensureUi and followDocument): the page's scroll size stays as it was, also where the
      // page is locked against scrolling (its body pinned) and outlines of what lies below the
      // window would otherwise have made it scroll, and a tag near the right edge does not
      // widen it. The browser scrolls the outlines with the page, in the same frame (a layer
      // fixed to the window and moved on the page's scroll event trailed it by a frame). Only
      // the toolbar takes the mouse.
      this.host.style.cssText = "all: initial; position: absolute; top: 0; left: 0; width: 0; height: 0;"
        + " overflow: clip; pointer-events: none; z-index: 2147483647;";
      const root = this.host.attachShadow({ mode: "open" });
      this.root = root;
      root.append(el("style", { text: css }));
      // Outlines in document coordinates, on a layer whose origin is the document's; outlines
      // of what is fixed to the window are on `pinned`, fixed to it, in window coordinates.
      this.layer = el("div", { class: "layer" });
      // what scrolls with the document, clipped where the page's own bars (a sticky header, an
      // app's bar fixed to the window) lie over it (agent.js underBars)
      this.doc = el("div", { class: "doc" });
      this.pinned = el("div", { class: "pinned" });
      this.hoverBox = el("div", { class: "hover", hidden: true }, el("span", { class: "tag" }));
      const button = (name, text, title) => {
        const node = el("button", { type: "button", "data-action": name, title, text });
        // A mouse click must not move the focus into the toolbar: the picker keys would
        // then go to the button instead of the labeler.
        node.addEventListener("mousedown", (event) => event.preventDefault());
        node.addEventListener("click", (event) => {
          event.stopPropagation();
          if (!event.isTrusted) return; // the page's script cannot press Save for the user
          node.blur();
          this.command(name);
        });
        return node;
      };
      this.counts = el("div", { class: "counts", role: "status", "aria-live": "polite" });
      this.message = el("div", { class: "message", role: "status" });
      this.frameNote = el("div", { class: "frames", role: "note" });
      this.hiddenNote = el("div", { class: "shown-hidden", role: "note" });
      this.lostNote = el("div", { class: "lost", role: "alert", hidden: true });
      this.modeButtons = {
        main: button("mode-main", "Main text", "Click toggles main text (M)"),
        links: button("mode-links", "Link block", "Click marks a link block (L, or Shift+click)"),
        ad: button("mode-ad", "Ad block", "Click marks an ad block (A, or Alt+click)"),
      };
      this.undoButton = button("undo", "Undo", "Undo (Ctrl+Z)");
      this.saveButton = button("save", "Save", "Save this example (Ctrl+S)");
      this.toolbar = el("div", { class: "toolbar", role: "toolbar", "aria-label": "blocksift labeler" },
        el("div", { class: "title" }, el("strong", { text: "Label this page" }),
          el("span", { class: "algo", text: this.algorithm ? `from ${this.algorithm}` : "" })),
        el("div", { class: "modes" }, Object.values(this.modeButtons)),
        this.counts,
        el("div", { class: "keys", text: "Click/Enter: toggle · ↑ [ parent · ↓ ] child · ← → beside · L/A/M: mode · Ctrl+Z: undo · Ctrl+S: save · Esc: cancel" }),
        this.frameNote,
        this.hiddenNote,
        this.lostNote,
        this.message,
        el("div", { class: "buttons" }, this.undoButton, button("cancel", "Cancel", "Leave without saving (Esc)"), this.saveButton));
      root.append(this.layer, this.pinned, this.toolbar);
      this.layer.append(this.doc);
      this.doc.append(this.hoverBox);
      document.documentElement.append(this.host);
      // The page changed size: what it marks may have moved (a slot above it filled in), the
      // outlines go with it, drawn again before the page is painted.
      this.letGo = agent().followDocument(this.host, this.layer, this.pinned, () => {
        if (this.closed) return;
        this.draw();
        this.drawHover();
      });
      this.letBarsGo = agent().underBars?.(this.doc);
      if (this.frames.total) {
        const { total, sameOrigin, crossOrigin } = this.frames;
        this.frameNote.textContent = `${total} frame${total === 1 ? "" : "s"} not reachable`
          + ` (${sameOrigin} same-origin, ${crossOrigin} cross-origin): content inside frames cannot be labeled.`;
      } else {
        this.frameNote.hidden = true;
      }
      this.noteHidden(false);
    }

    /** Say what of the page "Hide link blocks" hides and the labeler shows. */
    noteHidden(rendered = true) {
      const { before, later } = this.unhidden;
      const parts = (n) => `${n} part${n === 1 ? "" : "s"}`;
      this.hiddenNote.textContent = later
        ? `“Hide link blocks” hides ${parts(later)} when you close the labeler; until then you label the page as it is.`
        : before ? `Showing the ${parts(before)} “Hide link blocks” hid,`
          + " so that you can label them; hidden again when you close the labeler." : "";
      this.hiddenNote.hidden = !later && !before;
      if (!rendered) return;
      // (not render(): the page's status stays what the background just set, "hidden")
      document.documentElement.setAttribute("data-blocksift-label-unhidden", String(this.unhidden.count));
      this.schedule(); // what hide chose is drawn again, and may have moved the page
    }

    /**
     * Put an outline over an element: on `pinned` in window coordinates where the element is
     * fixed to the window (a cookie bar); else on the layer in document coordinates, in a
     * copy of its sticky element's stickiness (a sticky header, stuck with it by the browser
     * as the page scrolls) or in a clip of the scroll pane it is in (agent.js placeOver).
     * Returns {on, node}: what goes on which layer; null when the element does not show.
     */
    mount(node, element) {
      // (the highlight is one node, drawn again and again: it follows one pane at a time)
      for (const animation of node.getAnimations?.() ?? []) animation.cancel();
      const size = (rect, left, top) => Object.assign(node.style, {
        left: `${left}px`, top: `${top}px`, width: `${rect.width}px`, height: `${rect.height}px`,
      });
      // The tag goes above the outline, inside it where nothing may show above it: at the top
      // of the document, of the window for what is fixed or sticks there, or of the pane it is
      // in (it was cut off there, and with it the outline's top edge).
      const TAG_HEIGHT = 18;
      const tagInside = (inside) => {
        if (inside) node.dataset.tag = "inside";
        else delete node.dataset.tag;
      };
      if (fixedToWindow(element)) {
        const rect = element.getBoundingClientRect();
        if (rect.width < 1 && rect.height < 1) return null;
        size(rect, rect.left, rect.top);
        tagInside(rect.top < TAG_HEIGHT);
        return { on: this.pinned, node };
      }
      const spot = agent().placeOver([element]);
      if (!spot) return null;
      const { outer, inner, left, top, rect, follow } = spot;
      size(rect, rect.left - left, rect.top - top);
      // (what sticks comes to lie at the window's top edge as the page scrolls)
      tagInside(rect.top < TAG_HEIGHT || (outer && outer === inner && rect.top - top < TAG_HEIGHT) || inSticky(element));
      // in a scroll pane: moved by the browser as the pane scrolls, where it can (agent.js followPane)
      follow?.(node);
      // a sticky element whose stickiness is not copied (in another, in a table): drawn again as the page scrolls
      if (!outer && inSticky(element)) this.restick = true;
      if (inner) inner.append(node);
      // under the page's bars: what scrolls with the document or in a pane, not what sticks
      // (a copy of its stickiness, or drawn again as the page scrolls)
      const sticks = outer ? outer !== inner : inSticky(element);
      return { on: sticks ? this.layer : this.doc, node: outer ?? node };
    }

    schedule() {
      if (this.frame) return;
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        this.draw();
        this.drawHover();
      });
    }

    draw() {
      this.restick = false;
      const onLayer = [this.doc], onDoc = [], onPinned = [];
      const add = (element, cls, label) => {
        const node = el("div", { class: `box ${cls}` });
        if (label) node.append(el("span", { class: "tag", text: label }));
        const spot = this.mount(node, element);
        if (spot) (spot.on === this.pinned ? onPinned : spot.on === this.doc ? onDoc : onLayer).push(spot.node);
      };
      for (const element of this.outermostMain()) add(element, "main");
      for (const block of this.blocks) add(block.element, block.kind, BLOCK_NAMES[block.kind]);
      for (const frame of this.frames.frames) add(frame, "frame", "frame: not reachable");
      this.layer.replaceChildren(...onLayer);
      this.doc.replaceChildren(...onDoc);
      this.pinned.replaceChildren(...onPinned);
      this.hoverSpot = null; // (gone with them: drawHover draws it again, on top)
    }

    drawHover() {
      this.hoverSpot?.node.remove();
      this.hoverSpot = null;
      const target = this.hover;
      const shown = target && target.isConnected ? this.mount(this.hoverBox, target) : null;
      // (in the shadow root all the time, hidden where it has nothing to show)
      this.hoverBox.hidden = !shown;
      if (shown) {
        this.hoverSpot = shown;
        shown.on.append(shown.node);
      } else if (!this.hoverBox.isConnected || this.hoverBox.parentNode !== this.doc) {
        this.doc.append(this.hoverBox);
      }
      if (!target || !target.isConnected) return;
      this.placeToolbar(target.getBoundingClientRect());
      this.hoverBox.className = `hover ${this.mode}`;
      const block = this.blockOf(target);
      const state = !this.idOf.has(target) ? "added since labeling started: cannot be labeled"
        : this.isFullySelected(target) ? "in main text" : block ? BLOCK_NAMES[block.kind]
        : this.hasSelected(target) ? "partly in main text" : "not selected";
      this.hoverBox.firstChild.textContent = `${describe(target)} · ${state}`;
      document.documentElement.setAttribute("data-blocksift-label-hover", this.idOf.get(target) ?? "");
    }

    /**
     * The toolbar moves to the other bottom corner when it covers the highlighted element and
     * that corner does not; an element under both corners (a wide one) leaves it where it is,
     * so it does not jump from side to side at every redraw.
     */
    placeToolbar(rect) {
      const bar = this.toolbar.getBoundingClientRect();
      const covers = (left, right) => rect.left < right && rect.right > left && rect.top < bar.bottom && rect.bottom > bar.top;
      if (!covers(bar.left, bar.right)) return;
      const onLeft = this.toolbar.classList.contains("left");
      const margin = onLeft ? bar.left : innerWidth - bar.right;
      const otherLeft = onLeft ? innerWidth - margin - bar.width : margin;
      if (!covers(otherLeft, otherLeft + bar.width)) this.toolbar.classList.toggle("left", !onLeft);
    }

    render() {
      const main = this.outermostMain();
      // One paragraph a line, as the stored main text (its length is what Save reports).
      // (in characters as the host counts them, code points: an emoji is one, not two
      // UTF-16 units; a job board's 7 emoji made the toolbar say 1,788 and Save 1,781)
      const text = this.textOf(main).join("\n\n").replaceAll("\n\n", "\n");
      const chars = text.length - (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);
      const links = this.blocks.filter((b) => b.kind === "links").length;
      const ads = this.blocks.filter((b) => b.kind === "ad").length;
      this.counts.textContent = `Main text: ${main.length} element${main.length === 1 ? "" : "s"}, ${chars} characters · `
        + `${links} link block${links === 1 ? "" : "s"} · ${ads} ad block${ads === 1 ? "" : "s"}`;
      for (const [mode, node] of Object.entries(this.modeButtons)) node.setAttribute("aria-pressed", String(mode === this.mode));
      this.parts = [...main, ...this.blocks.map((b) => b.element)];
      this.undoButton.disabled = this.history.length === 0 || this.busy;
      this.saveButton.disabled = this.busy;
      agent().setStatus("labeling", {
        action: "label", stage: null, error: null, "error-code": null, "label-error": null,
        "label-main": main.length, "label-chars": chars, "label-links": links, "label-ad": ads,
        "label-mode": this.mode, "label-undo": this.history.length, "label-frames": this.frames.total,
        "label-unhidden": this.unhidden.count, "label-lost": this.lost,
      });
      this.draw();
      this.drawHover();
    }

    /** Marked parts (main-text outlines, marked blocks) the page took out of the document. */
    checkLost() {
      if (this.closed) return;
      const gone = (this.parts ?? []).filter((element) => !element.isConnected);
      if (!gone.length) return;
      const lost = new Set(gone);
      this.blocks = this.blocks.filter((b) => !lost.has(b.element));
      for (const element of gone) for (const node of this.subtree(element)) this.selected.delete(node);
      this.lost += gone.length;
      const n = this.lost;
      this.lostNote.textContent = `${n} marked part${n === 1 ? " was" : "s were"} replaced by the page and lost:`
        + " the page redrew or removed them after labeling started, and what it drew instead is not in the snapshot.";
      this.lostNote.hidden = false;
      this.say(""); // "Marked … as a link block" of a block now lost would say the opposite
      this.render();
    }

    say(text, kind = "info") {
      this.message.textContent = text;
      this.message.className = `message ${kind}`;
    }

    // -- selection model -------------------------------------------------------------------

    // Elements the page added after the snapshot (an ad slot filled in, a widget rendered late)
    // are not in what the host stores: they neither make their container "partly selected"
    // (that would drop the container, and its own text, from the main text without a word)
    // nor count as main text themselves.

    isFullySelected(element) {
      if (!this.selected.has(element)) return false;
      for (const child of element.getElementsByTagName("*")) {
        if (!this.selected.has(child) && this.idOf.has(child)) return false;
      }
      return true;
    }

    /** Whether any snapshot element in the element's subtree is selected. */
    hasSelected(element) {
      if (this.selected.has(element)) return true;
      for (const child of element.getElementsByTagName("*")) {
        if (this.selected.has(child) && this.idOf.has(child)) return true;
      }
      return false;
    }

    /** Fully selected elements, in document order: bottom-up (reverse document order) in one pass. */
    fullySelected() {
      const all = [...document.documentElement.getElementsByTagName("*")];
      const whole = new Set(); // selected, or added by the page since, with every child whole
      for (let i = all.length - 1; i >= 0; i -= 1) {
        const element = all[i];
        if (!this.selected.has(element) && this.idOf.has(element)) continue;
        if ([...element.children].every((child) => whole.has(child))) whole.add(element);
      }
      return all.filter((e) => whole.has(e) && this.selected.has(e) && this.idOf.has(e));
    }

    /**
     * The snapshot's copy of a live element: the host renders the text of the copies (the
     * stored page is the snapshot). They differ where the snapshot set apart what the live
     * page shows apart (agent.js spaceApart: a space between an inline element laid out as
     * a box and the text beside it), or flattened a shadow root: counted on the live page,
     * an eBay item's (wcxb-dev 3019) 1,813 characters were 1,857 once saved.
     */
    copyOf(element) {
      if (!this.copies) {
        this.copies = new Map();
        try {
          const copy = new DOMParser().parseFromString(this.html, "text/html");
          for (const e of copy.querySelectorAll("[data-bsid]")) this.copies.set(e.getAttribute("data-bsid"), e);
        } catch {
          // (not parsed: the live page's text, as close as it gets)
        }
      }
      return this.copies.get(this.idOf.get(element));
    }

    /** Paragraphs of elements' text as Save stores it: their snapshot copies' (the live
     * element's, less what the page added since, where there is no copy). */
    textOf(elements) {
      const parts = [];
      for (const element of elements) {
        const copy = this.copyOf(element);
        parts.push(...(copy ? paragraphsOf([copy]) : paragraphsOf([element], this.inSnapshot)));
      }
      return parts;
    }

    outermostMain() {
      const full = this.fullySelected();
      const set = new Set(full);
      return full.filter((element) => {
        let parent = element.parentElement;
        while (parent && !this.idOf.has(parent) && !set.has(parent)) parent = parent.parentElement;
        return !set.has(parent);
      });
    }

    mainIds() {
      return this.fullySelected().map((e) => this.idOf.get(e)).filter((id) => id !== undefined);
    }

    blockOf(element) {
      return this.blocks.find((b) => b.element === element || b.element.contains(element)) ?? null;
    }

    /** Keep the marks as they are, for Ctrl+Z; returns the step, whose `what` says what the
     * change that follows did (Undo names it). */
    remember() {
      const step = { selected: new Set(this.selected), blocks: [...this.blocks], what: "" };
      this.history.push(step);
      if (this.history.length > 500) this.history.shift();
      return step;
    }

    subtree(element) {
      return [element, ...element.getElementsByTagName("*")];
    }

    toggleMain(element) {
      const step = this.remember();
      if (this.isFullySelected(element)) {
        for (const node of this.subtree(element)) this.selected.delete(node);
        step.what = `removed ${named(element)} from the main text`;
        this.say(`Removed ${named(element)} from the main text.`);
      } else {
        for (const node of this.subtree(element)) this.selected.add(node);
        // Main text and marked blocks exclude each other.
        const dropped = this.dropOverlapping(element);
        step.what = `added ${named(element)} to the main text${dropped.length ? `, unmarked ${dropped.length} it overlapped` : ""}`;
        this.say(`Added ${named(element)} to the main text.${this.unmarkedNote(dropped)}`);
      }
    }

    /** Unmark the blocks around or inside an element; returns them. */
    dropOverlapping(element) {
      const dropped = this.blocks.filter((b) => b.element.contains(element) || element.contains(b.element));
      this.blocks = this.blocks.filter((b) => !dropped.includes(b));
      return dropped;
    }

    /** A mark that goes with another change is said, never dropped without a word. */
    unmarkedNote(dropped) {
      if (!dropped.length) return "";
      const names = dropped.slice(0, 3).map((b) => `${BLOCK_NAMES[b.kind]} ${named(b.element)}`).join(", ");
      const more = dropped.length > 3 ? ` and ${dropped.length - 3} more` : "";
      return ` Unmarked the ${names}${more} it overlapped (Ctrl+Z brings ${dropped.length === 1 ? "it" : "them"} back).`;
    }

    toggleBlock(element, kind) {
      const step = this.remember();
      const same = this.blocks.find((b) => b.element === element);
      const dropped = this.dropOverlapping(element).filter((b) => b !== same);
      const also = dropped.length ? `, unmarked ${dropped.length} it overlapped` : "";
      if (same && same.kind === kind) {
        step.what = `unmarked ${named(element)}${also}`;
        this.say(`Unmarked ${named(element)}.${this.unmarkedNote(dropped)}`);
        return;
      }
      this.blocks.push({ kind, element });
      // Main text and marked blocks exclude each other: what of it was main text is taken out
      // of the main text, and said so (it went without a word: a part added to the main text
      // vanished from it when the list around it was marked)
      const whole = this.isFullySelected(element);
      const main = whole ? null : new Set(this.fullySelected());
      const part = !whole && this.subtree(element).some((node) => main.has(node));
      for (const node of this.subtree(element)) this.selected.delete(node);
      const taken = whole ? ", took it out of the main text" : part ? ", took its main text out of the main text" : "";
      const takenNote = whole ? " It is no longer main text (Ctrl+Z puts it back)."
        : part ? " What of it was main text is no longer (Ctrl+Z puts it back)." : "";
      step.what = `marked ${named(element)} as ${kind === "links" ? "a link block" : "an ad block"}${also}${taken}`;
      this.say(`Marked ${named(element)} as ${kind === "links" ? "a link block" : "an ad block"}.${takenNote}${this.unmarkedNote(dropped)}`);
    }

    undo() {
      const last = this.history.pop();
      if (!last) return;
      this.selected = last.selected;
      // a block the page took away since stays gone (checkLost said so)
      this.blocks = last.blocks.filter((b) => b.element.isConnected);
      // (which of several steps came back is named: "Undone." alone left it to be guessed)
      const left = this.history.length;
      this.say(`Undone: ${last.what || "the last change"}.`
        + (left ? ` ${left} more step${left === 1 ? "" : "s"} can be undone.` : " Nothing more to undo."));
    }

    // -- events ------------------------------------------------------------------------------

    fromUi(event) {
      return event.composedPath().includes(this.host);
    }

    swallow(event) {
      if (this.fromUi(event)) return;
      event.preventDefault();
      event.stopImmediatePropagation();
    }

    onOver(event) {
      if (!event.isTrusted || this.fromUi(event)) return;
      const target = event.target;
      if (!(target instanceof Element) || target === document.documentElement) return;
      this.hover = target;
      this.downStack = [];
      this.drawHover();
    }

    pickable(element) {
      return element && element !== document.documentElement && element !== document.body
        && element !== this.host && this.idOf.has(element);
    }

    onClick(event) {
      if (this.fromUi(event)) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      // Only the user's own clicks label; a page's script cannot drive the picker.
      if (this.busy || !event.isTrusted) return;
      // The highlighted box is what a click acts on (after moving up with the keys).
      let target = event.target instanceof Element ? event.target : null;
      if (this.hover && this.hover.contains(target)) target = this.hover;
      this.act(target, event.shiftKey ? "links" : event.altKey ? "ad" : this.mode);
    }

    act(target, mode) {
      if (!this.pickable(target)) {
        const why = !target ? null : this.idOf.has(target) || target === this.host
          ? "the whole page cannot be labeled: point at a part of it"
          : "the page added it after labeling started, so the snapshot to be saved does not hold it";
        this.say(target ? `${describe(target)} cannot be labeled: ${why}.` : "Nothing highlighted: point at an element, or press an arrow key.", "warn");
        return;
      }
      if (mode === "main") this.toggleMain(target);
      else this.toggleBlock(target, mode);
      this.render();
    }

    onKey(event) {
      if (!event.isTrusted) return; // keys synthesized by the page are not the user's
      if (this.fromUi(event) && event.key !== "Escape") return;
      const ctrl = event.ctrlKey || event.metaKey;
      let handled = true;
      if (ctrl && event.key.toLowerCase() === "z") this.command("undo");
      else if (ctrl && event.key.toLowerCase() === "s") this.command("save");
      else if (ctrl || event.altKey) handled = false;
      else if (event.key === "Escape") this.command("cancel");
      else if (event.key === "ArrowUp" || event.key === "[") this.moveUp();
      else if (event.key === "ArrowDown" || event.key === "]") this.moveDown();
      else if (event.key === "ArrowLeft") this.moveSibling(-1);
      else if (event.key === "ArrowRight") this.moveSibling(1);
      else if (event.key === "Enter" || event.key === " ") {
        if (!this.busy) this.act(this.hover, this.mode);
      } else if (event.key.toLowerCase() === "m") this.command("mode-main");
      else if (event.key.toLowerCase() === "l") this.command("mode-links");
      else if (event.key.toLowerCase() === "a") this.command("mode-ad");
      else handled = false;
      if (handled) {
        event.preventDefault();
        event.stopImmediatePropagation();
      }
    }

    /** An element the keys can highlight: labelable and drawn on the page. */
    reachable(element) {
      if (!this.pickable(element) || NON_TEXT_TAGS.has(element.localName)) return false;
      const rect = element.getBoundingClientRect();
      return rect.width >= 1 || rect.height >= 1;
    }

    /** Highlight an element from the keyboard and bring it into view. */
    highlight(element) {
      this.hover = element;
      const rect = element.getBoundingClientRect();
      if (rect.bottom < 0 || rect.top > innerHeight || rect.right < 0 || rect.left > innerWidth) {
        element.scrollIntoView({ block: "nearest", inline: "nearest" });
      }
      this.drawHover();
    }

    /**
     * Without a mouse nothing is highlighted yet: the keys start at the first main-text
     * element (else the page's first element that can be labeled). Returns whether they did.
     */
    startFromKeys() {
      if (this.hover && this.hover.isConnected) return false;
      const first = this.outermostMain().find((e) => this.reachable(e))
        ?? [...document.body.getElementsByTagName("*")].find((e) => this.reachable(e));
      if (first) {
        this.downStack = [];
        this.highlight(first);
      }
      return true;
    }

    moveUp() {
      if (this.startFromKeys()) return;
      const parent = this.hover.parentElement;
      // The page itself cannot be labeled, so the highlight stops below <body>.
      if (!this.pickable(parent)) return;
      this.downStack.push(this.hover);
      this.highlight(parent);
    }

    moveDown() {
      if (this.startFromKeys()) return;
      const next = this.downStack.pop()
        ?? [...this.hover.children].find((e) => this.reachable(e)) ?? this.hover.firstElementChild;
      if (!next) return;
      this.highlight(next);
    }

    /** ArrowLeft / ArrowRight: the previous / next element beside the highlighted one. */
    moveSibling(step) {
      if (this.startFromKeys()) return;
      let next = this.hover;
      do {
        next = step < 0 ? next.previousElementSibling : next.nextElementSibling;
      } while (next && !this.reachable(next));
      if (!next) return;
      this.downStack = [];
      this.highlight(next);
    }

    command(name) {
      if (this.busy) {
        // The example is on its way to the host: leaving now would say "cancelled" of an
        // example that is then stored. The host's answer (or its error) comes first.
        if (name === "cancel") this.say("Saving… the example is already on its way; Cancel once the host has answered.", "warn");
        return undefined;
      }
      if (name === "cancel") return this.close("label-cancelled");
      if (name.startsWith("mode-")) this.mode = name.slice(5);
      else if (name === "undo") this.undo();
      else if (name === "save") return this.save();
      this.render();
      return undefined;
    }

    payload() {
      return {
        url: this.url,
        title: this.title,
        html: this.html,
        mainIds: this.mainIds(),
        blocks: this.blocks.map(({ kind, element }) => ({
          kind,
          ids: this.subtree(element).map((e) => this.idOf.get(e)).filter((id) => id !== undefined),
          text: this.textOf([element]).join(" ").slice(0, MAX_BLOCK_TEXT),
        })),
        algorithm: this.algorithm,
        algorithmOutput: this.output,
      };
    }

    async save() {
      const payload = this.payload();
      if (!payload.mainIds.length) {
        this.say("Select some main text first: an example needs it.", "warn");
        agent().setStatus("labeling", { "label-error": "empty selection" });
        return;
      }
      this.busy = true;
      this.render();
      this.say("Saving…");
      agent().setStatus("working", { stage: "label-save" });
      let reply;
      try {
        reply = await api.runtime.sendMessage({ type: SAVE_MESSAGE, ...payload });
      } catch (err) {
        reply = { ok: false, error: { message: String(err?.message ?? err), code: "internal" } };
      }
      this.busy = false;
      if (this.closed) return; // the page took the labeler away (labeling started anew)
      if (reply?.ok) {
        const { exampleId, mainChars, replaced = [], notice } = reply.value;
        this.close("label-saved", { "label-example": exampleId, "label-chars": mainChars,
          "label-replaced": replaced.length ? replaced.join(" ") : null });
        // The background words it (labeling.js savedNotice): saved, or replaced an earlier label.
        agent().toast(notice?.title ?? "Example saved", { kind: "info", detail: notice?.detail ?? `Example ${exampleId}.` });
        return;
      }
      const message = reply?.error?.message ?? "the background did not answer";
      this.render();
      this.say(`Not saved: ${message} Your marks are kept: press Save to try again.`, "error");
      agent().setStatus("label-error", { error: message, "error-code": reply?.error?.code ?? null });
    }

    close(status, details = {}) {
      if (this.closed) return;
      this.closed = true;
      this.observer.disconnect();
      for (const [target, type, handler] of this.listeners) target.removeEventListener(type, handler, true);
      if (this.frame) cancelAnimationFrame(this.frame);
      this.host.remove();
      this.letGo?.();
      this.letBarsGo?.();
      this.unhidden.restore();
      document.documentElement.removeAttribute("data-blocksift-label-hover");
      agent().setStatus(status, { action: "label", stage: null, ...details });
      if (session === this) session = null;
    }
  }

  globalThis.__blocksiftLabeler = Object.freeze({
    /** Start (or restart) labeling; returns what the toolbar shows first. */
    start(options) {
      if (session && (session.history.length || session.busy)) {
        // "Label this page" again while the toolbar is open: starting over would throw the
        // user's marks away without a word; they stay (Cancel, then label again, starts over).
        session.render();
        session.say("Still labeling: your marks are kept. To start over, Cancel, then label the page again.", "warn");
        return { main: session.outermostMain().length, frames: session.frames.total,
          ids: session.mainIds().length, resumed: true };
      }
      if (session) session.close("label-cancelled");
      session = new Session(options);
      return { main: session.outermostMain().length, frames: session.frames.total, ids: session.mainIds().length };
    },
    active: () => session !== null,
    cancel: () => session?.close("label-cancelled"),
  });
})();
