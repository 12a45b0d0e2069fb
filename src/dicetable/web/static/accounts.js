// The account bar of every page (sign in, sign up, sign out) and the account page (/account):
// sign-up, sign-in, API tokens, move notices by e-mail, deleting the account. Names are put in the page as text, never markup.

import { $, store } from "./dom.js";
import { api, session } from "./api.js";

// Every seat token this browser holds (the lobby keeps them per table): a guest who signs up keeps them.
function heldSeatTokens() {
  const tokens = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith("dicetable.tokens.")) continue;
    for (const t of Object.values(store.tokens(key.slice("dicetable.tokens.".length)))) {
      if (typeof t === "string" && t) tokens.push(t);
    }
  }
  return tokens.slice(0, 200);
}

async function signOut() {
  await api("DELETE", "/api/session");
  await session(true);
  location.reload();
}

// The bar at the top of every page: who is signed in, and the way to sign in, up or out.
export async function wireAccountBar() {
  const bar = $("#account-bar");
  if (!bar) return;
  const me = await session();
  const signedIn = Boolean(me.name);
  $("#account-who").textContent = signedIn ? `Signed in as ${me.name}` : "";
  const link = $("#account-link");
  link.textContent = signedIn ? "Account" : "Sign in";
  link.href = signedIn ? "/account" : "/account#sign-in-h";
  $("#sign-up-link").hidden = signedIn;
  const out = $("#sign-out");
  out.hidden = !signedIn;
  out.onclick = signOut;
}

function say(sel, text) { const e = $(sel); e.textContent = text; }

function show(me) {
  const signedIn = Boolean(me.name);
  $("#signed-out").hidden = signedIn;
  $("#signed-in").hidden = !signedIn;
  if (signedIn) { say("#me-name", me.name); loadNotices(); }
}

// The move-notice settings: the address, the box, and whether this server sends mail at all.
function showNotices(data) {
  $("#notice-email").value = data.email || "";
  $("#notice-on").checked = Boolean(data.notify_email);
  $("#mail-off").hidden = Boolean(data.mail_on);
}

async function loadNotices() {
  const r = await api("GET", "/api/account/notices");
  if (r.status === 200) showNotices(r.data);
}

// The seats this browser holds become the account's (one per table, never another account's, never
// at a rated table: docs/accounts.md), whether the player just signed up or signed in to an account
// they had: so a guest who joined by a link and then signs in finds the table on every device.
async function keepSeats() {
  const tokens = heldSeatTokens();
  if (!tokens.length) return;
  const kept = await api("POST", "/api/account/seats", { body: { tokens } });
  const n = kept.status === 200 ? kept.data.seats.length : 0;
  say("#kept", n ? `Your ${n} seat${n === 1 ? "" : "s"} at this browser's tables ${n === 1 ? "is" : "are"} now your account's.` : "");
}

async function signIn(name, password, errorSel) {
  const r = await api("POST", "/api/session", { body: { name, password } });
  if (r.status !== 200) { say(errorSel, r.message); return null; }
  const me = await session(true);
  await wireAccountBar();
  show(me);
  await keepSeats();
  return me;
}

// The account page. Its forms are wired before anything is awaited: a form sent before its
// listener is there would go as a plain GET, with the password in the address.
export async function accountPage() {
  $("#sign-in-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    say("#sign-in-error", "");
    await signIn($("#sign-in-name").value, $("#sign-in-password").value, "#sign-in-error");
  });
  $("#sign-up-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    say("#sign-up-error", "");
    const name = $("#sign-up-name").value;
    const password = $("#sign-up-password").value;
    const r = await api("POST", "/api/accounts", { body: { name, password } });
    if (r.status !== 201) { say("#sign-up-error", r.message); return; }
    if (!(await signIn(name, password, "#sign-up-error"))) {
      // the account exists now; only signing in was refused (e.g. too many wrong passwords from here)
      say("#sign-up-error", `Your account ${name} was made, but signing in was refused: ${$("#sign-up-error").textContent} `
        + "Sign in with it (on the left) once that allows.");
      return;
    }
  });
  $("#sign-out-here").addEventListener("click", signOut);
  $("#new-token").addEventListener("click", async () => {
    const r = await api("POST", "/api/account/tokens", { body: {} });
    const box = $("#api-token");
    if (r.status !== 201) { say("#token-note", r.message); return; }
    box.value = r.data.token;
    box.hidden = false;
    box.select();
    say("#token-note", "Copy it now: it is not shown again.");
  });
  $("#revoke-tokens").addEventListener("click", async () => {
    const r = await api("DELETE", "/api/account/tokens");
    $("#api-token").hidden = true;
    say("#token-note", r.status === 200 ? `${r.data.revoked} API token(s) revoked.` : r.message);
  });
  $("#notices-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    say("#notices-error", "");
    say("#notices-note", "");
    const email = $("#notice-email").value.trim();
    const body = { email: email || null, notify_email: $("#notice-on").checked };
    const r = await api("PUT", "/api/account/notices", { body });
    if (r.status !== 200) { say("#notices-error", r.message); return; }
    showNotices(r.data);
    say("#notices-note", r.data.notify_email ? "Saved: you get an e-mail when it is your move."
      : "Saved: no move notices by e-mail.");
  });
  const confirmBox = $("#delete-confirm");
  $("#delete-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    say("#delete-error", "");
    confirmBox.hidden = false;
    $("#delete-yes").focus();
  });
  $("#delete-no").addEventListener("click", () => { confirmBox.hidden = true; });
  $("#delete-yes").addEventListener("click", async () => {
    const r = await api("DELETE", "/api/account", { body: { password: $("#delete-password").value } });
    confirmBox.hidden = true;
    if (r.status !== 200) { say("#delete-error", r.message); return; }
    await session(true);
    await wireAccountBar();
    show({ name: null });
    say("#signed-out-note", "Your account was deleted.");
  });
  show(await session());
}
