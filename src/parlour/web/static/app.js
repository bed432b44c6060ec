/* parlour in the browser: the entry module. It routes on location.pathname to the home page, a
   table's page (live play over a WebSocket), a lesson (a guided first match), the replay page, My games,
   a leaderboard or a player's page; each lives in a module of js/.
   Plain DOM and ES modules, no framework, no build step, no game knowledge: what a game draws comes
   from the server (see js/board.js).

   Who you are is the server's session cookie: the page keeps no secret of any
   seat. An invitation arrives once in the address's fragment (#invite=…),
   which is removed from the address bar at once and never stored. */
import { accountBar } from "./js/account.js";
import { homePage } from "./js/home.js";
import { learnPage } from "./js/learn.js";
import { leaderboardPage, playerPage } from "./js/ratings.js";
import { Me } from "./js/me.js";
import { myGamesPage } from "./js/mygames.js";
import { forgetOldSecrets } from "./js/prefs.js";
import { replayPage } from "./js/replay.js";
import { tablePage } from "./js/table.js";

const app = document.getElementById("app");
const path = location.pathname.replace(/\/+$/, "") || "/";
const tableMatch = path.match(/^\/table\/([^/]+)$/);
const learnMatch = path.match(/^\/learn\/([^/]+)$/);
const boardMatch = path.match(/^\/leaderboard(?:\/([^/]+))?$/);
const playerMatch = path.match(/^\/player\/([^/]+)$/);

/** What the address's fragment brings once, taken out of the address bar (and history) at once:
 *  an invitation (#invite=…), or a seat link of the first release (#token=…), which the first hello
 *  brings to the server so that it gives its seat to this browser's identity for good. */
function takeFragment() {
  const brought = { invite: null, token: null };
  if (!location.hash) return brought;
  const m = location.hash.match(/[#&]invite=([^&]+)/);
  if (m && tableMatch) brought.invite = decodeURIComponent(m[1]);
  const t = location.hash.match(/[#&]token=([^&]+)/);
  if (t && tableMatch) brought.token = decodeURIComponent(t[1]);
  if (/[#&](invite|token)=/.test(location.hash)) history.replaceState(null, "", location.pathname + location.search);
  return brought;
}

/** Draw the page of this address; ``brought``: what its fragment brought. */
function route(brought) {
  if (tableMatch) tablePage(app, decodeURIComponent(tableMatch[1]), brought.invite, brought.token);
  else if (learnMatch) learnPage(app, decodeURIComponent(learnMatch[1]));
  else if (path === "/replay") replayPage(app);
  else if (path === "/me/games") myGamesPage(app);
  else if (boardMatch) leaderboardPage(app, boardMatch[1] ? decodeURIComponent(boardMatch[1]) : null);
  else if (playerMatch) playerPage(app, decodeURIComponent(playerMatch[1]));
  else homePage(app);
}

forgetOldSecrets();
accountBar();
Me.ready = Me.refresh();
route(takeFragment());
