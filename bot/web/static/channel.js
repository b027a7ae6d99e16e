// The campaign page, live: listens to the channel's server-sent events and, when the channel
// changes (someone ran /init next in Discord, rolled, ...), fetches the live part of the page
// as this viewer may see it and puts it in place. Without JavaScript the page is complete
// and its Refresh link reloads it. No inline script anywhere (the CSP forbids it).
"use strict";

// A secret roll's commitment, recomputed here from the record and salt the page shows: the
// SHA-256 of salt + "." + record (engine/commitment.py), so the check does not rest on the
// server's word. crypto.subtle exists on https pages and on localhost.
async function checkCommitments(root) {
  if (!(window.crypto && crypto.subtle)) {
    return;
  }
  for (const sealed of root.querySelectorAll("details.sealed[data-commitment]")) {
    const record = sealed.querySelector(".record");
    const salt = sealed.querySelector(".salt");
    const verdict = sealed.querySelector(".browser-check");
    if (!record || !salt || !verdict) {
      continue;
    }
    const text = `${salt.textContent.trim().toLowerCase()}.${record.textContent}`;
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
    const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
    const wanted = sealed.dataset.commitment.trim().toLowerCase();
    verdict.textContent = hex.startsWith(wanted) ? verdict.dataset.ok : verdict.dataset.bad;
    verdict.classList.toggle("error", !hex.startsWith(wanted));
    verdict.hidden = false;
  }
}

checkCommitments(document);

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
        checkCommitments(live);
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
