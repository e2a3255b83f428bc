/**
 * The whole status page: the refreshing part (render.ts) in a shell with its
 * styles and a small script, both allowed by a per-response nonce and nothing
 * else (the Content-Security-Policy says so). The script refreshes the main
 * part every few seconds and sends pause and resume with the admin token typed
 * into the form, as the `Authorization` header `POST /pause` takes: no cookie,
 * so no cross-site request can act. With scripts off the page still reads.
 */
import { randomBytes } from 'node:crypto';
import { Html, html } from './html.js';
import { renderMain, type PageInput } from './render.js';

export interface RenderedPage {
  readonly body: string;
  readonly contentSecurityPolicy: string;
}

const REFRESH_MS = 5000;

export function renderPage(input: PageInput): RenderedPage {
  const nonce = randomBytes(16).toString('base64');
  const body = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Rampart status</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<header><h1>Rampart</h1><nav><a href="/plan">/plan</a> <a href="/metrics">/metrics</a> <a href="/readyz">/readyz</a></nav></header>
<main id="main">${renderMain(input)}</main>
${pauseForm(input.admin)}
<footer class="muted">Refreshes every ${REFRESH_MS / 1000} s (<code>?every=N</code> for N). <span id="refreshed"></span></footer>
<script nonce="${nonce}">${script()}</script>
</body>
</html>
`;
  const contentSecurityPolicy = [
    "default-src 'none'", `script-src 'nonce-${nonce}'`, `style-src 'nonce-${nonce}'`, "connect-src 'self'",
    "img-src 'self'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
  ].join('; ');
  return { body: body.text, contentSecurityPolicy };
}

function pauseForm(admin: boolean): Html {
  if (!admin) return html`<section class="admin"><h2>Pause</h2><p class="muted" data-testid="read-only">Read-only: this daemon has no admin token (<code>--admin-token-file</code>), so pausing from here is off.</p></section>`;
  return html`<section class="admin"><h2>Pause</h2>
<form id="pause-form">
  <label>Admin token <input type="password" id="token" autocomplete="off" required></label>
  <label>Reason <input type="text" id="reason" maxlength="200" placeholder="incident 12"></label>
  <button type="submit" id="pause">Pause writes</button> <button type="button" id="resume">Resume</button>
  <span id="pause-result" role="status"></span>
</form></section>`;
}

/** Plain script, no interpolation of anything but constants. */
function script(): Html {
  return new Html(`
(() => {
  const main = document.getElementById('main');
  const stamp = document.getElementById('refreshed');
  async function refresh() {
    try {
      const response = await fetch('/?part=main', { cache: 'no-store' });
      if (response.ok) { main.innerHTML = await response.text(); stamp.textContent = 'Updated ' + new Date().toLocaleTimeString(); }
    } catch (error) { stamp.textContent = 'Not reachable: ' + error; }
  }
  // \`?every=N\` refreshes every N seconds (1 to 60) instead.
  const every = Math.min(60, Math.max(1, Number(new URLSearchParams(location.search).get('every')) || ${REFRESH_MS / 1000}));
  setInterval(refresh, every * 1000);
  const form = document.getElementById('pause-form');
  if (!form) return;
  const result = document.getElementById('pause-result');
  async function send(method) {
    const token = document.getElementById('token').value;
    const reason = document.getElementById('reason').value;
    const response = await fetch('/pause', {
      method, headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' },
      body: method === 'POST' ? JSON.stringify({ reason }) : undefined,
    });
    result.textContent = response.ok ? (method === 'POST' ? 'Paused.' : 'Resumed.') : 'Refused (' + response.status + '): check the token.';
    result.className = response.ok ? 'ok' : 'error';
    refresh();
  }
  form.addEventListener('submit', (event) => { event.preventDefault(); send('POST'); });
  document.getElementById('resume').addEventListener('click', () => send('DELETE'));
})();
`);
}

// Markup, not a value: escaped, its quotes broke the font rule and the page rendered in Times.
const STYLE = new Html(`
:root { --fg: #1f2328; --muted: #656d76; --line: #d0d7de; --ok: #1a7f37; --warn: #9a6700; --bad: #cf222e; --bg: #f6f8fa; }
body { font: 14px/1.5 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: var(--fg); margin: 0 auto; max-width: 1100px; padding: 0 24px 24px; }
header { display: flex; justify-content: space-between; align-items: baseline; border-bottom: 1px solid var(--line); }
header h1 { font-size: 20px; margin: 16px 0 8px; }
nav a { margin-left: 12px; color: #0969da; }
h2 { font-size: 16px; margin: 24px 0 8px; }
.summary { display: flex; gap: 24px; align-items: flex-start; margin-top: 16px; flex-wrap: wrap; }
.summary dl { display: grid; grid-template-columns: max-content auto; gap: 4px 16px; margin: 0; }
.summary dt { color: var(--muted); }
.summary dd { margin: 0; }
.badge { font-weight: 600; padding: 6px 14px; border-radius: 999px; color: #fff; background: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
.badge.ready { background: var(--ok); } .badge.degraded { background: var(--bad); } .badge.paused { background: var(--warn); }
.reason { margin: 6px 0; max-width: 420px; }
.warn, .error { color: var(--bad); } .ok { color: var(--ok); }
.muted { color: var(--muted); }
pre.plan { background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 12px; overflow: auto; max-height: 480px; }
.caution { border-left: 4px solid var(--bad); background: #ffebe9; padding: 8px 12px; border-radius: 4px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
td.cause.drift, td.result.failed, td.result.unsafe { color: var(--bad); } td.cause.intent { color: var(--ok); }
.chart { width: 100%; height: auto; background: var(--bg); border: 1px solid var(--line); border-radius: 6px; }
.chart .changes { fill: #54aeff; } .chart .drift { fill: #fa4549; } .chart .axis { stroke: var(--muted); }
.chart .tick { font-size: 10px; fill: var(--muted); }
.chart .no-op, .legend .swatch.no-op, .chart .skipped, .legend .swatch.skipped { fill: #8c959f; background: #8c959f; }
.chart .paused, .legend .swatch.paused { fill: #bf8700; background: #bf8700; }
.chart .unsafe, .chart .churn, .legend .swatch.unsafe, .legend .swatch.churn { fill: #bc4c00; background: #bc4c00; }
.chart .failed, .legend .swatch.failed, .chart .invalid, .legend .swatch.invalid { fill: #cf222e; background: #cf222e; }
.legend .swatch { display: inline-block; width: 10px; height: 10px; margin: 0 4px 0 12px; }
.legend .swatch.mark { width: 4px; }
.legend .swatch.changes { background: #54aeff; } .legend .swatch.drift { background: #fa4549; }
.problems { margin: 8px 0; } .problems ul { margin: 4px 0; padding-left: 20px; }
.admin form { display: flex; gap: 12px; align-items: center; flex-wrap: wrap; }
input { padding: 4px 8px; border: 1px solid var(--line); border-radius: 6px; }
button { padding: 5px 12px; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); cursor: pointer; }
footer { margin-top: 24px; font-size: 12px; }
/* A phone (360 px): the page never scrolls sideways; the plan and the tables scroll inside their own boxes, long words wrap. */
header { flex-wrap: wrap; column-gap: 12px; }
.scroll { overflow-x: auto; }
.summary > *, .summary dd { min-width: 0; max-width: 100%; overflow-wrap: anywhere; }
.caution, .problems, footer { overflow-wrap: anywhere; }
@media (max-width: 600px) { body { padding: 0 12px 12px; } nav a { margin: 0 12px 0 0; } .admin input { max-width: 100%; } }
`);
