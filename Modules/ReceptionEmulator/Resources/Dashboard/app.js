// `app.js`: the router. Each page module's `render(main, argument)` returns the function that stops its polling when
// the page changes.

import { api, loadSession } from "./api.js";
import * as inbox from "./inbox.js";
import * as conversation from "./conversation.js";
import * as users from "./users.js";
import * as settings from "./settings.js";
import * as developer from "./console.js";

let stop = () => {};

function route() {
  stop();
  const main = document.getElementById("page");
  main.replaceChildren();
  const [page, argument] = location.hash.replace(/^#\/?/, "").split("/");
  const pages = {
    inbox, conversation, users, settings,
    requests: { render: developer.renderRequests }, faults: { render: developer.renderFaults },
    push: { render: developer.renderPush }, state: { render: developer.renderState },
  };
  const module = pages[page] || inbox;
  const current = pages[page] ? page : "inbox";
  for (const link of document.querySelectorAll("header.top nav a")) {
    if (link.dataset.page === (current === "conversation" ? "inbox" : current)) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  stop = module.render(main, argument ? decodeURIComponent(argument) : undefined) || (() => {});
}

window.addEventListener("hashchange", route);
document.getElementById("sign-out").addEventListener("click", async () => {
  try { await api("POST", "sign-out"); } finally { location.reload(); }
});
loadSession().then((member) => {
  const who = document.getElementById("signed-in-as");
  if (member) who.textContent = member.name + " · " + (member.role === "owner" ? "Owner" : "Agent");
  route();
}).catch(() => {});
