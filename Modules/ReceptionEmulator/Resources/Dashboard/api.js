// `api.js`: the one `fetch` wrapper. It adds the session's CSRF token to every call that changes something and turns
// every error into the visible notice.

let csrfToken = null;
let noticeTimer = null;
/// The signed-in team member `{id, name, role}` (seed 000 roles), read once by `loadSession()` before any page draws.
let member = null;

export class APIError extends Error {
  constructor(status, code, message) { super(message); this.status = status; this.code = code; }
}

export function notify(message, ok = false) {
  const notice = document.getElementById("notice");
  notice.textContent = message;
  notice.className = ok ? "ok" : "";
  notice.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { notice.hidden = true; }, ok ? 4000 : 10000);
}

function signedOut(message) {
  const main = document.getElementById("page");
  main.replaceChildren();
  const h1 = document.createElement("h1"); h1.textContent = "Sign in to the dashboard";
  const p = document.createElement("p"); p.textContent = message;
  main.append(h1, p);
  document.body.dataset.signedOut = "true";
}

async function token() {
  if (!csrfToken) csrfToken = (await call("GET", "session")).csrfToken;
  return csrfToken;
}

/// Reads the session: the CSRF token and who is signed in. Resolves to the member.
export async function loadSession() {
  const session = await call("GET", "session");
  csrfToken = session.csrfToken;
  member = session.member;
  return member;
}

/// Whether the signed-in member is an Owner: only Owners see what the emulator refuses Agents (403 owner_required).
export function isOwner() { return !!member && member.role === "owner"; }

/// The signed-in member's ID (the composer's default "Reply as").
export function memberId() { return member ? member.id : null; }

/// Why an Agent does not see a control: shown in its place.
export function ownerOnlyNote(what) {
  const p = document.createElement("p");
  p.className = "small muted owner-only";
  p.textContent = "Only Owners can " + what + ". You are signed in as an Agent; ask an Owner of the team.";
  return p;
}

/// Changes in flight, and the page redraws they cause (`whileBusy`). While any runs, `#page` carries
/// `aria-busy="true"`: assistive technology waits for the new page, and so do the browser tests before they read or
/// press what a redraw would replace.
let busy = 0;

function setBusy(delta) {
  busy += delta;
  const main = document.getElementById("page");
  if (!main) return;
  if (busy > 0) main.setAttribute("aria-busy", "true");
  else main.removeAttribute("aria-busy");
}

/// Marks the page busy until `work` (a promise) settles; resolves or rejects as it does.
export async function whileBusy(work) {
  setBusy(1);
  try { return await work; } finally { setBusy(-1); }
}

/// Every call that changes something marks the page busy (reads do not: the inbox and conversation poll them).
function call(method, path, body, raw) {
  return method === "GET" ? send(method, path, body, raw) : whileBusy(send(method, path, body, raw));
}

async function send(method, path, body, raw) {
  const headers = {};
  if (method !== "GET") headers["X-CSRF-Token"] = await token();
  let payload;
  if (raw) { payload = raw.body; headers["Content-Type"] = raw.type; }
  else if (body !== undefined) { payload = JSON.stringify(body); headers["Content-Type"] = "application/json"; }
  let response;
  try {
    response = await fetch("/dashboard/api/" + path, { method, headers, body: payload, credentials: "same-origin", cache: "no-store" });
  } catch (error) {
    notify("The emulator does not answer (" + error.message + "). Is reception-emulator still running?");
    throw error;
  }
  const text = await response.text();
  let data = {};
  try { data = text ? JSON.parse(text) : {}; } catch { data = {}; }
  if (!response.ok) {
    const message = (data.error && data.error.message) || ("The emulator answered " + response.status + ".");
    if (response.status === 401) signedOut(message); else notify(message);
    throw new APIError(response.status, data.error && data.error.code, message);
  }
  return data;
}

/// `method` on `/dashboard/api/<path>` with a JSON body; resolves to the answer's JSON.
export function api(method, path, body) { return call(method, path, body); }

/// A raw body (an appearance image) with its content type.
export function upload(method, path, blob, type) { return call(method, path, undefined, { body: blob, type }); }
