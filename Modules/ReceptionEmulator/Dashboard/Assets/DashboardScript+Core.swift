extension DashboardAssets {
    /// `dom.js`: building elements. Text always goes in as text nodes or `textContent`, never as markup, and links
    /// built from data accept only http(s) and same-origin paths.
    static let domJS = #"""
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

        export function badge(kind) {
          if (kind === "verified") return el("span", { class: "badge verified", title: "Verified by an identity token" }, "✓ Verified");
          if (kind === "unverified") return el("span", { class: "badge unverified", title: "App-supplied labels that no identity token verified" }, "Unverified");
          return null;
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
        """#

    /// `api.js`: the one `fetch` wrapper. It adds the session's CSRF token to every call that changes something and
    /// turns every error into the visible notice.
    static let apiJS = #"""
        let csrfToken = null;
        let noticeTimer = null;

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

        async function call(method, path, body, raw) {
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
        """#

    /// `app.js`: the router. Each page module's `render(main, argument)` returns the function that stops its
    /// polling when the page changes.
    static let appJS = #"""
        import { api } from "./api.js";
        import * as inbox from "./inbox.js";
        import * as conversation from "./conversation.js";
        import * as users from "./users.js";
        import * as settings from "./settings.js";
        import * as developer from "./console.js";

        let stop = () => {};

        function route() {
          stop();
          const main = document.getElementById("page");
          main.replaceChildren();
          const [page, argument] = location.hash.replace(/^#\/?/, "").split("/");
          const pages = {
            inbox, conversation, users, settings,
            requests: { render: developer.renderRequests }, faults: { render: developer.renderFaults },
            push: { render: developer.renderPush }, state: { render: developer.renderState },
          };
          const module = pages[page] || inbox;
          const current = pages[page] ? page : "inbox";
          for (const link of document.querySelectorAll("header.top nav a")) {
            if (link.dataset.page === (current === "conversation" ? "inbox" : current)) link.setAttribute("aria-current", "page");
            else link.removeAttribute("aria-current");
          }
          stop = module.render(main, argument ? decodeURIComponent(argument) : undefined) || (() => {});
        }

        window.addEventListener("hashchange", route);
        document.getElementById("sign-out").addEventListener("click", async () => {
          try { await api("POST", "sign-out"); } finally { location.reload(); }
        });
        route();
        """#
}
