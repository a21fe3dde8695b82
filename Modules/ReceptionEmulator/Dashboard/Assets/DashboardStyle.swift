extension DashboardAssets {
    /// `dashboard.css`: system fonts, a two-column conversation, readable without colour (labels carry the meaning).
    static let style = #"""
        :root { --accent: #e8590c; --line: #d9d9de; --muted: #6b6b76; --bg: #f6f6f8; --card: #fff;
          font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 15px; color: #1d1d22; }
        * { box-sizing: border-box; }
        [hidden] { display: none !important; }
        body { margin: 0; background: var(--bg); }
        header.top { display: flex; align-items: center; gap: 1.5rem; padding: .6rem 1.2rem; background: #1d1d22; color: #fff; }
        header.top .brand { font-weight: 600; } header.top small { font-weight: 400; opacity: .7; }
        header.top nav { display: flex; gap: 1rem; flex: 1; }
        header.top nav a { color: #fff; text-decoration: none; padding: .2rem .4rem; border-radius: 4px; }
        header.top nav a[aria-current="page"] { background: rgba(255,255,255,.18); }
        header.top button { color: #fff; border-color: rgba(255,255,255,.4); }
        main { padding: 1rem 1.2rem; max-width: 1200px; margin: 0 auto; }
        h1 { font-size: 1.4rem; margin: .2rem 0 1rem; } h2 { font-size: 1.1rem; margin: 1rem 0 .5rem; }
        h3 { font-size: .95rem; margin: 1rem 0 .3rem; color: var(--muted); text-transform: uppercase; letter-spacing: .03em; }
        button { font: inherit; padding: .35rem .8rem; border-radius: 6px; border: 1px solid var(--accent);
          background: var(--accent); color: #fff; cursor: pointer; }
        button.quiet { background: transparent; color: inherit; border-color: var(--line); }
        button.danger { background: #c92a2a; border-color: #c92a2a; }
        button:disabled { opacity: .5; cursor: default; }
        input, select, textarea { font: inherit; padding: .3rem .4rem; border: 1px solid var(--line); border-radius: 6px; background: #fff; }
        label { display: block; margin: .4rem 0 .15rem; font-size: .9rem; color: var(--muted); }
        label.inline { display: flex; align-items: center; gap: .4rem; color: inherit; }
        #notice { position: fixed; bottom: 1rem; left: 50%; transform: translateX(-50%); z-index: 5; max-width: min(90vw, 640px);
          padding: .6rem 1rem; background: #fff3bf; border: 1px solid #f0d264; border-radius: 8px; box-shadow: 0 4px 16px rgba(0,0,0,.15); }
        #notice.ok { background: #d3f9d8; border-color: #8ce99a; }
        .card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: .8rem 1rem; margin-bottom: 1rem; }
        .muted { color: var(--muted); } .small { font-size: .85rem; }
        .badge { display: inline-flex; align-items: center; gap: .25rem; font-size: .78rem; padding: .05rem .45rem;
          border-radius: 999px; border: 1px solid var(--line); margin-left: .4rem; vertical-align: middle; }
        .badge.verified { color: #fff; background: var(--accent); border-color: var(--accent); }
        .badge.unverified { color: #5c5c66; background: #eee; }
        .chip { font-size: .78rem; padding: .05rem .45rem; border-radius: 4px; background: #eee; margin-left: .3rem; }
        .chip.unread { background: var(--accent); color: #fff; } .chip.blocked { background: #c92a2a; color: #fff; }
        .chip.resolved { background: #d3f9d8; }
        ul.inbox { list-style: none; padding: 0; margin: 0; }
        ul.inbox li a { display: grid; grid-template-columns: 1fr auto; gap: .2rem 1rem; padding: .7rem .9rem; margin-bottom: .4rem;
          background: var(--card); border: 1px solid var(--line); border-radius: 10px; color: inherit; text-decoration: none; }
        ul.inbox li a:hover, ul.inbox li a:focus { border-color: var(--accent); }
        ul.inbox .who { font-weight: 600; } ul.inbox .last { grid-column: 1; color: var(--muted); white-space: nowrap;
          overflow: hidden; text-overflow: ellipsis; } ul.inbox .meta { grid-column: 2; grid-row: 1 / span 2; text-align: right; }
        ul.inbox .unread-row .who { color: #000; }
        .conversation { display: grid; grid-template-columns: minmax(0, 1fr) 340px; gap: 1rem; align-items: start; }
        @media (max-width: 860px) { .conversation { grid-template-columns: 1fr; } }
        .conversation-head { display: flex; align-items: center; gap: .6rem; flex-wrap: wrap; margin-bottom: .6rem; }
        .conversation-head h1 { margin: 0; flex: 1; }
        ol.transcript { list-style: none; padding: 0; margin: 0; max-height: 60vh; overflow-y: auto; }
        ol.transcript li { margin: .4rem 0; display: flex; flex-direction: column; }
        ol.transcript li .bubble { max-width: 75%; padding: .5rem .7rem; border-radius: 12px; background: #fff; border: 1px solid var(--line); }
        ol.transcript li.agent { align-items: flex-end; } ol.transcript li.agent .bubble { background: #fff4e6; border-color: #ffd8a8; }
        ol.transcript .text { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; }
        ol.transcript .by, ol.transcript .receipt { font-size: .78rem; color: var(--muted); margin: .1rem .3rem; }
        .thumbs { display: flex; gap: .3rem; flex-wrap: wrap; margin-top: .3rem; }
        .thumbs button { padding: 0; border: 0; background: none; } .thumbs img { max-width: 120px; max-height: 120px; border-radius: 6px; display: block; }
        .action-card { border: 1px dashed #c9a37a; border-radius: 8px; padding: .4rem .6rem; margin-top: .3rem; font-size: .9rem; }
        .typing { font-style: italic; color: var(--muted); min-height: 1.3em; margin: .3rem 0; }
        .composer textarea { width: 100%; min-height: 5rem; resize: vertical; }
        .composer .row { display: flex; gap: .6rem; flex-wrap: wrap; align-items: end; }
        .composer .row > div { flex: 1; min-width: 10rem; }
        .composer .send { display: flex; justify-content: flex-end; gap: .6rem; align-items: center; margin-top: .4rem; }
        .composer-notice { background: #ffe3e3; border-radius: 6px; padding: .3rem .6rem; }
        .pending { display: flex; gap: .3rem; flex-wrap: wrap; } .pending img { width: 64px; height: 64px; object-fit: cover; border-radius: 6px; }
        dl.fields { display: grid; grid-template-columns: max-content 1fr; gap: .2rem .8rem; margin: 0; }
        dl.fields dt { color: var(--muted); } dl.fields dd { margin: 0; overflow-wrap: anywhere; white-space: pre-wrap; }
        .actions { display: flex; flex-wrap: wrap; gap: .4rem; }
        table { border-collapse: collapse; width: 100%; background: #fff; }
        th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
        .settings section { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: .6rem 1rem 1rem; margin-bottom: 1rem; }
        .settings .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: .2rem 1rem; }
        .settings input[type=text], .settings input[type=number], .settings select, .settings textarea { width: 100%; }
        .counter { font-size: .8rem; color: var(--muted); } .counter.over { color: #c92a2a; }
        .preview-chat { border: 1px solid var(--line); border-radius: 14px; padding: .8rem; max-width: 320px; }
        .preview-chat .bar { font-weight: 600; text-align: center; margin-bottom: .6rem; }
        .preview-chat .bubble { border-radius: 12px; padding: .4rem .6rem; margin: .3rem 0; max-width: 80%; }
        .preview-chat .out { margin-left: auto; } .preview-chat .send { border-radius: 999px; padding: .3rem .8rem; text-align: center; }
        .push-preview { border-radius: 12px; background: #eceef2; padding: .6rem .8rem; max-width: 360px; }
        .push-preview strong { display: block; }
        dialog { border: 1px solid var(--line); border-radius: 12px; max-width: min(90vw, 520px); }
        dialog .buttons { display: flex; justify-content: flex-end; gap: .5rem; margin-top: 1rem; }
        dialog#viewer { max-width: 95vw; } dialog#viewer img { max-width: 90vw; max-height: 80vh; display: block; }
        .team-photo { width: 40px; height: 40px; border-radius: 50%; object-fit: cover; background: #eee; display: inline-block; }
        tr.request.failed td.status { color: #b00020; font-weight: 600; } td.path { font-family: ui-monospace, monospace; word-break: break-all; }
        .push-entry { display: grid; grid-template-columns: minmax(16rem, 22rem) 1fr; gap: 1rem; margin-bottom: 1rem; align-items: start; }
        .phone-push { background: rgba(245, 245, 247, .95); border-radius: 14px; padding: .6rem .8rem; box-shadow: 0 1px 4px rgba(0, 0, 0, .15); }
        .phone-push .push-app { font-size: .8rem; text-transform: uppercase; letter-spacing: .02em; }
        .phone-push .push-title, .phone-push .push-body { display: block; }
        .push-json { background: #fff; border: 1px solid #ddd; padding: .5rem; overflow: auto; max-height: 16rem; margin: 0; font-size: .8rem; }
        """#
}
