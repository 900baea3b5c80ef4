// The console's login page: plain HTML with its style inline, the only page served without a session
// (no script, no asset of the console is served before login).

const STYLE = `body{font:15px system-ui,sans-serif;background:#f4f5f7;color:#1d2330;display:grid;place-items:center;min-height:100vh;margin:0}
form{background:#fff;padding:28px 32px;border-radius:10px;box-shadow:0 2px 12px #0002;width:360px}
h1{font-size:20px;margin:0 0 6px}p{color:#555;margin:0 0 16px;font-size:13px}
input{width:100%;box-sizing:border-box;padding:8px 10px;border:1px solid #bbb;border-radius:6px;font:inherit}
button{margin-top:12px;width:100%;padding:8px;border:0;border-radius:6px;background:#2656c9;color:#fff;font:inherit;cursor:pointer}
.error{color:#b3261e;font-size:13px;margin:0 0 12px}`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function loginPage(error?: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Squadron console — log in</title><style>${STYLE}</style></head><body>
<form method="post" action="/login" id="login">
<h1>Squadron console</h1>
<p>Open the login link <code>squadron ui</code> printed, or enter an API token (<code>squadron token create</code>).</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<input name="token" type="password" autocomplete="off" placeholder="token" aria-label="token" required>
<button type="submit">Log in</button>
</form></body></html>`;
}
