// The sign-in page of a locked server: HTML without script (the server's
// Content-Security-Policy allows no inline script), so it works before the
// web app is loaded and without JavaScript. It links the built app's
// stylesheet (Pico CSS and the app's own), which the lock leaves open; the
// inline style keeps it readable when the app is not built.

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

export function signInPage(
  options: { next: string; error?: string; stylesheets?: readonly string[] },
): string {
  const error = options.error
    ? `<p role="alert" class="sign-in-error">${escapeHtml(options.error)}</p>`
    : "";
  const links = (options.stylesheets ?? []).map((href) =>
    `<link rel="stylesheet" href="${escapeHtml(href)}">`
  ).join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · IP Enrichment</title>
${links}
<style>
  body { font-family: system-ui, sans-serif; }
  .sign-in { max-width: 26rem; margin: 12vh auto; padding: 0 1rem; }
  .sign-in label, .sign-in input, .sign-in button { display: block; width: 100%; box-sizing: border-box; }
  .sign-in-error { color: #c0262d; }
</style>
</head>
<body>
<main class="container sign-in">
<article>
<hgroup>
<h1>IP Enrichment</h1>
<p>This server is private. Enter the access password to continue.</p>
</hgroup>
${error}
<form method="post" action="/signin">
<input type="hidden" name="next" value="${escapeHtml(options.next)}">
<label for="password">Access password
<input id="password" name="password" type="password" autocomplete="current-password" required autofocus${
    options.error ? ' aria-invalid="true"' : ""
  }>
</label>
<button type="submit">Sign in</button>
</form>
</article>
</main>
</body>
</html>
`;
}
