// `console.js`: the developer console (issue 19): the live request log with filters, the faults with "fail the next N",
// the push inbox as a phone shows each push with its JSON, and the state (export, import, reset).

import { api, upload, notify, isOwner, ownerOnlyNote } from "./api.js";
import { el, clear, when, poll, confirmAction } from "./dom.js";
import { sendTestPush } from "./details.js";

function table(label, headings, body) {
  return el("table", { "aria-label": label }, el("thead", {}, el("tr", {}, headings.map((h) => el("th", {}, h)))), body);
}

/// #/requests[/<device>]: newest first, polled every second; filters by device and status.
export function renderRequests(main, device) {
  const deviceInput = el("input", { type: "text", id: "requests-device", placeholder: "dev_…", value: device || "", autocomplete: "off" });
  const statusInput = el("input", { type: "text", id: "requests-status", placeholder: "404 or 4xx", autocomplete: "off" });
  const rows = el("tbody", { id: "requests-rows" });
  main.append(el("h1", {}, "Requests"),
    el("p", { class: "small muted" }, "Every /v1/ request the SDK made, and every request the APNs provider sent to Apple, newest first (the last 5,000). Tokens, secrets, keys and body values are never kept: a body shows its size and keys."),
    el("form", { class: "row", onsubmit: (e) => e.preventDefault() },
      el("label", { for: "requests-device" }, "Device"), deviceInput,
      el("label", { for: "requests-status" }, "Status"), statusInput),
    table("Requests", ["Time", "Method", "Path", "Status", "Error", "Device", "Duration", "Body", "Fault"], rows));
  async function load() {
    const query = new URLSearchParams({ limit: "200" });
    if (deviceInput.value.trim()) query.set("device", deviceInput.value.trim());
    if (statusInput.value.trim()) query.set("status", statusInput.value.trim());
    const { requests } = await api("GET", "requests?" + query.toString());
    clear(rows);
    if (!requests.length) rows.append(el("tr", {}, el("td", { colspan: 9, class: "muted" }, "No requests match.")));
    for (const r of requests) {
      const search = Object.entries(r.query || {}).map(([k, v]) => k + "=" + v).join("&");
      rows.append(el("tr", { class: r.status >= 400 || r.status === 0 ? "request failed" : "request" },
        el("td", {}, when(r.at)), el("td", {}, r.direction === "apns" ? "APNs " + r.method : r.method),
        el("td", { class: "path" }, r.path + (search ? "?" + search : "") + (r.apnsId ? " · apns-id " + r.apnsId : "")),
        el("td", { class: "status", title: r.committedStatus ? "Dropped: the emulator committed " + r.committedStatus + " and sent nothing" : null },
          String(r.status) + (r.committedStatus ? " (committed " + r.committedStatus + ")" : "")), el("td", {}, r.errorCode || ""),
        el("td", {}, r.deviceId ? el("a", { href: "#/conversation/" + encodeURIComponent(r.deviceId) }, r.deviceId) : "—"),
        el("td", {}, r.durationMs + " ms"),
        el("td", { class: "small" }, r.body.bytes ? r.body.bytes + " B" + (r.body.keys.length ? ": " + r.body.keys.join(", ") : "") : "—"),
        el("td", {}, r.fault || "")));
    }
  }
  deviceInput.addEventListener("input", () => load().catch(() => {}));
  statusInput.addEventListener("input", () => load().catch(() => {}));
  return poll(load, 1000);
}

/// #/faults: the queued faults, a form to add one, and "fail the next N".
export function renderFaults(main) {
  const rows = el("tbody", { id: "fault-rows" });
  const path = el("input", { type: "text", id: "fault-path", value: "/v1/*", required: true });
  const method = el("select", { id: "fault-method" }, ["", "GET", "POST", "PATCH", "PUT", "DELETE"].map((m) => el("option", { value: m }, m || "Any")));
  const device = el("input", { type: "text", id: "fault-device", placeholder: "any device" });
  const kind = el("select", { id: "fault-kind" }, [["status", "Fail with a status"], ["delay", "Delay"], ["drop", "Drop after committing"], ["garble", "Garble after committing"]].map(([v, t]) => el("option", { value: v }, t)));
  const status = el("input", { type: "number", id: "fault-status", value: 503, min: 400, max: 599 });
  const delay = el("input", { type: "number", id: "fault-delay", value: 1000, min: 0, max: 60000 });
  const jitter = el("input", { type: "number", id: "fault-jitter", value: 0, min: 0, max: 60000 });
  const probability = el("input", { type: "number", id: "fault-probability", value: 1, min: 0, max: 1, step: 0.05 });
  const count = el("input", { type: "number", id: "fault-count", value: 1, min: 1 });
  const nextN = el("input", { type: "number", id: "fail-next-n", value: 3, min: 1 });
  async function load() {
    const { faults } = await api("GET", "faults");
    clear(rows);
    if (!faults.length) rows.append(el("tr", {}, el("td", { colspan: 7, class: "muted" }, "No faults: every request is answered normally.")));
    for (const f of faults) {
      const what = f.kind === "status" ? f.status + " " + f.code : f.kind === "delay" ? f.delayMs + " ms" + (f.jitterMs ? " + 0…" + f.jitterMs + " ms" : "") : f.kind;
      rows.append(el("tr", { class: "fault" }, el("td", {}, (f.method || "Any") + " " + f.path), el("td", {}, f.device || "any"),
        el("td", {}, f.kind), el("td", {}, what), el("td", {}, String(f.probability)),
        el("td", {}, f.count === null ? "until removed" : String(f.count)),
        el("td", {}, el("button", { type: "button", class: "quiet", onclick: async () => { await api("DELETE", "faults/" + encodeURIComponent(f.id)); load(); } }, "Remove"))));
    }
  }
  async function add(body) { await api("POST", "faults", body); notify("Fault added.", true); await load(); }
  const form = el("form", { class: "stack", id: "fault-form", onsubmit: (e) => {
    e.preventDefault();
    const body = { path: path.value.trim(), kind: kind.value, probability: Number(probability.value), count: Number(count.value) };
    if (method.value) body.method = method.value;
    if (device.value.trim()) body.device = device.value.trim();
    if (kind.value === "status") body.status = Number(status.value);
    if (kind.value === "delay") { body.delayMs = Number(delay.value); body.jitterMs = Number(jitter.value); }
    add(body).catch(() => {});
  } },
    el("label", { for: "fault-path" }, "Path (exact, or a prefix ending in *)"), path,
    el("label", { for: "fault-method" }, "Method"), method, el("label", { for: "fault-device" }, "Device ID"), device,
    el("label", { for: "fault-kind" }, "Kind"), kind, el("label", { for: "fault-status" }, "Status"), status,
    el("label", { for: "fault-delay" }, "Delay (ms)"), delay, el("label", { for: "fault-jitter" }, "Jitter (ms)"), jitter,
    el("label", { for: "fault-probability" }, "Probability (0–1)"), probability,
    el("label", { for: "fault-count" }, "Times"), count,
    el("button", { type: "submit", id: "fault-add" }, "Add fault"));
  main.append(el("h1", {}, "Faults"),
    el("p", { class: "small muted" }, "Break the network on purpose and watch the app recover. The admin API and this dashboard are never affected."),
    el("form", { class: "row", onsubmit: (e) => { e.preventDefault(); add({ path: "/v1/*", kind: "status", status: 503, count: Number(nextN.value) }).catch(() => {}); } },
      el("label", { for: "fail-next-n" }, "Fail the next"), nextN, el("span", {}, "requests with 503"),
      el("button", { type: "submit", id: "fail-next" }, "Fail them")),
    table("Faults", ["Request", "Device", "Kind", "Does", "Probability", "Left", ""], rows),
    el("h2", {}, "Add a fault"), form,
    el("button", { type: "button", class: "danger", id: "faults-clear", onclick: async () => { await api("DELETE", "faults"); notify("All faults removed.", true); load(); } }, "Remove all faults"));
  return poll(load, 2000);
}

/// #/push: the push outbox as a phone shows each push, with its JSON beside it.
/// One outbox entry's fate: only written here (no key), or what APNs made of it.
function deliveryLine(p) {
  const names = { outbox: "Push inbox only (no APNs key saved)", queued: "Sending to APNs…", delivered: "Delivered to APNs",
    token_dropped: "Refused: token dropped", rejected: "Refused by APNs" };
  return (names[p.delivery] || p.delivery) + (p.apnsId ? " · apns-id " + p.apnsId : "");
}

export function renderPush(main) {
  const list = el("div", { id: "push-list" });
  const filter = el("input", { type: "text", id: "push-device", placeholder: "any device", autocomplete: "off" });
  let appName = "App";
  main.append(el("h1", {}, "Push inbox"),
    el("p", { class: "small muted" }, "Every push the emulator produced, newest first, as the phone shows it; with an APNs key saved, each attempt to deliver it, its status and apns-id."),
    el("form", { class: "row", onsubmit: (e) => e.preventDefault() }, el("label", { for: "push-device" }, "Device"), filter,
      isOwner() ? el("button", { type: "button", id: "push-send-test", onclick: () => sendTestPush(filter.value.trim() || null).then(load).catch(() => {}) }, "Send test") : null,
      el("button", { type: "button", class: "quiet", id: "push-clear", onclick: async () => { await api("DELETE", "push-outbox"); load(); } }, "Empty the inbox")),
    list);
  async function load() {
    const [{ pushes }, app] = await Promise.all([api("GET", "push-outbox"), api("GET", "app")]);
    appName = (app.push && app.push.appName) || appName;
    clear(list);
    const shown = pushes.filter((p) => !filter.value.trim() || p.deviceId === filter.value.trim()).reverse();
    if (!shown.length) list.append(el("p", { class: "muted" }, "No pushes yet."));
    for (const p of shown) {
      const aps = (p.payload && p.payload.aps) || {};
      const alert = aps.alert || {};
      const phone = el("div", { class: "phone-push", "aria-label": "Push as the phone shows it" },
        el("div", { class: "push-app" }, appName, el("span", { class: "muted" }, " · " + when(p.createdAt))),
        el("strong", { class: "push-title" }, alert.title || ""), el("div", { class: "push-body" }, alert.body || ""),
        el("div", { class: "small muted" },
          "Badge: " + (aps.badge === undefined ? "unchanged" : aps.badge) + " · Sound: " + (aps.sound || "none") +
          " · Thread: " + (aps["thread-id"] || "—") + (p.test ? " · Test" : "")));
      list.append(el("section", { class: "push-entry" },
        el("div", {}, phone, el("p", { class: "small" }, "To ", el("a", { href: "#/conversation/" + encodeURIComponent(p.deviceId) }, p.deviceId), " · " + (p.pushEnvironment || "—"))),
        el("div", {}, el("p", { class: "small push-delivery" }, deliveryLine(p)),
          el("ul", { class: "small push-attempts", "aria-label": "APNs attempts" }, (p.attempts || []).map((a) =>
            el("li", {}, "Attempt " + a.attempt + ": " + (a.status || "no answer") + (a.reason ? " " + a.reason : "") +
              (a.apnsId ? " · apns-id " + a.apnsId : "") + " · " + when(a.at)))),
          el("pre", { class: "push-json" }, JSON.stringify(p.payload, null, 2)))));
    }
  }
  filter.addEventListener("input", () => load().catch(() => {}));
  return poll(load, 2000);
}

/// #/state: export, import and reset.
export function renderState(main) {
  if (!isOwner()) {
    main.append(el("h1", {}, "State"), ownerOnlyNote("export, import or reset the emulator's state (a snapshot holds the credentials and the identity secret)"));
    return;
  }
  const file = el("input", { type: "file", id: "snapshot-file", accept: "application/json,.json" });
  main.append(el("h1", {}, "State"),
    el("h2", {}, "Export"),
    el("p", {}, "One file with the whole state: credentials, settings, devices, sessions, conversations, messages and images."),
    el("button", { type: "button", id: "snapshot-export", onclick: async () => {
      const response = await fetch("/dashboard/api/snapshot", { credentials: "same-origin", cache: "no-store" });
      if (!response.ok) { notify("The export failed (" + response.status + ")."); return; }
      const url = URL.createObjectURL(await response.blob());
      const link = el("a", { href: url, download: "reception-snapshot.json" });
      document.body.append(link); link.click(); link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
      notify("Snapshot exported.", true);
    } }, "Export snapshot"),
    el("h2", {}, "Import"),
    el("p", {}, "Replaces the whole state, credentials included, with a snapshot file. A bad or truncated file changes nothing."),
    el("form", { class: "row", onsubmit: async (e) => {
      e.preventDefault();
      if (!file.files.length) { notify("Choose a snapshot file first."); return; }
      if (!await confirmAction("Import this snapshot?", "Replaces every device, conversation and setting, and the credentials, with the file's.", { confirmLabel: "Import", danger: true })) return;
      try { await upload("PUT", "snapshot", file.files[0], "application/json"); } catch { return; }
      notify("Snapshot imported.", true);
      setTimeout(() => location.reload(), 500);
    } }, el("label", { for: "snapshot-file" }, "Snapshot file"), file, el("button", { type: "submit", id: "snapshot-import" }, "Import snapshot")),
    el("h2", {}, "Reset"),
    el("p", {}, "Deletes every device, conversation, image, push and logged request. The App ID, admin token, identity secret and settings stay."),
    el("button", { type: "button", class: "danger", id: "state-reset", onclick: async () => {
      if (!await confirmAction("Reset the emulator?", "Deletes every device, conversation, image, push and logged request. This cannot be undone.", { confirmLabel: "Reset", danger: true })) return;
      await api("POST", "reset"); notify("The emulator was reset.", true);
    } }, "Reset emulator"));
}
