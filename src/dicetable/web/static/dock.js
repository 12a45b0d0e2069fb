// The phone's docked decision kept short. On a phone (the table page's one-column layout) the status
// line shows at most two lines, so the board's dice, cards and tracks keep the screen; a longer one
// (Biblios Dice's auction names both lots, the bid so far and the Gold) ends in "…" with a "More"
// button beside it that shows the whole line ("Less" folds it again). A new status folds it again.
// The fold is visual only: screen readers read the whole line (its aria-live region is unchanged).
// Generic: it reads only #status and the layout's media query; table.js keeps writing the line.

import { $, el } from "./dom.js";

// the table page's one-column layout (dicetable.css, "phones and small tablets")
const PHONE = "(max-width: 760px), (max-height: 500px)";

export function wireDock() {
  const status = $("#status");
  const dock = status && status.closest(".dock");
  if (!dock) return;
  const phone = matchMedia(PHONE);
  const more = el("button", { type: "button", id: "status-more", class: "status-more", "aria-controls": "status",
    "aria-expanded": "false", text: "More", hidden: true });
  status.after(more);
  const open = (yes) => {
    status.classList.toggle("open", yes);
    more.setAttribute("aria-expanded", String(yes));
    more.textContent = yes ? "Less" : "More";
  };
  // the button only when the line is folded on a phone and longer than its two lines
  const check = () => {
    const folded = phone.matches && !status.classList.contains("open");
    more.hidden = !phone.matches || (folded && status.scrollHeight <= status.clientHeight + 1);
  };
  more.addEventListener("click", () => { open(!status.classList.contains("open")); check(); });
  let said = status.textContent;  // the page redraws the line with each version: a new text folds it
  new MutationObserver(() => {
    if (status.textContent !== said) { said = status.textContent; open(false); }
    check();
  }).observe(status, { childList: true, characterData: true, subtree: true });
  new ResizeObserver(check).observe(status);
  phone.addEventListener("change", check);
  check();
}
