// `conversation.js`: the transcript (photos, cards, receipts), the customer's typing, Resolve/Reopen, the composer and
// the customer details, polled every second.

import { api } from "./api.js";
import { el, clear, poll, badge, when, showPhoto } from "./dom.js";
import { createComposer } from "./composer.js";
import { renderDetails } from "./details.js";

function clickReceipt(message) {
  return message.actionClickedAt ? el("div", { class: "small muted" }, "Clicked " + when(message.actionClickedAt)) : null;
}

function messageItem(message, members) {
  const agent = message.sender === "AGENT";
  const member = members.find((m) => m.id === message.authorId);
  const author = agent ? (member ? member.name : (message.authorId || "Team")) : "Customer";
  const bubble = el("div", { class: "bubble" });
  if (message.text) bubble.append(el("p", { class: "text" }, message.text));
  const photos = message.attachments || [];
  if (photos.length) {
    bubble.append(el("div", { class: "thumbs" }, photos.map((photo, index) =>
      el("button", { type: "button", title: "Open full size", onclick: () => showPhoto(photo.url) },
        el("img", { src: photo.url, alt: "Photo " + (index + 1) + " of " + photos.length, loading: "lazy" })))));
  }
  if (message.kind === "REVIEW") {
    bubble.append(el("div", { class: "action-card" }, el("strong", {}, "Review card"),
      " · button “" + (message.buttonLabel || "Rate on the App Store") + "” → ", message.reviewUrl || "(no review URL)", clickReceipt(message)));
  } else if (message.kind === "PAYWALL") {
    bubble.append(el("div", { class: "action-card" }, el("strong", {}, "Paywall card"),
      " · " + (message.paywallTitle || message.paywallId) + " · button “" + (message.buttonLabel || "View offer") + "”", clickReceipt(message)));
  }
  const receipt = agent
    ? el("span", { class: "receipt" }, message.readAt ? "Read " + when(message.readAt) : message.deliveredAt ? "Delivered " + when(message.deliveredAt) : "Sent")
    : null;
  return el("li", { class: agent ? "agent" : "user", "data-seq": message.seq },
    el("span", { class: "by" }, author + " · " + when(message.createdAt)), bubble, receipt);
}

/// What changes the transcript: everything but the signed photo links, which are fresh on every answer.
function transcriptKey(messages, members) {
  return JSON.stringify([members, messages.map((m) => ({ ...m, attachments: (m.attachments || []).map((a) => a.id) }))]);
}

export function render(main, deviceId) {
  const id = encodeURIComponent(deviceId || "");
  const title = el("h1", {}, "Conversation");
  const status = el("span", { class: "chip" });
  const statusButton = el("button", { type: "button", class: "quiet", disabled: true }, "Resolve");
  const transcript = el("ol", { class: "transcript", "aria-label": "Transcript" });
  const typing = el("p", { class: "typing", "aria-live": "polite" });
  const details = el("aside", { class: "card details", "aria-label": "Customer details" });
  const state = { device: null, members: [], app: {} };
  let stopPolling = () => {};
  let shown = true; // false once the router left this page
  const composer = createComposer(deviceId, () => state, () => refresh());
  main.append(
    el("div", { class: "conversation-head" }, el("a", { href: "#/inbox" }, "← Inbox"), title, status, statusButton),
    el("div", { class: "conversation" },
      el("section", { "aria-label": "Chat" }, el("div", { class: "card" }, transcript, typing), composer.node),
      details));

  statusButton.addEventListener("click", async () => {
    const reopen = state.device && state.device.status === "RESOLVED";
    await api("POST", `devices/${id}/status`, { status: reopen ? "OPEN" : "RESOLVED" });
    refresh();
  });

  let shownTranscript = null, shownDetails = null, shownTitle = null, seenSeq = 0;
  async function refresh() {
    let device;
    try {
      device = await api("GET", `devices/${id}`);
    } catch (error) {
      if (error.status === 404) {
        stopPolling();
        // A poll sent before the page changed may answer after it (Delete device itself goes to the inbox): it must
        // not draw over the page now shown.
        if (shown) main.replaceChildren(el("h1", {}, "Device deleted"),
          el("p", {}, "This device and its conversation are gone. The app starts a new chat with its next send."),
          el("a", { href: "#/inbox" }, "← Inbox"));
      }
      throw error;
    }
    const [{ messages }, team, app] = await Promise.all([
      api("GET", `devices/${id}/messages`),
      state.members.length ? { members: state.members } : api("GET", "team"),
      state.app.appId ? state.app : api("GET", "app")]);
    state.device = device; state.members = team.members; state.app = app;
    // Redrawn only when it changes, so the Unverified tooltip stays open while it is read.
    if (shownTitle !== device.label + "\n" + device.badge) {
      shownTitle = device.label + "\n" + device.badge;
      title.replaceChildren(el("span", { class: "label" }, device.label), badge(device.badge, { tip: true }));
    }
    status.textContent = !device.conversationId ? "No conversation" : device.status === "RESOLVED" ? "Resolved" : "Open";
    statusButton.textContent = device.status === "RESOLVED" ? "Reopen" : "Resolve";
    statusButton.disabled = !device.conversationId;
    typing.textContent = device.typing ? "Customer is typing…" : "";
    const key = transcriptKey(messages, state.members);
    if (key !== shownTranscript) {
      shownTranscript = key;
      clear(transcript);
      if (!messages.length) transcript.append(el("li", { class: "muted" }, "No messages."));
      for (const message of messages) transcript.append(messageItem(message, state.members));
      transcript.scrollTop = transcript.scrollHeight;
    }
    const lastUser = messages.filter((m) => m.sender === "USER").map((m) => m.seq).pop() || 0;
    if (lastUser > seenSeq) { seenSeq = lastUser; api("POST", `devices/${id}/seen`).catch(() => {}); }
    composer.update();
    const { typing: _typing, ...stable } = device;
    const detailsKey = JSON.stringify(stable);
    // A field being edited in the details is not redrawn under the cursor.
    const editing = details.contains(document.activeElement) && ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName);
    if (detailsKey !== shownDetails && !editing) {
      shownDetails = detailsKey;
      renderDetails(details, device, () => refresh());
    }
  }
  stopPolling = poll(refresh, 1000);
  return () => { shown = false; stopPolling(); composer.stop(); };
}
