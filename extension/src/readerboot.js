// The reader view's first script (classic, in <head>: it runs before the body is parsed, so
// before the first frame): the page's title and a loading state from the address, in the
// reader's own look, before the modules and the stored text load. The body does not exist
// yet: the title and site go to CSS variables reader.css shows until the elements get them.
// An Arabic or Hebrew title reads right to left from the first frame, on the right where the
// header will stand once the text comes: the address carries no language or direction, so
// the title's letters say it (as `dir="auto"` would); the header jumped from left to right.
(() => {
  /** "rtl" when a text's first letter is of a script written right to left (Arabic, Hebrew,
   * Syriac, Thaana, N'Ko...), else "" (a Latin letter, or only digits and punctuation). */
  const letterDirection = (text) => {
    const letter = /\p{L}/u.exec(text)?.[0] ?? "";
    return /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}\p{Script=Hanifi_Rohingya}\p{Script=Mende_Kikakui}]/u
      .test(letter) ? "rtl" : "";
  };
  const query = new URLSearchParams(location.search);
  const title = query.get("title");
  if (title === null) return;
  const root = document.documentElement;
  const theme = query.get("theme");
  if (["light", "sepia", "dark"].includes(theme)) root.dataset.theme = theme;
  if (["serif", "sans"].includes(query.get("font"))) root.dataset.font = query.get("font");
  const size = Number(query.get("size"));
  if (size >= 10 && size <= 40) root.style.setProperty("--size", `${size}px`);
  const site = query.get("site") || "";
  // no headline that only says the site line again (an untitled page's host name)
  const squeeze = (text) => text.replace(/\s+/g, " ").trim().toLowerCase();
  const shown = squeeze(title) === squeeze(site) ? "" : title.trim();
  document.title = shown || site || "Reader view";
  // a CSS string: quotes and backslashes escaped, control characters dropped
  const cssString = (text) => `"${text.replace(/[\u0000-\u001f\u007f]/g, " ").replace(/["\\]/g, "\\$&")}"`;
  root.style.setProperty("--boot-title", cssString(shown));
  root.style.setProperty("--boot-site", cssString(site));
  const direction = letterDirection(shown);
  if (direction) root.dataset.bootDir = direction; // reader.css, until <main> is parsed
  root.dataset.boot = "";
  root.dataset.blocksiftStatus = "loading";
  const at = Number(query.get("at"));
  if (at) {
    // Loading shown: first over the page itself (the agent's, when it drew one), then here.
    const here = Date.now() - at;
    const cover = Number(query.get("cover"));
    root.dataset.blocksiftReaderLoadingMs = String(here);
    root.dataset.blocksiftLoadingMs = String(cover ? Math.min(here, cover - at) : here);
    if (cover) root.dataset.blocksiftCoverMs = String(cover - at);
  }
  // The elements exist once the body is parsed (before the modules run): real text in them.
  document.addEventListener("readystatechange", () => {
    if (document.readyState !== "interactive" || !("boot" in root.dataset)) return;
    document.getElementById("title").textContent = shown;
    document.getElementById("title").hidden = !shown;
    document.getElementById("site").textContent = site;
    // the article's own direction replaces it when the text comes (reader.js)
    if (direction) document.getElementById("reader").dir = direction;
    document.getElementById("loading").hidden = false;
    delete root.dataset.boot;
  });
  setTimeout(() => {
    const loading = document.getElementById("loading");
    if (loading && !loading.hidden) document.getElementById("loading-text").textContent = "Starting blocksift's helper program and reading the page…";
  }, 1200);
})();
