// `users.js`: search by name, email or user ID (`GET devices?query=` searches on the server); the customers found, and
// every registered device listed separately (seed 000 "Where details appear").

import { api } from "./api.js";
import { el, clear, badge, when } from "./dom.js";
import { environmentName } from "./details.js";

/// One person may use several devices: customers are grouped by user ID, else email, else name (guests
/// have none and appear only among the devices).
function customers(devices) {
  const groups = new Map();
  for (const device of devices) {
    const key = device.verifiedUserId || device.externalUserId || device.verifiedEmail || device.email || device.verifiedName || device.name;
    if (!key) continue;
    const group = groups.get(key) || { key, devices: [] };
    group.devices.push(device);
    groups.set(key, group);
  }
  return [...groups.values()];
}

function link(device) {
  return el("a", { href: "#/conversation/" + encodeURIComponent(device.id) }, device.label);
}

export function render(main) {
  const search = el("input", { type: "search", id: "user-search", placeholder: "Name, email or user ID", autocomplete: "off" });
  const users = el("tbody");
  const devices = el("tbody");
  main.append(el("h1", {}, "Users"),
    el("form", { role: "search", onsubmit: (e) => e.preventDefault() }, el("label", { for: "user-search" }, "Search users"), search),
    el("h2", {}, "Customers"),
    el("table", { "aria-label": "Customers" },
      el("thead", {}, el("tr", {}, ["Customer", "User ID", "Email", "Devices"].map((h) => el("th", {}, h)))), users),
    el("h2", {}, "Registered devices"),
    el("table", { "aria-label": "Registered devices" },
      el("thead", {}, el("tr", {}, ["Device of", "Platform", "Model", "App version", "Push", "First seen", "Last seen"].map((h) => el("th", {}, h)))), devices));
  let generation = 0, timer = null;
  async function load() {
    const mine = ++generation;
    const query = search.value.trim();
    const answer = await api("GET", "devices" + (query ? "?query=" + encodeURIComponent(query) : ""));
    if (mine !== generation) return;
    clear(users); clear(devices);
    const groups = customers(answer.devices);
    if (!groups.length) users.append(el("tr", {}, el("td", { colspan: 4, class: "muted" }, query ? "No customer matches." : "No identified customers yet.")));
    for (const group of groups) {
      const first = group.devices[group.devices.length - 1];
      users.append(el("tr", {},
        el("td", {}, link(first), badge(first.badge)),
        el("td", {}, first.verifiedUserId || first.externalUserId || "—"),
        el("td", {}, first.verifiedEmail || first.email || "—"),
        el("td", {}, String(group.devices.length))));
    }
    if (!answer.devices.length) devices.append(el("tr", {}, el("td", { colspan: 7, class: "muted" }, "No devices.")));
    for (const device of answer.devices) {
      const info = device.info || {};
      devices.append(el("tr", {},
        el("td", {}, link(device), badge(device.badge)), el("td", {}, info.platform || "—"), el("td", {}, info.deviceModel || "—"),
        el("td", {}, info.appVersion || "—"), el("td", {}, device.pushToken ? environmentName(device.pushEnvironment) : "—"),
        el("td", {}, when(device.createdAt)), el("td", {}, when(device.lastSeenAt))));
    }
  }
  search.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(() => load().catch(() => {}), 250); });
  load().catch(() => {});
  search.focus();
  return () => clearTimeout(timer);
}
