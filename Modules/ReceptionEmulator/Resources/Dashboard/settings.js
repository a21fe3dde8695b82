// `settings.js`: identity verification (seed 000), the app switch, Review & Offer CTAs (the review cards' App Store ID,
// offer pushes), team members with photos, Apple Push Notifications (its connection and Send test are `apns.js`) with
// notification content, its Customize step and preview (seed 002), rate limits and unread polling stages (spec 4.7,
// 6.3.1). Chat appearance is `appearance.js`.

import { api, notify, isOwner, ownerOnlyNote, whileBusy } from "./api.js";
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

/// "Last user verified" (seed 000: the section shows when the last user was verified, so a deploy can be checked):
/// when an identity token last verified a device of this app, or "never".
function lastVerifiedLine(app) {
  return el("p", { class: "small muted", id: "last-verified" }, "Last user verified: ", app.lastVerifiedAt
    ? el("time", { datetime: app.lastVerifiedAt }, when(app.lastVerifiedAt)) : "never");
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
    lastVerifiedLine(app));
}

/// What an Agent sees of Settings → Identity verification: what it is for and when the last user was verified; the
/// secret and its management are the Owners' (seed 000).
function agentIdentitySection(app) {
  return el("section", { "aria-labelledby": "identity-heading", id: "identity-verification" },
    el("h2", { id: "identity-heading", tabindex: -1 }, "Identity verification"),
    ownerOnlyNote("reveal, regenerate or manage the identity secret and choose who may chat"),
    lastVerifiedLine(app));
}

/// A section an Agent sees only as its heading and why its controls are missing.
function ownerOnlySection(id, title, what) {
  return el("section", { "aria-labelledby": id }, el("h2", { id }, title), ownerOnlyNote(what));
}

function appSection(app) {
  return el("section", { "aria-labelledby": "app-heading" },
    el("h2", { id: "app-heading" }, "App"),
    el("p", { class: "small" }, "App ID: ", el("code", {}, app.appId)),
    checkbox("app-disabled", "Disable the app (every device request answers 403 app_disabled)", app.disabled, async (on, box) => {
      if (on && !await confirmAction("Disable the app?", "Every device request answers 403 app_disabled until you turn it on again.", { confirmLabel: "Disable", danger: true })) { box.checked = false; return; }
      await api("PATCH", "app", { disabled: on }); notify(on ? "App disabled." : "App enabled.", true);
    }));
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

/// Seed 002's substitutions, offered by each template's Insert menu.
const substitutions = [["{agent}", "the sender name"], ["{message}", "the reply's preview"], ["{app}", "the app name"]];

/// The Insert menu of a template field (seed 002): a button that opens a menu of {agent}, {message} and {app}; the
/// chosen one replaces the field's selection (or goes in at its cursor), within the 120-character limit.
function insertMenu(input, name) {
  const menuId = input.id + "-insert-menu";
  const button = el("button", { type: "button", class: "quiet", id: input.id + "-insert", "aria-haspopup": "menu",
    "aria-expanded": "false", "aria-controls": menuId, "aria-label": "Insert into " + name }, "Insert ▾");
  const items = substitutions.map(([token, meaning]) =>
    el("button", { type: "button", role: "menuitem", tabindex: -1, "data-token": token }, token, el("span", { class: "muted" }, " " + meaning)));
  const menu = el("div", { class: "menu", role: "menu", id: menuId, "aria-label": "Insert into " + name, hidden: true }, items);
  const holder = el("span", { class: "menu-holder" }, button, menu);
  const show = (open) => { menu.hidden = !open; button.setAttribute("aria-expanded", String(open)); };
  button.addEventListener("click", () => { show(menu.hidden); if (!menu.hidden) items[0].focus(); });
  items.forEach((item, index) => {
    item.addEventListener("click", () => {
      const token = item.dataset.token;
      const start = input.selectionStart ?? input.value.length, end = input.selectionEnd ?? input.value.length;
      const next = input.value.slice(0, start) + token + input.value.slice(end);
      show(false);
      if (next.length > 120) { notify("A template has at most 120 characters."); input.focus(); return; }
      input.value = next;
      input.focus();
      input.setSelectionRange(start + token.length, start + token.length);
      input.dispatchEvent(new Event("input"));
    });
    item.addEventListener("keydown", (event) => {
      const step = event.key === "ArrowDown" ? 1 : event.key === "ArrowUp" ? -1 : 0;
      if (step) { event.preventDefault(); items[(index + step + items.length) % items.length].focus(); }
    });
  });
  holder.addEventListener("keydown", (event) => { if (event.key === "Escape" && !menu.hidden) { show(false); button.focus(); } });
  holder.addEventListener("focusout", (event) => { if (!holder.contains(event.relatedTarget)) show(false); });
  return holder;
}

/// Apple Push Notifications: the connection (`apns.js`), simulated credentials, the app name, Show message and Sound
/// (each saved when changed), and Notification content (seed 002): a preview language, the saved Title, Message and
/// Sender name with a preview, and **Customize**, the step that edits them — Save commits, Cancel discards. The
/// returned section's `customize()` opens that step (Review & Offer CTAs' Customize).
function notificationSection(app, reload) {
  const push = app.push || {};
  const counter = (input, limit) => {
    const count = el("span", { class: "counter" });
    const update = () => { count.textContent = input.value.length + " / " + limit; count.classList.toggle("over", input.value.length > limit); };
    input.addEventListener("input", update); update();
    return count;
  };
  // Seed 002: Title and Message are overrides of the chosen preview language only, never translated.
  const savedEdits = () => {
    const edits = { en: { title: push.titleTemplate || "", body: push.bodyTemplate || "" } };
    for (const [tag, t] of Object.entries(push.templates || {})) if (tag !== "en") edits[tag] = { title: t.title || "", body: t.body || "" };
    return edits;
  };
  let edits = savedEdits();
  let language = "en";
  const languagePicker = el("select", { id: "push-language" }, pushLanguages.map((tag) => el("option", { value: tag }, tag)));
  const title = el("input", { type: "text", id: "push-title", maxlength: 120, value: edits.en.title, placeholder: "New message" });
  const body = el("input", { type: "text", id: "push-body", maxlength: 120, value: edits.en.body, placeholder: "{message}" });
  const keep = () => { edits[language] = { title: title.value, body: body.value }; };
  title.addEventListener("input", keep); body.addEventListener("input", keep);
  const sender = el("input", { type: "text", id: "push-sender", maxlength: 60, value: push.senderName || "", placeholder: "Support (the localized default)" });
  const showLanguage = () => {
    const e = edits[language] || { title: "", body: "" };
    title.value = e.title; body.value = e.body;
    title.placeholder = language === "en" ? "New message" : "(built-in " + language + " text)";
    title.dispatchEvent(new Event("input")); body.dispatchEvent(new Event("input"));
  };
  const appName = el("input", { type: "text", id: "push-app-name", value: push.appName || "" });
  const flags = {
    configured: el("input", { type: "checkbox", id: "push-configured", checked: push.configured }),
    showMessage: el("input", { type: "checkbox", id: "push-show-message", checked: push.showMessage }),
    sound: el("input", { type: "checkbox", id: "push-sound", checked: push.sound }),
  };
  const flagNotes = { configured: ["Simulated credentials on.", "Simulated credentials off."], showMessage: ["Show message on.", "Show message off."], sound: ["Sound on.", "Sound off."] };
  for (const [key, box] of Object.entries(flags)) {
    box.addEventListener("change", async () => {
      try { await api("PATCH", "app", { push: { [key]: box.checked } }); } catch { box.checked = !box.checked; return; }
      push[key] = box.checked; notify(flagNotes[key][box.checked ? 0 : 1], true); preview();
    });
  }
  appName.addEventListener("change", async () => {
    await api("PATCH", "app", { push: { appName: appName.value } }); push.appName = appName.value; notify("App name saved.", true);
  });
  const previewTitle = el("strong", {}), previewBody = el("span", {});
  const draft = () => {
    const templates = {};
    for (const [tag, e] of Object.entries(edits)) {
      if (tag !== "en") templates[tag] = e.title || e.body ? { title: e.title || null, body: e.body || null } : null;
    }
    // Clearing the sender name sends null: the localized default again (seed 002).
    return { titleTemplate: edits.en.title || null, bodyTemplate: edits.en.body || null, templates, senderName: sender.value.trim() || null };
  };
  let previewTimer = null, previewAsked = 0;
  const preview = () => {
    clearTimeout(previewTimer);
    previewTimer = setTimeout(async () => {
      // Only the newest answer is shown: an older one arriving late (another language, older text) is dropped.
      const asked = ++previewAsked;
      try {
        const answer = await api("POST", "push-preview", { push: { ...draft(), appName: appName.value,
          configured: flags.configured.checked, showMessage: flags.showMessage.checked, sound: flags.sound.checked }, language });
        if (asked !== previewAsked) return;
        previewTitle.textContent = answer.title; previewBody.textContent = answer.body;
      } catch { /* the notice says why */ }
    }, 200);
  };
  for (const input of [title, body, sender, appName]) input.addEventListener("input", preview);

  // The saved content of the preview language, shown while not customizing.
  const summary = el("dl", { class: "fields", id: "push-summary" });
  const drawSummary = () => {
    const e = edits[language] || {};
    summary.replaceChildren(
      el("dt", {}, "Title"), el("dd", {}, e.title || "Built-in text"),
      el("dt", {}, "Message"), el("dd", {}, e.body || "Built-in text"),
      el("dt", {}, "Sender name"), el("dd", {}, push.senderName || "The localized default"));
  };
  languagePicker.addEventListener("change", () => { language = languagePicker.value; showLanguage(); drawSummary(); preview(); });
  const customize = el("button", { type: "button", id: "push-customize" }, "Customize");
  const save = el("button", { type: "button", id: "push-save" }, "Save");
  const cancel = el("button", { type: "button", class: "quiet", id: "push-cancel" }, "Cancel");
  const reset = el("button", { type: "button", class: "quiet", onclick: () => { title.value = ""; body.value = ""; title.dispatchEvent(new Event("input")); body.dispatchEvent(new Event("input")); } }, "Reset text to default");
  const editor = el("div", { id: "push-editor", hidden: true },
    el("div", { class: "grid" },
      el("div", {}, el("label", { for: "push-title" }, "Title"), title, counter(title, 120), el("div", {}, insertMenu(title, "Title"))),
      el("div", {}, el("label", { for: "push-body" }, "Message"), body, counter(body, 120), el("div", {}, insertMenu(body, "Message"))),
      el("div", {}, el("label", { for: "push-sender" }, "Sender name"), sender, counter(sender, 60),
        el("div", { class: "small muted" }, "Shared by all languages; empty: the localized default."))),
    el("p", { class: "small muted" }, "Blank fields, and text equal to the built-in text, use the built-in text of the customer's language."),
    el("p", {}, save, " ", cancel, " ", reset));
  const open = () => {
    editor.hidden = false; customize.hidden = true; summary.hidden = true;
    section.scrollIntoView({ block: "start" });
    title.focus({ preventScroll: true });
  };
  customize.addEventListener("click", open);
  cancel.addEventListener("click", () => {
    // Cancel discards every edit of every language, the sender name too.
    edits = savedEdits(); sender.value = push.senderName || ""; sender.dispatchEvent(new Event("input"));
    showLanguage(); drawSummary();
    editor.hidden = true; customize.hidden = false; summary.hidden = false;
    notify("Edits discarded.", true); preview(); customize.focus();
  });
  save.addEventListener("click", async () => { await api("PATCH", "app", { push: draft() }); notify("Notification content saved.", true); reload(); });
  drawSummary();
  preview();
  const box = (key, label) => el("label", { class: "inline", for: flags[key].id }, flags[key], label);
  const section = el("section", { "aria-labelledby": "push-heading", id: "apple-push" },
    el("h2", { id: "push-heading" }, "Apple Push Notifications"),
    apnsConnection(app, reload),
    box("configured", "Without a key, still write pushes to the Push inbox (simulated credentials; nothing is sent)"),
    el("label", { for: "push-app-name" }, "App name (the title when a rendered title is empty)"), appName,
    box("showMessage", "Show message"), box("sound", "Sound"),
    el("h3", { id: "notification-content" }, "Notification content"),
    el("p", { class: "small muted" }, "Pushes use the device's app language (else its locale, else English). Title and Message override the preview language only and are not translated. Offer pushes are turned on in Review & Offer CTAs."),
    el("label", { for: "push-language" }, "Preview language"), languagePicker,
    summary, el("p", {}, customize), editor,
    el("h3", {}, "Preview (a reply with two photos; nothing is sent)"),
    el("div", { class: "push-preview", "aria-label": "Notification preview" }, previewTitle, previewBody));
  section.customize = open;
  return section;
}

/// Settings → Review & Offer CTAs (seed 001 "Review cards", seed 002 "Offer pushes"), for the app: under Reviews the
/// App Store ID review cards need; under Paywalls & discount offers "Send a push notification" (off by default,
/// saved when changed) and Customize, the notification content step its pushes use.
function ctaSection(app, customizeNotifications) {
  const push = app.push || {};
  const storeId = el("input", { type: "text", id: "app-store-id", inputmode: "numeric", value: app.appStoreId || "", placeholder: "e.g. 1234567890" });
  const save = el("button", { type: "button", class: "quiet" }, "Save App Store ID");
  save.addEventListener("click", async () => {
    await api("PATCH", "app", { appStoreId: storeId.value.trim() || null }); notify("App Store ID saved.", true);
  });
  const connected = app.apns && app.apns.connected;
  return el("section", { "aria-labelledby": "ctas-heading", id: "review-offer-ctas" },
    el("h2", { id: "ctas-heading", tabindex: -1 }, "Review & Offer CTAs"),
    el("div", { class: "cta-app", role: "group", "aria-label": "App " + (push.appName || app.appId) },
      el("p", {}, el("strong", {}, push.appName || "Your app"), el("span", { class: "small muted" }, " · App ID "), el("code", { class: "small" }, app.appId)),
      el("h3", { id: "reviews-heading" }, "Reviews"),
      el("label", { for: "app-store-id" }, "App Store ID (review cards need it; it makes their default review URL)"), storeId, " ", save,
      el("h3", { id: "offers-heading" }, "Paywalls & discount offers"),
      checkbox("offer-push", "Send a push notification", push.offerPushes, async (on, box) => {
        try { await api("PATCH", "app", { push: { offerPushes: on } }); } catch { box.checked = !on; return; }
        notify(on ? "Offer cards now also send a push." : "Offer cards send no push.", true);
      }),
      el("p", { class: "small muted" }, "Off by default. The push shows the card's message, else its button label, else “See your discount” in the customer's language; your notification templates, Show message and Sound apply. "
        + (connected ? "Apple Push Notifications is connected." : "It also needs Apple Push Notifications (below), not connected yet.")
        + " Turn it on only for customers who opted in to promotional pushes in your app (Apple's guideline 4.5.4)."),
      el("p", {}, el("button", { type: "button", class: "quiet", id: "offer-customize", onclick: () => customizeNotifications() }, "Customize"),
        el("span", { class: "small muted" }, " the notification's Title, Message and Sender name"))));
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

/// Sections a link can open: `#/settings/identity` (the Unverified badge's link), `#/settings/ctas` (the composer's
/// App Store ID reason): the page scrolled to that section, its heading focused.
const linkedSections = { identity: ["identity-verification", "identity-heading"], ctas: ["review-offer-ctas", "ctas-heading"] };

/// `#/settings`, or `#/settings/<section>` (`linkedSections`).
export function render(main, section) {
  const page = el("div", { class: "settings" });
  main.append(el("h1", {}, "Settings"), page);
  // Every save redraws the page from the emulator's answer; the page is busy (`whileBusy`) until it has.
  const load = () => whileBusy(draw());
  async function draw() {
    const [app, team, appearance] = await Promise.all([api("GET", "app"), api("GET", "team"), api("GET", "appearance")]);
    clear(page);
    const owner = isOwner();
    const notifications = owner ? notificationSection(app, load)
      : ownerOnlySection("push-heading", "Apple Push Notifications", "connect the APNs key, edit notification content or send a test push");
    page.append(owner ? identitySection(app, load) : agentIdentitySection(app),
      owner ? appSection(app) : ownerOnlySection("app-heading", "App", "disable the app"),
      owner ? ctaSection(app, () => notifications.customize())
        : ownerOnlySection("ctas-heading", "Review & Offer CTAs", "set the App Store ID review cards need or turn on offer pushes"),
      appearanceSection(appearance, load),
      owner ? teamSection(team.members, load) : agentTeamSection(team.members),
      notifications,
      limitsSection(app, load, owner));
  }
  load().then(() => {
    const [sectionId, headingId] = linkedSections[section] || [];
    if (!sectionId || !document.getElementById(sectionId)) return;
    document.getElementById(sectionId).scrollIntoView({ block: "start" });
    document.getElementById(headingId).focus({ preventScroll: true });
  }).catch(() => {});
}
