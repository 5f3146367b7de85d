// The sign-in page of a locked server: plain HTML, no script (the server's
// Content-Security-Policy allows inline styles only), so it works before
// the web app is loaded and without JavaScript.

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

export function signInPage(options: { next: string; error?: string }): string {
  const error = options.error
    ? `<p role="alert" class="error">${escapeHtml(options.error)}</p>`
    : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · IP Enrichment</title>
<style>
  body { font-family: system-ui, sans-serif; max-width: 22rem; margin: 15vh auto; padding: 0 1rem; }
  label, input, button { display: block; width: 100%; box-sizing: border-box; }
  input, button { font-size: 1rem; padding: .6rem; margin-top: .4rem; }
  button { margin-top: 1rem; cursor: pointer; }
  .error { color: #b00020; }
</style>
</head>
<body>
<main>
<h1>IP Enrichment</h1>
<p>This server is private. Enter the access password to continue.</p>
${error}
<form method="post" action="/signin">
<input type="hidden" name="next" value="${escapeHtml(options.next)}">
<label for="password">Access password
<input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
</label>
<button type="submit">Sign in</button>
</form>
</main>
</body>
</html>
`;
}
