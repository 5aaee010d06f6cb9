// The reader view's first script (classic, tiny, runs while the page is parsed): the page's
// title and a loading state from the address, before the modules and the stored text load.
(() => {
  const query = new URLSearchParams(location.search);
  const title = query.get("title");
  if (title === null) return;
  const shown = title.trim() || query.get("site") || "Reader view";
  document.title = shown;
  document.getElementById("title").textContent = shown;
  document.getElementById("site").textContent = query.get("site") || "";
  document.getElementById("loading").hidden = false;
  const root = document.documentElement;
  root.dataset.blocksiftStatus = "loading";
  const at = Number(query.get("at"));
  if (at) root.dataset.blocksiftLoadingMs = String(Date.now() - at);
  setTimeout(() => {
    const text = document.getElementById("loading-text");
    if (!document.getElementById("loading").hidden) text.textContent = "Starting blocksift's helper program and reading the page…";
  }, 1200);
})();
