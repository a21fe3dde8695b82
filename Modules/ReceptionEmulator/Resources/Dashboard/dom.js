// `dom.js`: building elements. Text always goes in as text nodes or `textContent`, never as markup, and links built
// from data accept only http(s) and same-origin paths.

import { isOwner } from "./api.js";

export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = String(value);
    else if (key === "value") node.value = String(value);
    else if (key === "checked") node.checked = Boolean(value);
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "href" || key === "src") node.setAttribute(key, safeURL(value));
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

export function append(node, children) {
  for (const child of [children].flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function clear(node) { while (node.firstChild) node.firstChild.remove(); return node; }

/// Fragment links, same-origin paths and http(s) URLs; anything else (javascript:, data:) becomes "#".
/// Signed links of this emulator become same-origin paths, so they load under any host name.
export function safeURL(value) {
  const text = String(value);
  if (text.startsWith("#")) return text;
  try {
    const url = new URL(text, location.href);
    if (url.protocol !== "http:" && url.protocol !== "https:" && url.protocol !== "blob:") return "#";
    if (/^\/(files|team-photos|v1\/appearance\/images)\//.test(url.pathname)) return url.pathname + url.search;
    return url.href;
  } catch { return "#"; }
}

export function when(value) {
  if (!value) return "—";
  const date = new Date(value);
  return isNaN(date) ? String(value) : date.toLocaleString();
}

let tips = 0;

/// The badge of seed 000. With `tip` (the conversation header and the customer details), Unverified is a button whose
/// tooltip says what it means and, for Owners only (seed 000), links to Settings → Identity verification.
export function badge(kind, { tip = false } = {}) {
  if (kind === "verified") return el("span", { class: "badge verified", title: "Verified by an identity token" }, "✓ Verified");
  if (kind !== "unverified") return null;
  const meaning = "App-supplied labels that no identity token verified";
  if (!tip) return el("span", { class: "badge unverified", title: meaning }, "Unverified");
  const id = "unverified-tip-" + (++tips);
  const tooltip = el("span", { class: "tip", id, role: "tooltip", hidden: true }, meaning + ". ",
    isOwner() ? el("a", { href: "#/settings/identity" }, "Set up identity verification")
      : "Only Owners can set up identity verification.");
  const button = el("button", { type: "button", class: "badge unverified", "aria-expanded": "false", "aria-describedby": id }, "Unverified");
  const holder = el("span", { class: "badge-tip" }, button, tooltip);
  // Open while the pointer is over it, or from a click (or Enter) until focus leaves it or Escape.
  let hovered = false, pinned = false;
  const update = () => { tooltip.hidden = !(hovered || pinned); button.setAttribute("aria-expanded", String(hovered || pinned)); };
  button.addEventListener("click", () => { pinned = !pinned; update(); });
  holder.addEventListener("mouseenter", () => { hovered = true; update(); });
  holder.addEventListener("mouseleave", () => { hovered = false; update(); });
  holder.addEventListener("focusout", (event) => { if (!holder.contains(event.relatedTarget)) { pinned = false; update(); } });
  holder.addEventListener("keydown", (event) => {
    if (event.key === "Escape") { pinned = hovered = false; update(); button.focus(); }
  });
  return holder;
}

/// An email address the dashboard offers "Send email" for: the HTML form rule with a dot in the domain, at most
/// 254 characters (seed 000: Reception does not check the format; the dashboard does, for this link only).
export function isEmailAddress(value) {
  return typeof value === "string" && value.length <= 254 &&
    /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/.test(value);
}

/// "Send email" (`mailto:`) for a valid address, else `null`. The local part is percent-encoded, so none of its
/// characters can add a recipient or a header.
export function mailLink(address) {
  if (!isEmailAddress(address)) return null;
  const at = address.lastIndexOf("@");
  const link = el("a", { class: "mail", id: "send-email" }, "Send email");
  link.setAttribute("href", "mailto:" + encodeURIComponent(address.slice(0, at)) + "@" + address.slice(at + 1));
  return link;
}

/// Runs `task` now and then every `ms` until the returned function is called; a failed run waits for the
/// next one.
export function poll(task, ms) {
  let stopped = false, timer = null;
  const run = async () => {
    if (stopped) return;
    try { await task(); } catch (error) { /* shown by api() */ }
    if (!stopped) timer = setTimeout(run, ms);
  };
  run();
  return () => { stopped = true; clearTimeout(timer); };
}

/// Asks before a team action; resolves to false (cancelled) or true, or, with `checkbox`, to
/// {checked} when confirmed.
export function confirmAction(title, text, { confirmLabel = "Confirm", checkbox = null, danger = false, extra = null } = {}) {
  const dialog = document.getElementById("confirm");
  document.getElementById("confirm-title").textContent = title;
  const body = clear(document.getElementById("confirm-body"));
  body.append(el("p", {}, text));
  let box = null;
  if (checkbox) {
    box = el("input", { type: "checkbox", id: "confirm-check" });
    body.append(el("label", { class: "inline", for: "confirm-check" }, box, checkbox));
  }
  if (extra) body.append(extra);
  const ok = document.getElementById("confirm-ok");
  ok.textContent = confirmLabel;
  ok.className = danger ? "danger" : "";
  dialog.returnValue = "";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      const confirmed = dialog.returnValue === "confirm";
      resolve(confirmed ? (checkbox ? { checked: box.checked } : true) : false);
    }, { once: true });
    dialog.showModal();
  });
}

export function showPhoto(url) {
  const viewer = document.getElementById("viewer");
  document.getElementById("viewer-image").setAttribute("src", safeURL(url));
  viewer.showModal();
}

/// Reads an image file, scales it to at most 2048 px and encodes it as JPEG: {data (Base64), width, height}.
export async function jpegFromFile(file, maxSide = 2048) {
  const url = URL.createObjectURL(file);
  try {
    const image = await new Promise((resolve, reject) => {
      const img = new Image();
      img.onload = () => resolve(img);
      img.onerror = () => reject(new Error("Could not read " + file.name + " as an image."));
      img.src = url;
    });
    const scale = Math.min(1, maxSide / Math.max(image.naturalWidth, image.naturalHeight));
    const width = Math.max(1, Math.round(image.naturalWidth * scale));
    const height = Math.max(1, Math.round(image.naturalHeight * scale));
    const canvas = document.createElement("canvas");
    canvas.width = width; canvas.height = height;
    const context = canvas.getContext("2d");
    context.fillStyle = "#fff"; context.fillRect(0, 0, width, height);
    context.drawImage(image, 0, 0, width, height);
    const dataURL = canvas.toDataURL("image/jpeg", 0.85);
    return { data: dataURL.slice(dataURL.indexOf(",") + 1), width, height };
  } finally { URL.revokeObjectURL(url); }
}

/// A file's bytes as standard Base64.
export function base64FromFile(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => { const text = String(reader.result); resolve(text.slice(text.indexOf(",") + 1)); };
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}
