// `appearance.js`: the published chat appearance (spec 7.20) as a form with a live preview, its uploaded images and
// Show team names/photos. Publishing keeps the fields this form does not edit. Publishing is an Owner's (seed 001:
// an Owner turns on Show team photos and names): an Agent sees the form with every control disabled and the reason.

import { api, upload, notify, isOwner, ownerOnlyNote } from "./api.js";
import { el, clear } from "./dom.js";

const colorKeys = [["accent", "Accent"], ["onAccent", "On accent"], ["background", "Background"], ["incoming", "Incoming bubble"], ["incomingText", "Incoming text"]];
const texts = [["title", "Title", 80], ["welcomeTitle", "Welcome title", 160], ["welcomeText", "Welcome text", 1000]];
const choices = {
  colorScheme: ["system", "light", "dark"], fontDesign: ["default", "rounded", "serif", "monospaced"],
  closeIcon: ["xmark", "chevron.down", "arrow.down"] };
const flags = [["showsCloseButton", "Show close button"], ["fadesOlderMessages", "Fade older messages"],
  ["showsTeamNames", "Show team names"], ["showsTeamPhotos", "Show team photos"]];
const choiceLabels = { colorScheme: "Colour scheme", fontDesign: "Font design", closeIcon: "Close icon" };
const hex = /^#[0-9A-Fa-f]{6}$/;

function uuid() {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export function appearanceSection(answer, reload) {
  const current = JSON.parse(JSON.stringify(answer.appearance || {}));
  const inputs = {};
  const grid = el("div", { class: "grid" });
  for (const [key, label, limit] of texts) {
    const value = (current.text && current.text[key] && (current.text[key].en ?? Object.values(current.text[key])[0])) || "";
    const input = key === "welcomeText"
      ? el("textarea", { id: "appearance-" + key, maxlength: limit }) : el("input", { type: "text", id: "appearance-" + key, maxlength: limit });
    input.value = value;
    inputs[key] = input;
    grid.append(el("div", {}, el("label", { for: input.id }, label + " (English)"), input));
  }
  for (const [key, label] of colorKeys) {
    for (const mode of ["light", "dark"]) {
      const input = el("input", { type: "text", id: `appearance-${key}-${mode}`, placeholder: "#RRGGBB", maxlength: 7,
        value: (current.colors && current.colors[key] && current.colors[key][mode]) || "" });
      inputs[key + "." + mode] = input;
      grid.append(el("div", {}, el("label", { for: input.id }, label + " (" + mode + ")"), input));
    }
  }
  for (const [key, values] of Object.entries(choices)) {
    const select = el("select", { id: "appearance-" + key },
      el("option", { value: "" }, "(app's own)"), values.map((v) => el("option", { value: v, selected: current[key] === v }, v)));
    inputs[key] = select;
    grid.append(el("div", {}, el("label", { for: select.id }, choiceLabels[key]), select));
  }
  const boxes = flags.map(([key, label]) => {
    const box = el("input", { type: "checkbox", id: "appearance-" + key, checked: current[key] === true });
    inputs[key] = box;
    return el("label", { class: "inline", for: box.id }, box, label);
  });

  const images = answer.images || [];
  const imageSelect = (key, label) => {
    const select = el("select", { id: "appearance-" + key },
      el("option", { value: "" }, "(none)"), images.map((id) => el("option", { value: id, selected: (key === "closeImage" ? current.closeImage : current.welcomeIcon && current.welcomeIcon.image) === id }, id)));
    inputs[key] = select;
    return el("div", {}, el("label", { for: select.id }, label), select);
  };
  const gallery = el("div", { class: "thumbs", "aria-label": "Uploaded images" },
    images.map((id) => el("img", { src: "/v1/appearance/images/" + id, alt: "Appearance image " + id })));
  const file = el("input", { type: "file", id: "appearance-image", accept: "image/png,image/jpeg" });
  file.addEventListener("change", async () => {
    const chosen = file.files[0];
    if (!chosen) return;
    const id = uuid();
    await upload("PUT", "appearance/images/" + id, chosen, chosen.type || "image/png");
    notify("Image uploaded as " + id + ". Choose it below and publish.", true);
    reload();
  });

  const preview = el("div", { class: "preview-chat", "aria-label": "Chat preview" });
  function value() {
    const next = JSON.parse(JSON.stringify(current));
    next.text = next.text || {};
    for (const [key] of texts) {
      const text = inputs[key].value;
      next.text[key] = { ...(next.text[key] || {}) };
      if (text.trim()) next.text[key].en = text; else delete next.text[key].en;
      if (!Object.keys(next.text[key]).length) delete next.text[key];
    }
    next.colors = next.colors || {};
    for (const [key] of colorKeys) {
      const color = {};
      for (const mode of ["light", "dark"]) {
        const text = inputs[key + "." + mode].value.trim();
        if (text) {
          if (!hex.test(text)) throw new Error(key + " (" + mode + ") must be # and 6 hex digits.");
          color[mode] = text;
        }
      }
      if (Object.keys(color).length) next.colors[key] = color; else delete next.colors[key];
    }
    for (const key of Object.keys(choices)) { if (inputs[key].value) next[key] = inputs[key].value; else delete next[key]; }
    for (const [key] of flags) next[key] = inputs[key].checked;
    if (inputs.closeImage.value) next.closeImage = inputs.closeImage.value; else delete next.closeImage;
    next.welcomeIcon = { ...(next.welcomeIcon || {}) };
    if (inputs.welcomeImage.value) next.welcomeIcon.image = inputs.welcomeImage.value; else delete next.welcomeIcon.image;
    if (!Object.keys(next.welcomeIcon).length) delete next.welcomeIcon;
    return next;
  }
  function drawPreview() {
    let look;
    try { look = value(); } catch { return; }
    const color = (key, fallback) => (look.colors && look.colors[key] && look.colors[key].light) || fallback;
    clear(preview);
    preview.style.background = color("background", "#ffffff");
    preview.style.fontFamily = { serif: "serif", monospaced: "monospace", rounded: "ui-rounded, system-ui" }[look.fontDesign] || "";
    const bar = el("div", { class: "bar" }, (look.text && look.text.title && look.text.title.en) || "Support");
    const welcomeImage = look.welcomeIcon && look.welcomeIcon.image;
    const welcome = el("div", {},
      welcomeImage ? el("img", { src: "/v1/appearance/images/" + welcomeImage, alt: "Welcome icon", class: "team-photo" }) : null,
      el("strong", {}, (look.text && look.text.welcomeTitle && look.text.welcomeTitle.en) || "How can we help?"),
      el("p", { class: "small" }, (look.text && look.text.welcomeText && look.text.welcomeText.en) || "We usually answer within a day."));
    const incoming = el("div", { class: "bubble" }, look.showsTeamNames ? "Mia: " : "", "Hi! How can we help?");
    incoming.style.background = color("incoming", "#eeeeef"); incoming.style.color = color("incomingText", "#1d1d22");
    const outgoing = el("div", { class: "bubble out" }, "My parcel hasn't arrived.");
    outgoing.style.background = color("accent", "#e8590c"); outgoing.style.color = color("onAccent", "#ffffff");
    const send = el("div", { class: "send" }, "Send");
    send.style.background = color("accent", "#e8590c"); send.style.color = color("onAccent", "#ffffff");
    preview.append(bar, welcome, incoming, outgoing, send);
  }
  const section = el("section", { "aria-labelledby": "appearance-heading" },
    el("h2", { id: "appearance-heading" }, "Chat appearance"),
    el("p", { class: "small muted" }, "Published revision " + answer.revision + ". The app shows a new look at its next chat opening."),
    grid, el("div", {}, boxes),
    el("h3", {}, "Images"), gallery,
    el("label", { for: "appearance-image" }, "Upload an image (PNG or JPEG)"), file,
    el("div", { class: "grid" }, imageSelect("welcomeImage", "Welcome icon image"), imageSelect("closeImage", "Close image")),
    el("h3", {}, "Preview"), preview);
  const publish = el("button", { type: "button" }, "Publish appearance");
  publish.addEventListener("click", async () => {
    let look;
    try { look = value(); } catch (error) { notify(error.message); return; }
    await api("PUT", "appearance", { appearance: look });
    notify("Appearance published.", true);
    reload();
  });
  section.append(el("p", {}, publish));
  if (!isOwner()) {
    // The emulator answers an Agent's PUT appearance 403 owner_required; the controls say so before a click.
    const reason = ownerOnlyNote("publish Chat appearance: Show team photos, Show team names, the colours, texts and images");
    reason.id = "appearance-owner-only";
    section.querySelector("h2").after(reason);
    for (const control of section.querySelectorAll("input, select, textarea, button")) {
      control.disabled = true;
      control.setAttribute("aria-describedby", reason.id);
    }
  }
  section.addEventListener("input", drawPreview);
  section.addEventListener("change", drawPreview);
  drawPreview();
  return section;
}
