// "Try it": looks up one IP through GET /api/lookup and shows the answer.
// Without JavaScript the form still works: it opens the JSON answer.

import { type FormEvent, useId, useState } from "react";
import { messageOf } from "../api/http.ts";
import { useLookup } from "../api/lookup.ts";

export function LookupTryIt() {
  const lookup = useLookup();
  const [ip, setIp] = useState("8.8.8.8");
  const inputId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (ip.trim()) lookup.mutate(ip.trim());
  };

  return (
    <form action="/api/lookup" method="get" onSubmit={submit}>
      <label htmlFor={inputId}>Try it: IP address</label>
      <fieldset role="group">
        <input
          id={inputId}
          name="ip"
          value={ip}
          onChange={(event) => setIp(event.target.value)}
          placeholder="8.8.8.8"
          autoComplete="off"
          spellCheck={false}
        />
        <button type="submit" aria-busy={lookup.isPending || undefined}>
          Look up
        </button>
      </fieldset>
      <div aria-live="polite">
        {lookup.isError && (
          <p className="notice notice-error">
            {messageOf(lookup.error, "The lookup failed")}
          </p>
        )}
        {lookup.data && (
          <pre className="lookup-answer"><code>{JSON.stringify(lookup.data, null, 2)}</code></pre>
        )}
      </div>
    </form>
  );
}
