/// The dashboard's files, embedded in the binary as text (Docs/Dashboard.md): one HTML page, one style sheet and one
/// small JavaScript module per page. Nothing is fetched from elsewhere; the server's Content-Security-Policy allows
/// only these same-origin files to run.
enum DashboardAssets {
    /// A file under `/dashboard/assets/`.
    struct File {
        var text: String
        var type: String
    }

    /// Every file under `/dashboard/assets/` by name.
    static let files: [String: File] = [
        "dashboard.css": File(text: style, type: "text/css; charset=utf-8"),
        "app.js": script(appJS), "dom.js": script(domJS), "api.js": script(apiJS), "inbox.js": script(inboxJS),
        "conversation.js": script(conversationJS), "composer.js": script(composerJS), "details.js": script(detailsJS),
        "users.js": script(usersJS), "settings.js": script(settingsJS), "appearance.js": script(appearanceJS),
        "console.js": script(consoleJS),
    ]

    private static func script(_ text: String) -> File { File(text: text, type: "text/javascript; charset=utf-8") }

    /// The one page; the scripts draw the inbox, a conversation, the users or the settings into `<main>` by the
    /// address's fragment (`#/inbox`, `#/conversation/<device>`, `#/users`, `#/settings`, and the developer
    /// console's `#/requests[/<device>]`, `#/faults`, `#/push`, `#/state`).
    static let index = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Reception dashboard</title>
        <link rel="stylesheet" href="/dashboard/assets/dashboard.css">
        <script type="module" src="/dashboard/assets/app.js"></script>
        </head>
        <body>
        <header class="top">
          <span class="brand">Reception <small>emulator dashboard</small></span>
          <nav aria-label="Pages">
            <a href="#/inbox" data-page="inbox">Inbox</a>
            <a href="#/users" data-page="users">Users</a>
            <a href="#/settings" data-page="settings">Settings</a>
            <a href="#/requests" data-page="requests">Requests</a>
            <a href="#/faults" data-page="faults">Faults</a>
            <a href="#/push" data-page="push">Push inbox</a>
            <a href="#/state" data-page="state">State</a>
          </nav>
          <button type="button" id="sign-out" class="quiet">Sign out</button>
        </header>
        <div id="notice" role="alert" hidden></div>
        <main id="page" tabindex="-1"><p>Loading…</p></main>
        <dialog id="confirm" aria-labelledby="confirm-title">
          <form method="dialog">
            <h2 id="confirm-title"></h2>
            <div id="confirm-body"></div>
            <div class="buttons">
              <button value="cancel" type="submit" class="quiet">Cancel</button>
              <button value="confirm" type="submit" id="confirm-ok">Confirm</button>
            </div>
          </form>
        </dialog>
        <dialog id="viewer" aria-label="Photo">
          <form method="dialog"><button type="submit" class="quiet">Close</button></form>
          <img id="viewer-image" alt="Photo, full size">
        </dialog>
        </body>
        </html>
        """#

    /// The answer to every dashboard page without a session (401): how to get the sign-in URL.
    static let signedOut = #"""
        <!doctype html>
        <html lang="en">
        <head><meta charset="utf-8"><title>Sign in · Reception dashboard</title></head>
        <body>
        <main>
        <h1>Sign in to the dashboard</h1>
        <p>This browser is not signed in. Open the <strong>Dashboard</strong> URL that
        <code>reception-emulator</code> printed when it started:</p>
        <pre>Dashboard: http://127.0.0.1:PORT/dashboard/sign-in/…</pre>
        <p>Every start prints a new URL, and a restart signs every browser out. With <code>make demo</code> the URL
        is printed beside the transcript.</p>
        </main>
        </body>
        </html>
        """#
}
