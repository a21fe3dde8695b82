// `settings.js`: identity verification (seed 000), the app switch and review-card App Store ID, team members with
// photos, Apple Push Notifications (its connection and Send test are `apns.js`) with notification content and its
// preview (seed 002), rate limits and unread polling stages (spec 4.7, 6.3.1). Chat appearance is `appearance.js`.

import { api, notify, isOwner, ownerOnlyNote } from "./api.js";
import { el, clear, when, confirmAction, base64FromFile } from "./dom.js";
import { appearanceSection } from "./appearance.js";
import { apnsConnection } from "./apns.js";
import { setupPromptControl, serverHints } from "./identity.js";

const scopes = ["messages", "uploads", "requests", "session", "stream"];
const pushLanguages = ["en", "de", "fr", "fr-CA", "es", "es-419", "it", "pt-BR", "pt-PT", "ca", "ro", "nl", "sv", "da",
  "nb", "fi", "pl", "cs", "sk", "hu", "sl", "hr", "el", "uk", "ru", "tr", "ja", "ko", "zh-Hans", "zh-Hant", "zh-HK",
  "th", "vi", "id", "ms", "hi", "bn", "gu", "kn", "ml", "mr", "or", "pa", "ta", "te", "ur", "ar", "he"];

function checkbox(id, label, checked, onchange) {
  const box = el("input", { type: "checkbox", id, checked });
  box.addEventListener("change", () => onchange(box.checked, box));
  return el("label", { class: "inline", for: id }, box, label);
}

function identitySection(app, reload) {
  const secret = el("code", { id: "identity-secret" }, "••••••••••••");
  const reveal = el("button", { type: "button", class: "quiet" }, "Reveal");
  reveal.addEventListener("click", () => {
    const shown = reveal.textContent === "Hide";
    secret.textContent = shown ? "••••••••••••" : (app.identitySecret || "(none)");
    reveal.textContent = shown ? "Reveal" : "Hide";
  });
  const regenerate = el("button", { type: "button", class: "danger" }, "Regenerate secret");
  regenerate.addEventListener("click", async () => {
    const answer = await confirmAction("Regenerate the identity secret?",
      "Tokens signed with the old secret stop working immediately. Chats that are already verified stay verified unless you also mark them unverified.",
      { confirmLabel: "Regenerate secret", danger: true, checkbox: "Also mark existing users as unverified" });
    if (!answer) return;
    await api("POST", "identity-secret", { markUnverified: answer.checked });
    notify("New secret created. Update RECEPTION_IDENTITY_SECRET on your server.", true);
    reload();
  });
  return el("section", { "aria-labelledby": "identity-heading", id: "identity-verification" },
    el("h2", { id: "identity-heading", tabindex: -1 }, "Identity verification"),
    setupPromptControl(app.appId),
    el("p", {}, "Secret: ", secret, " ", reveal, " ", regenerate),
    serverHints(),
    checkbox("only-verified", "Only verified users can chat", app.onlyVerifiedUsers, async (on) => {
      await api("PATCH", "app", { onlyVerifiedUsers: on }); notify(on ? "Only verified users can chat." : "Everyone can chat.", true);
    }),
    el("p", { class: "small muted" }, "Last user verified: " + (app.lastVerifiedAt ? when(app.lastVerifiedAt) : "never")));
}

/// What an Agent sees of Settings → Identity verification: what it is for and when the last user was verified; the
/// secret and its management are the Owners' (seed 000).
function agentIdentitySection(app) {
  return el("section", { "aria-labelledby": "identity-heading", id: "identity-verification" },
    el("h2", { id: "identity-heading", tabindex: -1 }, "Identity verification"),
    ownerOnlyNote("reveal, regenerate or manage the identity secret and choose who may chat"),
    el("p", { class: "small muted" }, "Last user verified: " + (app.lastVerifiedAt ? when(app.lastVerifiedAt) : "never")));
}

/// A section an Agent sees only as its heading and why its controls are missing.
function ownerOnlySection(id, title, what) {
  return el("section", { "aria-labelledby": id }, el("h2", { id }, title), ownerOnlyNote(what));
}

function appSection(app) {
  const storeId = el("input", { type: "text", id: "app-store-id", inputmode: "numeric", value: app.appStoreId || "", placeholder: "e.g. 1234567890" });
  const save = el("button", { type: "button", class: "quiet" }, "Save App Store ID");
  save.addEventListener("click", async () => {
    await api("PATCH", "app", { appStoreId: storeId.value.trim() || null }); notify("App Store ID saved.", true);
  });
  return el("section", { "aria-labelledby": "app-heading" },
    el("h2", { id: "app-heading" }, "App"),
    el("p", { class: "small" }, "App ID: ", el("code", {}, app.appId)),
    checkbox("app-disabled", "Disable the app (every device request answers 403 app_disabled)", app.disabled, async (on, box) => {
      if (on && !await confirmAction("Disable the app?", "Every device request answers 403 app_disabled until you turn it on again.", { confirmLabel: "Disable", danger: true })) { box.checked = false; return; }
      await api("PATCH", "app", { disabled: on }); notify(on ? "App disabled." : "App enabled.", true);
    }),
    el("label", { for: "app-store-id" }, "App Store ID (the default review URL of review cards)"), storeId, " ", save);
}

/// Team members for an Agent: who is in the team, with roles; managing it is the Owners'.
function agentTeamSection(members) {
  return el("section", { "aria-labelledby": "team-heading" },
    el("h2", { id: "team-heading" }, "Team members"),
    ownerOnlyNote("invite or remove members, change roles, names and photos"),
    el("table", { "aria-label": "Team members" }, el("thead", {}, el("tr", {}, ["Name", "ID", "Role"].map((h) => el("th", {}, h)))),
      el("tbody", {}, members.map((m) => el("tr", {}, el("td", {}, m.name), el("td", {}, m.id), el("td", {}, roleName(m.role)))))));
}

function roleName(role) { return role === "owner" ? "Owner" : "Agent"; }

/// "Invite member" (seed 000 roles): a name and a role; the answer's sign-in link is shown for the Owner to pass on.
function inviteForm(reload) {
  const name = el("input", { type: "text", id: "invite-name", maxlength: 200 });
  const role = el("select", { id: "invite-role" }, el("option", { value: "agent" }, "Agent"), el("option", { value: "owner" }, "Owner"));
  const link = el("p", { class: "small", id: "invite-link", hidden: true });
  const form = el("form", { class: "row", "aria-label": "Invite member" },
    el("div", {}, el("label", { for: "invite-name" }, "Name"), name),
    el("div", {}, el("label", { for: "invite-role" }, "Role"), role),
    el("button", { type: "submit" }, "Invite member"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const answer = await api("POST", "team/members", { name: name.value.trim(), role: role.value });
    notify(answer.member.name + " was invited as " + roleName(answer.member.role) + ". Pass on their sign-in link.", true);
    sessionStorage.setItem("invite-link", JSON.stringify({ name: answer.member.name, url: answer.signInURL }));
    reload();
  });
  // The link of the last invitation survives the redraw that follows it.
  const last = JSON.parse(sessionStorage.getItem("invite-link") || "null");
  if (last) {
    link.hidden = false;
    link.append("Sign-in link for " + last.name + ": ", el("code", { id: "invite-url" }, last.url));
  }
  return el("div", {}, el("h3", {}, "Invite member"), form, link);
}

function teamSection(members, reload) {
  const rows = el("tbody");
  const draft = members.map((m) => ({ id: m.id, name: m.name, role: m.role || "agent", photoUrl: m.photoUrl, photo: undefined }));
  function draw() {
    clear(rows);
    draft.forEach((member, index) => {
      const name = el("input", { type: "text", value: member.name, "aria-label": "Name of " + member.id });
      name.addEventListener("input", () => { member.name = name.value; });
      const idInput = el("input", { type: "text", value: member.id, "aria-label": "ID of member " + (index + 1) });
      idInput.addEventListener("input", () => { member.id = idInput.value; });
      const role = el("select", { "aria-label": "Role of " + (member.name || member.id) },
        el("option", { value: "agent", selected: member.role !== "owner" }, "Agent"), el("option", { value: "owner", selected: member.role === "owner" }, "Owner"));
      role.addEventListener("change", () => { member.role = role.value; });
      const file = el("input", { type: "file", accept: "image/jpeg,image/png", "aria-label": "Photo of " + (member.name || member.id) });
      file.addEventListener("change", async () => {
        const chosen = file.files[0];
        if (!chosen) return;
        if (chosen.size > 524288) { notify("A team photo is at most 512 KiB."); file.value = ""; return; }
        member.photo = await base64FromFile(chosen);
        member.photoUrl = URL.createObjectURL(chosen);
        draw();
      });
      rows.append(el("tr", {},
        el("td", {}, member.photoUrl && member.photo !== null ? el("img", { class: "team-photo", src: member.photoUrl, alt: "Photo of " + member.name }) : el("span", { class: "team-photo", "aria-label": "No photo" })),
        el("td", {}, idInput), el("td", {}, name), el("td", {}, role), el("td", {}, file),
        el("td", {},
          el("button", { type: "button", class: "quiet", "aria-label": "Sign-in link of " + (member.name || member.id), onclick: async () => {
            const answer = await api("POST", "team/members/" + encodeURIComponent(member.id) + "/sign-in-link");
            sessionStorage.setItem("invite-link", JSON.stringify({ name: member.name, url: answer.signInURL }));
            reload();
          } }, "Sign-in link"),
          el("button", { type: "button", class: "quiet", onclick: () => { member.photo = null; member.photoUrl = null; draw(); } }, "Remove photo"),
          el("button", { type: "button", class: "quiet", onclick: () => { draft.splice(index, 1); draw(); } }, "Remove member"))));
    });
  }
  draw();
  const add = el("button", { type: "button", class: "quiet", onclick: () => { draft.push({ id: "member" + (draft.length + 1), name: "", photoUrl: null }); draw(); } }, "Add member");
  const save = el("button", { type: "button" }, "Save team");
  save.addEventListener("click", async () => {
    const payload = draft.map((m) => {
      const entry = { id: m.id.trim(), name: m.name.trim(), role: m.role };
      if (m.photo !== undefined) entry.photo = m.photo;
      return entry;
    });
    await api("PUT", "team", { members: payload }); notify("Team saved.", true); reload();
  });
  return el("section", { "aria-labelledby": "team-heading" },
    el("h2", { id: "team-heading" }, "Team members"),
    el("p", { class: "small muted" }, "Each member is an Owner (manages the app: identity secret, APNs key, app settings, the team) or an Agent (works the inbox, the conversations and the customer details); the team always keeps an Owner. Members are the authors of replies: photos (JPEG or PNG, at most 512 KiB) and names show in the app when Chat appearance turns them on. Removing a member (then Save team) signs them out."),
    el("table", { "aria-label": "Team members" }, el("thead", {}, el("tr", {}, ["Photo", "ID", "Name", "Role", "New photo", ""].map((h) => el("th", {}, h)))), rows),
    el("p", {}, add, " ", save),
    inviteForm(reload));
}

function notificationSection(app, reload) {
  const push = app.push || {};
  const counter = (input, limit) => {
    const count = el("span", { class: "counter" });
    const update = () => { count.textContent = input.value.length + " / " + limit; count.classList.toggle("over", input.value.length > limit); };
    input.addEventListener("input", update); update();
    return count;
  };
  // Seed 002: Title and Message are overrides of the chosen preview language only, never translated.
  const edits = { en: { title: push.titleTemplate || "", body: push.bodyTemplate || "" } };
  for (const [tag, t] of Object.entries(push.templates || {})) if (tag !== "en") edits[tag] = { title: t.title || "", body: t.body || "" };
  let language = "en";
  const languagePicker = el("select", { id: "push-language" }, pushLanguages.map((tag) => el("option", { value: tag }, tag)));
  const title = el("input", { type: "text", id: "push-title", maxlength: 120, value: edits.en.title, placeholder: "New message" });
  const body = el("input", { type: "text", id: "push-body", maxlength: 120, value: edits.en.body, placeholder: "{message}" });
  const keep = () => { edits[language] = { title: title.value, body: body.value }; };
  title.addEventListener("input", keep); body.addEventListener("input", keep);
  languagePicker.addEventListener("change", () => {
    language = languagePicker.value;
    const e = edits[language] || { title: "", body: "" };
    title.value = e.title; body.value = e.body;
    title.placeholder = language === "en" ? "New message" : "(built-in " + language + " text)";
    title.dispatchEvent(new Event("input")); body.dispatchEvent(new Event("input"));
  });
  const sender = el("input", { type: "text", id: "push-sender", maxlength: 60, value: push.senderName || "", placeholder: "Support" });
  const appName = el("input", { type: "text", id: "push-app-name", value: push.appName || "" });
  const flags = {
    configured: el("input", { type: "checkbox", id: "push-configured", checked: push.configured }),
    showMessage: el("input", { type: "checkbox", id: "push-show-message", checked: push.showMessage }),
    sound: el("input", { type: "checkbox", id: "push-sound", checked: push.sound }),
    offerPushes: el("input", { type: "checkbox", id: "push-offer", checked: push.offerPushes }),
  };
  const previewTitle = el("strong", {}), previewBody = el("span", {});
  const insert = (input) => el("span", {}, "Insert: ", ["{agent}", "{message}", "{app}"].map((token) =>
    el("button", { type: "button", class: "quiet", "aria-label": "Insert " + token + " into " + input.id, onclick: () => {
      const start = input.selectionStart ?? input.value.length, end = input.selectionEnd ?? input.value.length;
      const next = input.value.slice(0, start) + token + input.value.slice(end);
      if (next.length > 120) { notify("A template has at most 120 characters."); return; }
      input.value = next; input.focus(); input.dispatchEvent(new Event("input"));
    } }, token)));
  const draft = () => {
    const templates = {};
    for (const [tag, e] of Object.entries(edits)) {
      if (tag !== "en") templates[tag] = e.title || e.body ? { title: e.title || null, body: e.body || null } : null;
    }
    return {
      titleTemplate: edits.en.title || null, bodyTemplate: edits.en.body || null, templates,
      senderName: sender.value.trim() || null, appName: appName.value, configured: flags.configured.checked,
      showMessage: flags.showMessage.checked, sound: flags.sound.checked, offerPushes: flags.offerPushes.checked };
  };
  let previewTimer = null;
  const preview = () => {
    clearTimeout(previewTimer);
    previewTimer = setTimeout(async () => {
      try {
        const answer = await api("POST", "push-preview", { push: draft(), language });
        previewTitle.textContent = answer.title; previewBody.textContent = answer.body;
      } catch { /* the notice says why */ }
    }, 200);
  };
  for (const input of [title, body, sender, appName, ...Object.values(flags)]) input.addEventListener("input", preview);
  for (const box of Object.values(flags)) box.addEventListener("change", preview);
  preview();
  const save = el("button", { type: "button" }, "Save");
  save.addEventListener("click", async () => { await api("PATCH", "app", { push: draft() }); notify("Notification content saved.", true); reload(); });
  const cancel = el("button", { type: "button", class: "quiet", onclick: () => reload() }, "Cancel");
  const reset = el("button", { type: "button", class: "quiet", onclick: () => { title.value = ""; body.value = ""; title.dispatchEvent(new Event("input")); body.dispatchEvent(new Event("input")); } }, "Reset text to default");
  const box = (key, label) => el("label", { class: "inline", for: flags[key].id }, flags[key], label);
  return el("section", { "aria-labelledby": "push-heading" },
    el("h2", { id: "push-heading" }, "Apple Push Notifications"),
    apnsConnection(app, reload),
    box("configured", "Without a key, still write pushes to the Push inbox (simulated credentials; nothing is sent)"),
    el("label", { for: "push-app-name" }, "App name (the title when a rendered title is empty)"), appName,
    el("h3", {}, "Notification content"),
    el("p", { class: "small muted" }, "Pushes use the device's app language (else its locale, else English). Title and Message override the preview language only and are not translated."),
    el("label", { for: "push-language" }, "Preview language"), languagePicker,
    el("div", { class: "grid" },
      el("div", {}, el("label", { for: "push-title" }, "Title"), title, counter(title, 120), el("div", {}, insert(title))),
      el("div", {}, el("label", { for: "push-body" }, "Message"), body, counter(body, 120), el("div", {}, insert(body))),
      el("div", {}, el("label", { for: "push-sender" }, "Sender name"), sender, counter(sender, 60))),
    box("showMessage", "Show message"), box("sound", "Sound"), box("offerPushes", "Offer pushes (paywall cards also send a push)"),
    el("h3", {}, "Preview (a reply with two photos; nothing is sent)"),
    el("div", { class: "push-preview", "aria-label": "Notification preview" }, previewTitle, previewBody),
    el("p", {}, save, " ", cancel, " ", reset));
}

function limitsSection(app, reload, owner) {
  const rows = el("tbody");
  const inputs = {};
  for (const scope of scopes) {
    const current = (app.rateLimits || {})[scope] || {};
    const limit = el("input", { type: "number", min: 0, max: 2147483647, value: current.limit ?? "", "aria-label": scope + " limit", placeholder: "no limit" });
    const windowSeconds = el("input", { type: "number", min: 1, max: 86400, value: current.windowSeconds ?? "", "aria-label": scope + " window in seconds", placeholder: "60" });
    inputs[scope] = { limit, windowSeconds };
    rows.append(el("tr", {}, el("td", {}, scope), el("td", {}, limit), el("td", {}, windowSeconds)));
  }
  const save = el("button", { type: "button" }, "Save rate limits");
  save.addEventListener("click", async () => {
    const body = {};
    for (const scope of scopes) {
      const { limit, windowSeconds } = inputs[scope];
      body[scope] = limit.value === "" ? null : { limit: Number(limit.value), windowSeconds: Number(windowSeconds.value || 60) };
    }
    await api("PUT", "rate-limits", body); notify("Rate limits saved.", true); reload();
  });

  let stages = (app.unreadPolling || []).map((s) => ({ ...s }));
  const stageRows = el("tbody");
  function drawStages() {
    clear(stageRows);
    stages.forEach((stage, index) => {
      const minutes = el("input", { type: "number", min: 0, max: 2147483647, value: stage.forMinutes, "aria-label": "Stage " + (index + 1) + " for minutes" });
      const seconds = el("input", { type: "number", min: -2147483648, max: 2147483647, value: stage.everySeconds, "aria-label": "Stage " + (index + 1) + " every seconds" });
      minutes.addEventListener("input", () => { stage.forMinutes = Number(minutes.value); });
      seconds.addEventListener("input", () => { stage.everySeconds = Number(seconds.value); });
      stageRows.append(el("tr", {}, el("td", {}, minutes), el("td", {}, seconds),
        el("td", {}, el("button", { type: "button", class: "quiet", onclick: () => { stages.splice(index, 1); drawStages(); } }, "Remove"))));
    });
    if (!stages.length) stageRows.append(el("tr", {}, el("td", { colspan: 3, class: "muted" }, "The SDK's default stages.")));
  }
  drawStages();
  const addStage = el("button", { type: "button", class: "quiet", onclick: () => { stages.push({ forMinutes: 5, everySeconds: 15 }); drawStages(); } }, "Add stage");
  const saveStages = el("button", { type: "button" }, "Save polling stages");
  saveStages.addEventListener("click", async () => {
    await api("PATCH", "app", { unreadPolling: stages.length ? stages : null }); notify("Unread polling stages saved.", true); reload();
  });
  return el("section", { "aria-labelledby": "limits-heading" },
    el("h2", { id: "limits-heading" }, "Rate limits"),
    el("p", { class: "small muted" }, "Requests per window per device (registration counts per app). Empty: no limit."),
    el("table", { "aria-label": "Rate limits" }, el("thead", {}, el("tr", {}, ["Scope", "Limit", "Window (s)"].map((h) => el("th", {}, h)))), rows),
    el("p", {}, save),
    el("h2", {}, "Unread polling stages"),
    el("p", { class: "small muted" }, "While the chat is closed the SDK polls the unread count every N seconds for the stage's minutes; 0 or less stops polling."),
    el("table", { "aria-label": "Unread polling stages" }, el("thead", {}, el("tr", {}, ["For minutes", "Every seconds", ""].map((h) => el("th", {}, h)))), stageRows),
    owner ? el("p", {}, addStage, " ", saveStages) : ownerOnlyNote("change the unread polling stages (an app setting)"));
}

/// `#/settings`, or `#/settings/identity` (the Unverified badge's link): the page scrolled to that section.
export function render(main, section) {
  const page = el("div", { class: "settings" });
  main.append(el("h1", {}, "Settings"), page);
  async function load() {
    const [app, team, appearance] = await Promise.all([api("GET", "app"), api("GET", "team"), api("GET", "appearance")]);
    clear(page);
    const owner = isOwner();
    page.append(owner ? identitySection(app, load) : agentIdentitySection(app),
      owner ? appSection(app) : ownerOnlySection("app-heading", "App", "disable the app or set its App Store ID"),
      appearanceSection(appearance, load),
      owner ? teamSection(team.members, load) : agentTeamSection(team.members),
      owner ? notificationSection(app, load)
        : ownerOnlySection("push-heading", "Apple Push Notifications", "connect the APNs key, edit notification content, turn on offer pushes or send a test push"),
      limitsSection(app, load, owner));
  }
  load().then(() => {
    if (section !== "identity") return;
    document.getElementById("identity-verification").scrollIntoView({ block: "start" });
    document.getElementById("identity-heading").focus({ preventScroll: true });
  }).catch(() => {});
}
