// Narrator's web companion: small progressive enhancements; every page works without it.
// Served from /static (the Content-Security-Policy allows no inline or foreign script).
"use strict";

// The language switcher applies as soon as a language is picked.
document.addEventListener("change", (event) => {
  const select = event.target;
  if (select instanceof HTMLSelectElement && select.id === "language" && select.form) {
    select.form.submit();
  }
});
