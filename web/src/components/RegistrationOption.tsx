// The "Registration data (online)" job option, shown only when the server
// has RDAP on (GET /api/config). Its estimate is an upper bound: one RDAP
// query per row at the server's rate, where the server asks once per
// distinct /24 block (or registered network) and only for rows of access
// and carrier networks, and reuses cached answers.
import { useId } from "react";
import { useServerConfig } from "../api/config.ts";
import { roughDuration } from "../lib/rough_duration.ts";

interface Props {
  rowCount: number | undefined;
  checked: boolean;
  onChange: (checked: boolean) => void;
}

export function RegistrationOption({ rowCount, checked, onChange }: Props) {
  const { data } = useServerConfig();
  const hintId = useId();
  if (!data?.rdap?.enabled) return null;
  const rate = data.rdap.rate;
  const estimate = typeof rowCount === "number" && rate > 0
    ? `at most ${roughDuration(rowCount / rate)} more for this file ` +
      `(${rate} queries a second; one per address block, cached)`
    : `${rate} queries a second; one per address block, cached`;
  return (
    <fieldset>
      <legend>Registration</legend>
      <label>
        <input
          type="checkbox"
          name="includeRegistration"
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          aria-describedby={hintId}
        />
        Registration data (online)
      </label>
      <small id={hintId} className="muted">
        Asks the address registries (RDAP) who holds each block inside access
        and carrier networks: a business renting from a carrier is named as the
        company. Upper bound: {estimate}.
      </small>
    </fieldset>
  );
}
