// The server's log lines. Text that came from outside (a request path, a
// file's cell, an error message quoting either) never reaches the console as
// a format string, where `%c`/`%f` would eat the arguments after it, and its
// control characters are written escaped, so a `\n` in a URL cannot start a
// line that looks like the server's own. A stack trace keeps its frame lines
// (V8's, naming our files); only its message is escaped.

/** `\n`, `\r`, `\t`, `\e`... as visible escapes; other text unchanged. */
export function escapeControl(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (ch) => {
    const named: Record<string, string> = {
      "\n": "\\n",
      "\r": "\\r",
      "\t": "\\t",
    };
    return named[ch] ??
      `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}

const FRAMES = /^(\n {4}at [^\n]*)+$/;

function errorText(error: Error): string {
  const head = `${error.name}: ${error.message}`;
  const stack = error.stack ?? "";
  const frames = stack.startsWith(head) ? stack.slice(head.length) : "";
  let text = escapeControl(head) + (FRAMES.test(frames) ? frames : "");
  if (error.cause !== undefined) text += ` (cause: ${partText(error.cause)})`;
  return text;
}

function partText(part: unknown): string {
  if (part instanceof Error) return errorText(part);
  if (typeof part === "string") return escapeControl(part);
  return escapeControl(Deno.inspect(part, { colors: false, depth: 4 }));
}

/** The one line (plus an error's stack frames) that `parts` make. */
export function logText(parts: unknown[]): string {
  return parts.map(partText).join(" ");
}

/** console.error of `parts`, none of them read as a format string. */
export function logError(...parts: unknown[]): void {
  console.error("%s", logText(parts));
}

export function logWarn(...parts: unknown[]): void {
  console.warn("%s", logText(parts));
}

export type LogLevel = "debug" | "info" | "warn" | "error";

/** A LOG_LEVEL setting as a level; "info" when unset or unknown. */
export function logLevelOf(text: string | undefined): LogLevel {
  return ["debug", "info", "warn", "error"].includes(text ?? "")
    ? text as LogLevel
    : "info";
}

// Read in each thread and process that logs (job threads have no config).
const level = logLevelOf(
  Deno.permissions.querySync({ name: "env", variable: "LOG_LEVEL" }).state ===
      "granted"
    ? Deno.env.get("LOG_LEVEL")
    : undefined,
);

/** console.log of `parts` unless LOG_LEVEL is warn or error. */
export function logInfo(...parts: unknown[]): void {
  if (level === "warn" || level === "error") return;
  console.log("%s", logText(parts));
}
