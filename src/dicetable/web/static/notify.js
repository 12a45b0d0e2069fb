// Turn notices in the browser: the page title says when it is your move (the pages set it), and,
// when the player allowed it, a browser Notification when a move becomes theirs while the page is
// hidden. Nothing here runs unless the player asked for notifications (a click: the permission).

// True when this browser can show notifications and the player allowed them.
export function notificationsAllowed() {
  return typeof Notification !== "undefined" && Notification.permission === "granted";
}

// Wires a "notify me" button: asks for the permission on click, then says what was answered.
export function wireNotifyButton(button, status) {
  if (typeof Notification === "undefined") {
    button.hidden = true;
    status.textContent = "this browser cannot show notifications; the page title says when it is your move";
    return;
  }
  const say = () => {
    const p = Notification.permission;
    button.hidden = p !== "default";
    status.textContent = p === "granted" ? "notifications on: this browser tells you when it is your move"
      : p === "denied" ? "notifications are blocked for this site (the browser's site settings can allow them)"
        : "";
  };
  button.addEventListener("click", async () => { try { await Notification.requestPermission(); } finally { say(); } });
  say();
}

// Shows one notification ``title``/``body`` (``tag``: one per table and seat), opening ``url`` on click;
// only when allowed and the page is not in sight (in sight, the page itself shows the move).
export function notify(title, body, tag, url) {
  if (!notificationsAllowed() || document.visibilityState === "visible") return;
  try {
    const n = new Notification(title, { body, tag });
    n.onclick = () => { window.focus(); if (url) location.assign(url); n.close(); };
  } catch { /* some browsers only notify from a service worker: the title still says it */ }
}

const wasMine = new Map();

// The table page's hook, called with each drawn view: a notification when the move becomes this
// seat's (``key``: table and seat) and was not before.
export function turnNotice(key, mine, game) {
  const before = wasMine.get(key);
  wasMine.set(key, mine);
  if (mine && before === false) notify("Your move", `${game}: it is your move`, key, null);
}
