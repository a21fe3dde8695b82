// `inbox.js`: conversations newest first, polled every second (live within 2 s).

import { api } from "./api.js";
import { el, clear, poll, badge, when } from "./dom.js";

export function preview(message) {
  if (!message) return "No messages";
  const who = message.sender === "USER" ? "" : "You: ";
  if (message.kind === "REVIEW") return who + "Review card" + (message.text ? ": " + message.text : "");
  if (message.kind === "PAYWALL") return who + "Paywall card" + (message.text ? ": " + message.text : "");
  const photos = message.photoCount > 0 ? "📷 " + (message.photoCount === 1 ? "Photo" : message.photoCount + " photos") + (message.text ? " · " : "") : "";
  return who + photos + (message.text || "");
}

function row(entry) {
  const meta = el("span", { class: "meta" },
    entry.unreadForTeam > 0 ? el("span", { class: "chip unread", title: "Customer messages the team has not read" }, entry.unreadForTeam + " unread") : null,
    el("span", { class: "chip " + (entry.status === "RESOLVED" ? "resolved" : "open") }, entry.status === "RESOLVED" ? "Resolved" : "Open"),
    entry.blocked ? el("span", { class: "chip blocked" }, "Blocked") : null,
    entry.typing ? el("span", { class: "chip" }, "Typing…") : null,
    el("div", { class: "small muted" }, when(entry.lastMessageAt)));
  return el("li", { class: entry.unreadForTeam > 0 ? "unread-row" : "" },
    el("a", { href: "#/conversation/" + encodeURIComponent(entry.deviceId), "data-device": entry.deviceId },
      el("span", { class: "who" }, el("span", { class: "label" }, entry.label), badge(entry.badge)),
      el("span", { class: "last" }, preview(entry.lastMessage)),
      meta));
}

export function render(main) {
  const list = el("ul", { class: "inbox", "aria-label": "Conversations" });
  main.append(el("h1", {}, "Inbox"), list);
  let shown = null;
  return poll(async () => {
    const { conversations } = await api("GET", "inbox");
    const key = JSON.stringify(conversations);
    if (key === shown) return;
    shown = key;
    clear(list);
    if (conversations.length === 0) {
      list.append(el("li", { class: "card muted" }, "No conversations yet. A conversation appears here once a customer's first message reaches the emulator."));
    }
    for (const entry of conversations) list.append(row(entry));
  }, 1000);
}
