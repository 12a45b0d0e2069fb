// dicetable's pages: this entry module starts the page the document names (body data-page).
// The modules, by job: api.js (HTTP and the table's WebSocket), queue.js (the version queue),
// animate.js (effects), board.js (parts and fitting), dom.js (shared helpers), reach.js (a new
// decision's controls scrolled into sight), dock.js (a phone's status line folded to two lines),
// a11y.js (keyboard and screen-reader additions of the table and replay pages), and one per page:
// lobby.js, table.js, replay.js. They hold no rule and no secret (docs/web.md).

import { $ } from "./dom.js";
import { wireAccess } from "./a11y.js";
import { lobbyPage } from "./lobby.js";
import { tablePage } from "./table.js";
import { replayPage } from "./replay.js";
import { accountPage, wireAccountBar } from "./accounts.js";
import { wireDock } from "./dock.js";

export { hasSecrets } from "./dom.js";

wireAccountBar().catch((err) => console.error(err));
const start = { lobby: lobbyPage, table: tablePage, replay: replayPage, account: accountPage }[document.body.dataset.page];
if (start) {
  if (document.body.dataset.page !== "lobby") wireAccess();
  if (document.body.dataset.page === "table") wireDock();
  start().catch((err) => {
    console.error(err);
    const e = $("#error") || $("#create-error");
    if (e) { e.hidden = false; e.textContent = `page error: ${err.message}`; }
  });
}
