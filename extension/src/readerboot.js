// The reader view's first script (classic, in <head>: it runs before the body is parsed, so
// before the first frame): the page's title and a loading state from the address, in the
// reader's own look, before the modules and the stored text load. The body does not exist
// yet: the title and site go to CSS variables reader.css shows until the elements get them.
(() => {
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
    document.getElementById("loading").hidden = false;
    delete root.dataset.boot;
  });
  setTimeout(() => {
    const loading = document.getElementById("loading");
    if (loading && !loading.hidden) document.getElementById("loading-text").textContent = "Starting blocksift's helper program and reading the page…";
  }, 1200);
})();
