// `details.js`: the customer details beside a conversation (identity, custom fields, display name, device, push,
// activity) and the team's actions, each confirmed first; "Send test" with seed 002's device picker.

import { api, notify, isOwner, ownerOnlyNote } from "./api.js";
import { el, clear, badge, when, confirmAction, mailLink } from "./dom.js";

function fields(pairs) {
  const list = el("dl", { class: "fields" });
  for (const [name, value] of pairs) {
    list.append(el("dt", {}, name), el("dd", {}, value === null || value === undefined || value === "" ? "—" : value));
  }
  return list;
}

export function environmentName(value) {
  return value === "PRODUCTION" ? "Production" : value === "SANDBOX" ? "Sandbox" : "—";
}

/// seed 002 "Send test": up to ten eligible devices (a push token and an existing conversation), most
/// recent chat activity first, labelled Sandbox or Production.
export async function sendTestPush(preferred) {
  // The emulator chooses and orders them (GET test-push-devices).
  const { devices: eligible } = await api("GET", "test-push-devices");
  if (!eligible.length) {
    notify("No device can get a test push yet: it needs a push token and an existing conversation. Use the chat on your test device, then try again.");
    return;
  }
  const select = el("select", { id: "test-push-device" }, eligible.map((d) =>
    el("option", { value: d.id, selected: d.id === preferred },
      d.label + " · " + ((d.info && (d.info.deviceModel || d.info.platform)) || "device") + " · " + environmentName(d.pushEnvironment))));
  const extra = el("div", {}, el("label", { for: "test-push-device" }, "Device"), select);
  const ok = await confirmAction("Send test", "Sends a test notification with the saved notification content to the chosen device. It creates no chat message.", { confirmLabel: "Send test", extra });
  if (!ok) return;
  let entry = await api("POST", `devices/${encodeURIComponent(select.value)}/test-push`);
  const alert = entry && entry.payload && entry.payload.aps && entry.payload.aps.alert;
  if (entry.delivery !== "queued") {
    notify("Test push written to the emulator's push outbox (no APNs key is saved, nothing was sent)" + (alert ? ": “" + alert.title + "” — " + alert.body : "."), true);
    return entry;
  }
  notify("Sending the test push to APNs…", true);
  // The provider delivers off the request; follow the entry until APNs answered for good (retries included).
  const deadline = Date.now() + 60000;
  while (entry.delivery === "queued" && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    entry = await api("GET", "push-outbox/" + entry.id);
  }
  notify(deliveryText(entry), entry.delivery === "delivered");
  return entry;
}

/// What became of a push, in words: APNs's acceptance (not proof of display, seed 002) or its last answer.
export function deliveryText(entry) {
  const last = (entry.attempts || [])[entry.attempts.length - 1] || {};
  const answer = (last.status || "no answer") + (last.reason ? " " + last.reason : "");
  switch (entry.delivery) {
    case "delivered": return "APNs accepted the test push (apns-id " + (entry.apnsId || "—") + "). Check the phone: acceptance does not prove it was shown.";
    case "token_dropped": return "APNs refused the device's token (" + answer + "); the token was dropped until the app sends a new one.";
    case "rejected": return "APNs refused the test push (" + answer + ").";
    case "queued": return "APNs has not answered yet; the Push inbox shows each attempt.";
    default: return "Written to the push inbox only.";
  }
}

export function renderDetails(node, device, reload) {
  const id = encodeURIComponent(device.id);
  const info = device.info || {};
  const verified = device.badge === "verified";
  clear(node);
  node.append(el("h2", {}, el("span", { class: "label" }, device.label), badge(device.badge, { tip: true })));
  node.append(el("p", { class: "small" }, el("a", { href: "#/requests/" + id, id: "device-requests" }, "Requests of this device")));
  node.append(el("h3", {}, "Identity"));
  if (verified) {
    node.append(el("p", { class: "small" }, "Verified by an identity token" + (device.verifiedAt ? " on " + when(device.verifiedAt) : "") + ". These are the claims of its latest token."));
    node.append(fields([["User ID", device.verifiedUserId], ["Name", device.verifiedName], ["Email", device.verifiedEmail]]));
  } else {
    if (device.badge === "unverified") node.append(el("p", { class: "small" }, el("strong", {}, "Unverified"), ": labels the app supplied; no identity token verified them."));
    else node.append(el("p", { class: "small muted" }, "Guest: the app supplied no name, email or user ID."));
    node.append(fields([["User ID", device.externalUserId], ["Name", device.name], ["Email", device.email]]));
  }
  const email = mailLink(verified ? device.verifiedEmail : device.email);
  if (email) node.append(el("p", { class: "small" }, email));

  const nameInput = el("input", { type: "text", id: "display-name", maxlength: 200, value: device.displayName || "" });
  const nameForm = el("form", { class: "row" },
    el("label", { for: "display-name" }, "Display name (team)"), nameInput,
    el("button", { type: "submit", class: "quiet" }, "Save name"));
  nameForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    await api("PATCH", `devices/${id}`, { displayName: nameInput.value });
    notify("Display name saved. The SDK's name stays as the app sends it.", true);
    nameInput.blur();
    reload();
  });
  node.append(nameForm);

  node.append(el("h3", {}, "Custom fields"));
  const metadata = Object.entries(device.metadata || {});
  node.append(metadata.length ? fields(metadata) : el("p", { class: "small muted" }, "None"));

  node.append(el("h3", {}, "Device"));
  node.append(fields([
    ["Platform", info.platform], ["App version", [info.appVersion, info.appBuild ? "(" + info.appBuild + ")" : ""].filter(Boolean).join(" ")],
    ["OS", info.osVersion], ["Model", info.deviceModel], ["Locale", info.locale], ["Language", device.language],
    ["Timezone", info.timezone], ["SDK version", info.sdkVersion]]));
  node.append(el("h3", {}, "Push"));
  const rejection = device.pushRejection;
  node.append(fields([
    ["Environment", device.pushToken ? environmentName(device.pushEnvironment) : "Not registered"],
    ["Token", device.pushToken ? "…" + device.pushToken.slice(-8) : "—"],
    // seed 002: a reported rejection stays until a delivery succeeds.
    ["APNs", rejection ? "Rejected: " + rejection.status + (rejection.reason ? " " + rejection.reason : "") + " on " + when(rejection.at) + (rejection.tokenDropped ? " (token dropped)" : "") : "No rejection"]]));
  node.append(el("h3", {}, "Activity"));
  node.append(fields([
    ["In chat", device.inChat ? "Yes" : "No"], ["Last active in chat", when(device.lastActiveInChatAt)],
    ["Review requested", when(device.reviewRequestedAt)],
    ["First seen", when(device.createdAt)], ["Last seen", when(device.lastSeenAt)]]));

  const action = (label, handler, { danger = false, disabled = false } = {}) =>
    el("button", { type: "button", class: danger ? "danger" : "quiet", disabled, onclick: handler }, label);
  node.append(el("h3", {}, "Actions"));
  node.append(el("div", { class: "actions" },
    device.blocked
      ? action("Unblock", async () => {
          if (!await confirmAction("Unblock " + device.label + "?", "The customer can send messages and photos again.", { confirmLabel: "Unblock" })) return;
          await api("POST", `devices/${id}/unblock`); notify("Unblocked.", true); reload();
        })
      : action("Block", async () => {
          if (!await confirmAction("Block " + device.label + "?", "The customer can still read the conversation but cannot send messages or photos; the app replaces its composer with a notice.", { confirmLabel: "Block", danger: true })) return;
          await api("POST", `devices/${id}/block`); notify("Blocked.", true); reload();
        }),
    ...(isOwner() ? ownerActions(device, id, verified, action, reload) : [])));
  if (!isOwner()) node.append(ownerOnlyNote("reset support, mark a customer unverified, delete a device or send a test push"));
}

/// The actions seed 000 and 002 give Owners only (the emulator answers an Agent 403 owner_required).
function ownerActions(device, id, verified, action, reload) {
  return [
    action("Reset support", async () => {
      if (!await confirmAction("Reset support for " + device.label + "?", "Deletes this device's conversations and images but keeps the device, its session, identity, metadata and push token. Clears the block and chat activity. The app clears its chat.", { confirmLabel: "Reset support", danger: true })) return;
      await api("POST", `devices/${id}/reset`); notify("Support reset.", true); reload();
    }),
    action("Mark unverified", async () => {
      if (!await confirmAction("Mark " + device.label + " unverified?", "Clears the verified claims of this device. The next valid identity token verifies it again.", { confirmLabel: "Mark unverified" })) return;
      await api("POST", `devices/${id}/unverify`); notify("Marked unverified.", true); reload();
    }, { disabled: !verified }),
    action("Delete device", async () => {
      if (!await confirmAction("Delete " + device.label + "'s device?", "Removes the device and its support content: conversations, messages and images. The app starts a new chat with its next send. This cannot be undone.", { confirmLabel: "Delete device", danger: true })) return;
      await api("DELETE", `devices/${id}`); notify("Device deleted.", true); location.hash = "#/inbox";
    }, { danger: true }),
    action("Send test push", () => sendTestPush(device.id).catch(() => {}))];
}
