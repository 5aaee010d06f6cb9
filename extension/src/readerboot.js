// The reader view's first script (classic, tiny, runs while the page is parsed): the page's
// title and a loading state from the address, in the reader's own look, before the modules
// and the stored text load.
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
  const shown = title.trim() || query.get("site") || "Reader view";
  document.title = shown;
  document.getElementById("title").textContent = shown;
  document.getElementById("site").textContent = query.get("site") || "";
  document.getElementById("loading").hidden = false;
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
  setTimeout(() => {
    const text = document.getElementById("loading-text");
    if (!document.getElementById("loading").hidden) text.textContent = "Starting blocksift's helper program and reading the page…";
  }, 1200);
})();
