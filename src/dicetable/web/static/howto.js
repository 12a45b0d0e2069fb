// The "how to play" card of a game (GET /web/howto/{game}, from the game's data/howto.toml):
// the goal, a turn in five lines, how it ends, and a line on solo or two-player play. Drawn in
// the lobby (for the chosen game) and on the table page (the Rules tab).

import { el } from "./dom.js";
import { api } from "./api.js";

const cache = {};

// The card of ``game`` (fetched once); null when the server has none.
export async function howtoOf(game) {
  if (!(game in cache)) {
    const res = await api("GET", `/web/howto/${encodeURIComponent(game)}`);
    cache[game] = res.status === 200 ? res.data : null;
  }
  return cache[game];
}

// Keeps cards the page already has (the lobby's guide brings every game's at once).
export function rememberHowto(cards) { Object.assign(cache, cards || {}); }

// Fills ``box`` with ``card`` as text (never markup).
export function drawHowto(box, card) {
  box.replaceChildren();
  if (!card) { box.append(el("p", { class: "muted", text: "No card for this game yet." })); return; }
  box.append(el("p", {}, el("strong", { text: "Goal: " }), card.goal));
  const turn = el("ol", { class: "howto-turn" });
  for (const line of card.turn || []) turn.append(el("li", { text: line }));
  box.append(el("p", {}, el("strong", { text: "A turn:" })), turn);
  box.append(el("p", {}, el("strong", { text: "The end: " }), card.end));
  if (card.two_players) box.append(el("p", {}, el("strong", { text: "Two players: " }), card.two_players));
  if (card.solo) box.append(el("p", {}, el("strong", { text: "Solo: " }), card.solo));
  box.append(el("p", { class: "source", text: `From the ${card.source.replace(/^rulebook:\s*/, "rulebook: ")}` }));
}
