// `apns.js`: Settings → Apple Push Notifications, the connection (seed 002 "Configure APNs in the dashboard"):
// "I have the key" (.p8, Key ID, Team ID, bundle ID, Connect), Edit connection (Save changes, Replace key optional),
// Disconnect after confirmation, and Send test. Saving sends nothing. The key goes to the emulator once and is never
// shown again: the page only learns that one is saved.

import { api, notify } from "./api.js";
import { el, clear, when, confirmAction } from "./dom.js";
import { sendTestPush } from "./details.js";

const keyLimit = 8192;

/// The form of "I have the key" (`editing` false) or Edit connection (true).
function connectionForm(apns, editing, done) {
  const file = el("input", { type: "file", id: "apns-key-file", accept: ".p8,application/pkcs8,text/plain" });
  const keyId = el("input", { type: "text", id: "apns-key-id", maxlength: 10, autocomplete: "off", value: apns.keyId || "", placeholder: "e.g. ABC123DEFG" });
  const teamId = el("input", { type: "text", id: "apns-team-id", maxlength: 10, autocomplete: "off", value: apns.teamId || "", placeholder: "e.g. DEF123GHIJ" });
  const bundleId = el("input", { type: "text", id: "apns-bundle-id", maxlength: 155, autocomplete: "off", value: apns.bundleId || "", placeholder: "com.example.app" });
  const submit = el("button", { type: "submit" }, editing ? "Save changes" : "Connect");
  const cancel = el("button", { type: "button", class: "quiet", onclick: () => done(false) }, "Cancel");
  const form = el("form", { class: "apns-form", "aria-label": editing ? "Edit connection" : "Connect with your key" },
    el("label", { for: "apns-key-file" }, editing ? "Replace key (.p8), optional" : "Private key (.p8)"), file,
    el("label", { for: "apns-key-id" }, "Key ID"), keyId,
    el("label", { for: "apns-team-id" }, "Team ID"), teamId,
    el("label", { for: "apns-bundle-id" }, "Bundle ID"), bundleId,
    el("p", { class: "small muted" }, editing
      ? "Leave the key empty to keep the saved one. Saving sends no notification."
      : "Saving sends no notification: choose Send test afterwards to try a device."),
    el("p", {}, submit, " ", cancel));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { keyId: keyId.value.trim(), teamId: teamId.value.trim(), bundleId: bundleId.value.trim() };
    if (body.keyId.length !== 10) { notify("The Key ID has exactly 10 characters, as Apple shows it beside the key."); keyId.focus(); return; }
    const chosen = file.files[0];
    if (chosen) {
      if (chosen.size > keyLimit) { notify("That file is too large to be a .p8 key."); return; }
      body.key = await chosen.text();
    } else if (!editing) {
      notify("Choose the .p8 file you downloaded from Apple Developer → Keys."); file.focus(); return;
    }
    try {
      await api("PUT", "apns", body);
    } catch { return; /* the notice says why */ }
    notify(editing ? "Changes saved. No notification was sent." : "Connected. No notification was sent: choose Send test to try a device.", true);
    done(true);
  });
  return form;
}

/// The connection part of the Apple Push Notifications section.
export function apnsConnection(app, reload) {
  const apns = app.apns || {};
  const part = el("div", { id: "apns-connection" });
  const status = () => {
    clear(part);
    if (!apns.connected) {
      part.append(
        el("p", {}, el("strong", { id: "apns-status" }, "Not connected"), apns.keyId
          ? el("span", { class: "small muted" }, " · Key ID " + apns.keyId + ", Team ID " + apns.teamId + ", " + apns.bundleId + " (no key saved)")
          : ""),
        el("p", { class: "small muted" }, "In Apple Developer → Certificates, Identifiers & Profiles → Keys, create a key with Apple Push Notifications service (APNs), environment Sandbox & Production, and download its .p8 file. Reception uses the environment each device reports; there is one key per app."),
        el("p", {}, el("button", { type: "button", onclick: () => { clear(part); part.append(connectionForm(apns, false, (saved) => saved ? reload() : status())); document.getElementById("apns-key-file").focus(); } }, "I have the key"), " ",
          el("button", { type: "button", class: "quiet", onclick: () => sendTestPush(null).catch(() => {}) }, "Send test")));
      return;
    }
    part.append(
      el("p", {}, el("strong", { id: "apns-status" }, "Connected"),
        el("span", { class: "small muted" }, " · key saved " + when(apns.keySavedAt))),
      el("dl", { class: "fields" },
        el("dt", {}, "Key ID"), el("dd", {}, apns.keyId), el("dt", {}, "Team ID"), el("dd", {}, apns.teamId),
        el("dt", {}, "Bundle ID"), el("dd", {}, apns.bundleId)),
      el("p", { class: "small muted" }, "Configured means the credentials are saved; it does not prove delivery. Send test, then confirm the notification on a real device."),
      el("p", {},
        el("button", { type: "button", class: "quiet", onclick: () => { clear(part); part.append(connectionForm(apns, true, (saved) => saved ? reload() : status())); } }, "Edit connection"), " ",
        el("button", { type: "button", onclick: () => sendTestPush(null).catch(() => {}) }, "Send test"), " ",
        el("button", { type: "button", class: "danger", onclick: async () => {
          const ok = await confirmAction("Disconnect APNs?", "Removes the saved key. The Key ID, Team ID, bundle ID and notification content settings stay. Pushes stop until you connect again.", { confirmLabel: "Disconnect", danger: true });
          if (!ok) return;
          await api("DELETE", "apns");
          notify("Disconnected. The key was removed; the identifiers and notification content stay.", true);
          reload();
        } }, "Disconnect")));
  };
  status();
  return part;
}
