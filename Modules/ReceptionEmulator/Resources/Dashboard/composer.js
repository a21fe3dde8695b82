// `composer.js`: the reply composer — text and up to five photos as the chosen team member, review cards (only once
// the app has an App Store ID, seed 001) and paywall cards, agent typing while the agent types.

import { api, notify, APIError, memberId, isOwner } from "./api.js";
import { el, clear, jpegFromFile } from "./dom.js";

export function createComposer(deviceId, getState, refresh) {
  const id = encodeURIComponent(deviceId || "");
  const author = el("select", { id: "composer-author" });
  const kind = el("select", { id: "composer-kind" },
    el("option", { value: "TEXT" }, "Text message"), el("option", { value: "REVIEW" }, "Review card"),
    el("option", { value: "PAYWALL" }, "Paywall card"));
  const text = el("textarea", { id: "composer-text", name: "text", maxlength: 4000, placeholder: "Write a reply…" });
  const photos = el("input", { type: "file", id: "composer-photos", accept: "image/*", multiple: true });
  const pending = el("div", { class: "pending", "aria-label": "Photos to send" });
  const reviewLabel = el("input", { type: "text", id: "composer-review-label", placeholder: "Rate on the App Store" });
  const reviewURL = el("input", { type: "url", id: "composer-review-url" });
  const paywall = el("select", { id: "composer-paywall" });
  const paywallLabel = el("input", { type: "text", id: "composer-paywall-label", placeholder: "View offer" });
  const notice = el("p", { class: "composer-notice", hidden: true });
  const progress = el("span", { class: "small muted", "aria-live": "polite" });
  const send = el("button", { type: "submit" }, "Send");
  // Seed 001: a review card can be sent only once the app has an App Store ID; the composer says so and why.
  const reviewReason = el("p", { class: "composer-notice", id: "composer-review-reason", hidden: true },
    "A review card can be sent only once the app has an App Store ID, and this app has none yet. ",
    isOwner() ? el("a", { href: "#/settings/ctas" }, "Set it in Settings → Review & Offer CTAs")
      : "Ask an Owner to set it in Settings → Review & Offer CTAs.");
  const reviewFields = el("div", { hidden: true }, reviewReason, el("div", { class: "row" },
    el("div", {}, el("label", { for: "composer-review-label" }, "Button label"), reviewLabel),
    el("div", {}, el("label", { for: "composer-review-url" }, "Review URL"), reviewURL)));
  const paywallFields = el("div", { class: "row", hidden: true },
    el("div", {}, el("label", { for: "composer-paywall" }, "Paywall (registered by the app)"), paywall),
    el("div", {}, el("label", { for: "composer-paywall-label" }, "Button label"), paywallLabel));
  const form = el("form", { class: "card composer", "aria-label": "Reply" },
    notice,
    el("div", { class: "row" },
      el("div", {}, el("label", { for: "composer-author" }, "Reply as"), author),
      el("div", {}, el("label", { for: "composer-kind" }, "Message type"), kind)),
    reviewFields, paywallFields,
    el("label", { for: "composer-text" }, "Reply"), text,
    el("div", { class: "row" }, el("div", {}, el("label", { for: "composer-photos" }, "Photos (up to 5)"), photos)),
    pending,
    el("div", { class: "send" }, progress, send));
  let files = [];

  function drawPending() {
    clear(pending);
    files.forEach((file, index) => {
      const url = URL.createObjectURL(file);
      pending.append(el("span", {},
        el("img", { src: url, alt: file.name }),
        el("button", { type: "button", class: "quiet", onclick: () => { files.splice(index, 1); drawPending(); } }, "Remove " + file.name)));
    });
  }
  photos.addEventListener("change", () => {
    files = files.concat([...photos.files]);
    if (files.length > 5) { notify("A message has at most 5 photos; the first 5 are kept."); files = files.slice(0, 5); }
    photos.value = "";
    drawPending();
  });

  function defaultReviewURL() {
    const { app } = getState();
    return app && app.appStoreId ? `https://apps.apple.com/app/id${app.appStoreId}?action=write-review` : "";
  }
  // A review card chosen before the app's settings arrived (the view's first load still under way) gets the default
  // URL when they do (`update`), once: a URL the agent cleared afterwards stays cleared.
  let reviewDefaultPending = false;
  /// Whether a review card is chosen for an app without an App Store ID (known once the app's settings arrived).
  function reviewBlocked() {
    const { app } = getState();
    return kind.value === "REVIEW" && !!app && !!app.appId && !app.appStoreId;
  }
  let sending = false;
  function showReviewState() {
    const blocked = reviewBlocked();
    reviewReason.hidden = !blocked;
    send.disabled = sending || blocked;
  }
  kind.addEventListener("change", () => {
    reviewFields.hidden = kind.value !== "REVIEW";
    paywallFields.hidden = kind.value !== "PAYWALL";
    if (kind.value === "REVIEW" && !reviewURL.value) reviewURL.value = defaultReviewURL();
    reviewDefaultPending = kind.value === "REVIEW" && !reviewURL.value;
    showReviewState();
  });

  let typingSince = 0, idleTimer = null;
  function stopTyping() {
    clearTimeout(idleTimer);
    if (!typingSince) return;
    typingSince = 0;
    api("POST", `devices/${id}/typing`, { typing: false }).catch(() => {});
  }
  text.addEventListener("input", () => {
    if (Date.now() - typingSince > 3000) {
      typingSince = Date.now();
      api("POST", `devices/${id}/typing`, { typing: true }).catch(() => {});
    }
    clearTimeout(idleTimer);
    idleTimer = setTimeout(stopTyping, 5000);
  });
  text.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) { event.preventDefault(); form.requestSubmit(); }
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { kind: kind.value };
    const trimmed = text.value.trim();
    if (trimmed) body.text = trimmed;
    if (author.value) body.authorId = author.value;
    if (kind.value === "REVIEW") {
      if (reviewBlocked()) { notify(reviewReason.textContent); return; }
      body.reviewUrl = reviewURL.value.trim();
      if (reviewLabel.value.trim()) body.buttonLabel = reviewLabel.value.trim();
    } else if (kind.value === "PAYWALL") {
      if (!paywall.value) { notify("The app has registered no paywall for this device."); return; }
      body.paywallId = paywall.value;
      if (paywallLabel.value.trim()) body.buttonLabel = paywallLabel.value.trim();
    } else if (!trimmed && files.length === 0) {
      notify("Write a reply or add photos first.");
      return;
    }
    sending = true;
    send.disabled = true;
    progress.textContent = files.length ? "Preparing photos…" : "Sending…";
    try {
      if (files.length) body.photos = await Promise.all(files.map((file) => jpegFromFile(file)));
      progress.textContent = "Sending…";
      await api("POST", `devices/${id}/messages`, body);
      text.value = ""; files = []; drawPending(); stopTyping();
      refresh();
    } catch (error) {
      if (!(error instanceof APIError)) notify(error.message);
    } finally {
      sending = false;
      showReviewState();
      progress.textContent = "";
    }
  });

  function update() {
    const { device, members } = getState();
    if (!device) return;
    const chosen = author.value;
    const options = [el("option", { value: "" }, "Team (no member)")].concat(
      members.map((m) => el("option", { value: m.id }, m.name + " (" + m.id + ")")));
    const optionsKey = JSON.stringify(members.map((m) => [m.id, m.name]));
    if (author.dataset.key !== optionsKey) {
      author.dataset.key = optionsKey;
      author.replaceChildren(...options);
      // The signed-in member by default (the admin API knows who calls), else the first member.
      const me = members.find((m) => m.id === memberId());
      author.value = chosen || (me ? me.id : (members[0] ? members[0].id : ""));
    }
    const paywalls = Array.isArray(device.paywalls) ? device.paywalls : [];
    const paywallKey = JSON.stringify(paywalls);
    if (paywall.dataset.key !== paywallKey) {
      paywall.dataset.key = paywallKey;
      paywall.replaceChildren(...paywalls.map((p) => el("option", { value: p.id }, p.title + " (" + p.id + ")")));
    }
    if (reviewDefaultPending && kind.value === "REVIEW" && !reviewURL.value && defaultReviewURL()) {
      reviewURL.value = defaultReviewURL();
      reviewDefaultPending = false;
    }
    showReviewState();
    notice.hidden = !device.blocked;
    notice.textContent = device.blocked ? "This customer is blocked: the app shows “You can't send messages from this device.” Your replies still reach it." : "";
  }

  return { node: form, update, stop: stopTyping };
}
