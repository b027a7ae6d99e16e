// The campaign page, live: listens to the channel's server-sent events and, when the channel
// changes (someone ran /init next in Discord, rolled, ...), fetches the live part of the page
// as this viewer may see it and puts it in place. Without JavaScript the page is complete
// and its Refresh link reloads it. No inline script anywhere (the CSP forbids it).
"use strict";

(() => {
  const live = document.getElementById("live");
  if (!live || typeof EventSource === "undefined") {
    return;
  }
  const status = document.getElementById("live-status");
  let fetching = null;
  let again = false;

  async function refresh() {
    if (fetching) {
      again = true; // one more fetch after this one: the newest state wins
      return;
    }
    fetching = fetch(live.dataset.live, { credentials: "same-origin", cache: "no-store" });
    try {
      const response = await fetching;
      if (response.ok) {
        live.innerHTML = await response.text(); // our own server's HTML, escaped there
        // Screen readers hear whose turn it is, not the whole replaced section.
        const now = live.querySelector(".now");
        const announce = document.getElementById("turn-announce");
        if (now && announce && announce.textContent !== now.textContent.trim()) {
          announce.textContent = now.textContent.trim();
        }
      }
    } catch (error) {
      // the next event or a reload tries again
    } finally {
      fetching = null;
      if (again) {
        again = false;
        refresh();
      }
    }
  }

  const url = new URL(live.dataset.events, window.location.href);
  url.searchParams.set("mark", live.dataset.mark || "");
  const source = new EventSource(url);
  source.addEventListener("open", () => {
    if (status) status.hidden = false;
  });
  source.addEventListener("error", () => {
    if (status) status.hidden = true; // EventSource reconnects by itself
  });
  source.addEventListener("change", (event) => {
    live.dataset.mark = event.data;
    url.searchParams.set("mark", event.data);
    refresh();
  });
})();
