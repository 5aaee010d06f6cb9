// The reader view of an index page (a portal front page, a section index): the host's hide
// plan says the page is an index and lists its stories; instead of a few sentences picked
// from teasers, the reader shows a line saying so and the stories with their links.
// Pure DOM building, no browser API: reader.js calls it with the stored reader data.

/** Only http(s) links, resolved against the page's address; anything else is dropped. */
function safeHref(href, baseUrl) {
  try {
    const url = new URL(href, baseUrl || undefined);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : "";
  } catch {
    return "";
  }
}

/** Fewer stories than this are no index to show: a shop's category page called an index for
 * its one "Contact Us" teaser read "an index of 1 stories" over that link, not its text (the
 * papers' C_t: a link block has at least three links). */
export const MIN_INDEX_STORIES = 3;

/**
 * A fragment for an index page, or null when the data is not one (or lists fewer than
 * MIN_INDEX_STORIES stories: the main text is shown then). `data.index` holds
 * {title, href, teaser} items (host/blocksift/actions/hide.py, IndexItem).
 */
export function indexViewFragment(data, doc = document) {
  if (data?.pageKind !== "index" || !Array.isArray(data.index)) return null;
  const stories = data.index.filter((item) => String(item?.title ?? "").trim());
  if (stories.length < MIN_INDEX_STORIES) return null;
  const fragment = doc.createDocumentFragment();
  const note = doc.createElement("p");
  note.className = "index-note";
  note.setAttribute("role", "note");
  note.textContent = `This page is an index of ${stories.length} stories, not an article: here are its headlines.`;
  fragment.append(note);
  const list = doc.createElement("ol");
  list.className = "index-list";
  for (const item of stories) {
    const entry = doc.createElement("li");
    const heading = doc.createElement("h2");
    const href = safeHref(item.href, data.url);
    const title = String(item.title).trim();
    if (href) {
      const link = doc.createElement("a");
      link.href = href;
      link.rel = "noopener noreferrer";
      link.textContent = title;
      heading.append(link);
    } else {
      heading.textContent = title;
    }
    entry.append(heading);
    if (item.teaser) {
      const teaser = doc.createElement("p");
      teaser.textContent = String(item.teaser);
      entry.append(teaser);
    }
    list.append(entry);
  }
  fragment.append(list);
  return fragment;
}
