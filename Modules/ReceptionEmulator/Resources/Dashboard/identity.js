// `identity.js`: the setup help of Settings → Identity verification (seed 000): "Copy setup prompt", the server-side
// steps as a text for a coding agent, and "Add it to your server", where the secret goes. Neither ever holds the
// secret: the prompt is built from the App ID alone and names the environment variable instead.

import { notify } from "./api.js";
import { el } from "./dom.js";

export const secretVariable = "RECEPTION_IDENTITY_SECRET";

/// The prompt for a coding agent. It takes the App ID only, so it cannot contain the secret.
export function setupPrompt(appId) {
  return [
    `Set up verified users for Reception (App ID ${appId}) in this project: the server signs an identity token, the iOS app hands it to ReceptionKit.`,
    "",
    "Server:",
    `1. Read the identity secret from the environment variable ${secretVariable}. It is not in this prompt: do not ask for it, and never put it in the app, its configuration files or version control. Use it exactly as it is, "ids_" included; do not decode it.`,
    "2. Add an endpoint that requires sign-in, for example GET /me/reception-token. Take the user from the authenticated session, never from the request body or query.",
    `3. In it, create a JSON Web Token signed with HS256 and ${secretVariable}, with these claims:`,
    "   - user_id (required): the user's stable ID as a string, at most 255 characters;",
    "   - exp (required): the expiry; seven days from now suits most apps;",
    "   - email (optional): an address known to belong to the user, at most 254 characters;",
    "   - name (optional): the name the support team sees, at most 200 characters.",
    '   Answer {"token": "<the JWT>"}. Never create tokens inside the app.',
    "",
    "App:",
    "4. After Reception.configure(appId:), once after the user signs in and on every launch while a user is signed in, fetch the token from that endpoint, check that the same user is still signed in, then call Reception.shared.identify(token: token).",
    "5. Keep calling Reception.shared.logout() when the user signs out.",
    "",
    "Check: after a deploy, Settings → Identity verification in the dashboard shows when the last user was verified.",
  ].join("\n");
}

/// "Copy setup prompt": copies the prompt and shows it in a read-only text area (also where copying is refused).
export function setupPromptControl(appId) {
  const text = el("textarea", { id: "setup-prompt", readonly: true, rows: 12, hidden: true });
  const label = el("label", { for: "setup-prompt", hidden: true }, "Setup prompt for your coding agent");
  const button = el("button", { type: "button", class: "quiet", id: "copy-setup-prompt" }, "Copy setup prompt");
  button.addEventListener("click", async () => {
    text.value = setupPrompt(appId);
    label.hidden = text.hidden = false;
    text.select();
    try {
      await navigator.clipboard.writeText(text.value);
      button.dataset.copied = "true";
      notify("Setup prompt copied. It holds no secret; store the secret on your server yourself.", true);
    } catch {
      notify("The browser did not allow copying: the prompt is selected below, copy it from there.");
    }
  });
  return el("div", { class: "setup-prompt" },
    el("p", { class: "small" }, button, " Give it to your coding agent, or follow the steps by hand."),
    label, text);
}

/// "Add it to your server": where the secret goes on Firebase, Supabase or a server reading a `.env` file.
export function serverHints() {
  return el("details", { class: "hints", id: "server-hints" },
    el("summary", {}, "Add it to your server"),
    el("p", { class: "small" }, "Store the secret (Reveal) on your server, never in the app, as ", el("code", {}, secretVariable), ":"),
    el("dl", { class: "fields" },
      el("dt", {}, "Firebase"),
      el("dd", {}, el("code", {}, `firebase functions:secrets:set ${secretVariable}`), ", then paste the secret when asked."),
      el("dt", {}, "Supabase"),
      el("dd", {}, "Dashboard → Edge Functions → Secrets: add ", el("code", {}, secretVariable), " with the secret as its value."),
      el("dt", {}, ".env"),
      el("dd", {}, el("code", {}, `${secretVariable}=ids_…`), " (the whole secret; keep the file out of version control).")));
}
