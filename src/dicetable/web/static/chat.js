// The table's chat beside the log: the messages (each shown as text, never as markup), a
// line to write one, and a mute switch kept per table in localStorage. Messages come from
// GET /api/tables/{id}/chat (the history, and whatever a dropped socket missed) and live as
// {"type": "chat", "message"} socket messages; a message is posted with POST .../chat as the
// seat this page plays (its token), or as a spectator without one.

import { $, el } from "./dom.js";
import { api } from "./api.js";

const C = { id: null, token: () => null, last: 0, muted: false, unread: 0, seen: new Set(), max: 300, fetching: false, again: false };
const muteKey = () => `dicetable.chatmute.${C.id}`;

// Starts the chat of table ``tableId``; ``token()`` is the token of the seat the page plays now (null: a spectator).
export function startChat(tableId, token) {
  C.id = tableId;
  C.token = token;
  C.muted = localStorage.getItem(muteKey()) === "1";
  const form = $("#chat-form");
  const input = $("#chat-text");
  input.maxLength = C.max;
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    const send = $("#chat-send");
    send.disabled = true;
    const res = await api("POST", `/api/tables/${C.id}/chat`, { body: { text }, token: C.token() });
    send.disabled = false;
    const note = $("#chat-note");
    if (res.status === 200) {
      input.value = "";
      note.textContent = "";
      chatMessage(res.data);
    } else note.textContent = res.message;
    input.focus();
  });
  $("#chat-mute").addEventListener("click", () => {
    C.muted = !C.muted;
    localStorage.setItem(muteKey(), C.muted ? "1" : "0");
    if (!C.muted) C.unread = 0;
    drawMute();
  });
  drawMute();
}

// Fetches the messages after the last one shown: whenever the table's socket opens (the first
// time, after a drop, after a hot-seat switch) and when the page shows the table over HTTP.
// One fetch at a time; a call meanwhile asks again once it is done.
export async function catchUp() {
  if (!C.id) return;
  if (C.fetching) { C.again = true; return; }
  C.fetching = true;
  const res = await api("GET", `/api/tables/${C.id}/chat?after=${C.last}`);
  C.fetching = false;
  if (C.again) { C.again = false; catchUp(); }
  if (res.status !== 200 || !res.data) return;
  if (typeof res.data.max_chars === "number") { C.max = res.data.max_chars; $("#chat-text").maxLength = C.max; }
  for (const m of res.data.messages || []) chatMessage(m);
}

// Shows one message (once, whether it came over the socket, the history or the post's answer).
export function chatMessage(m) {
  if (!m || typeof m.id !== "number" || C.seen.has(m.id)) return;
  C.seen.add(m.id);
  C.last = Math.max(C.last, m.id);
  const who = el("span", { class: "chat-who", text: String(m.name ?? "") });
  const li = el("li", { class: m.spectator ? "chat-line spectator" : "chat-line", "data-chat-id": m.id }, who);
  if (m.spectator) li.append(" ", el("span", { class: "chat-tag", text: "(spectator)" }));
  // a registered player's name is marked (a link to their profile); a free seat name never is
  if (m.account && !m.spectator) {
    li.append(" ", el("a", { class: "acct", href: `/players/${encodeURIComponent(String(m.name))}`,
      title: `${m.name} is a registered player: open their profile`, text: "✓ account" }));
  }
  li.append(": ", el("span", { class: "chat-text", text: String(m.text ?? "") }));
  const list = $("#chat-list");
  list.append(li);
  while (list.children.length > 300) list.firstElementChild.remove();
  list.scrollTop = list.scrollHeight;
  if (C.muted) { C.unread += 1; drawMute(); }
}

function drawMute() {
  const btn = $("#chat-mute");
  btn.setAttribute("aria-pressed", String(C.muted));
  btn.textContent = C.muted ? "Unmute" : "Mute";
  $("#chat-list").hidden = C.muted;
  $("#chat-muted").hidden = !C.muted;
  $("#chat-muted").textContent = C.unread ? `Chat muted (${C.unread} new)` : "Chat muted";
}
