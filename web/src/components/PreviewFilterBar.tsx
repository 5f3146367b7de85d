// The preview's filters: network type, kept, filtered or failed, and text in
// the company or ASN. The server filters and pages; typing is debounced so a
// word typed is one request, not one per letter.

import { useEffect, useState } from "react";
import type { PreviewFilters } from "../api/queries.ts";
import { NETWORK_TYPES } from "../../../shared/network_types.ts";
import { networkTypeLabel } from "./summary/labels.ts";

/** Wait after the last key before the text filter is sent. */
export const TEXT_DEBOUNCE_MS = 300;

interface Props {
  filters: PreviewFilters;
  onChange: (filters: PreviewFilters) => void;
}

export function PreviewFilterBar({ filters, onChange }: Props) {
  const [text, setText] = useState(filters.text ?? "");

  useEffect(() => {
    if (text === (filters.text ?? "")) return;
    const timer = setTimeout(
      () => onChange({ ...filters, text }),
      TEXT_DEBOUNCE_MS,
    );
    return () => clearTimeout(timer);
  }, [text, filters, onChange]);

  return (
    <fieldset className="preview-filters" aria-label="Filter the preview">
      <label>
        Network type
        <select
          name="network_type"
          value={filters.networkType ?? ""}
          onChange={(e) =>
            onChange({ ...filters, networkType: e.target.value || undefined })}
        >
          <option value="">All types</option>
          {NETWORK_TYPES.map((type) => (
            <option key={type} value={type}>{networkTypeLabel(type)}</option>
          ))}
          <option value="unknown">Unknown</option>
        </select>
      </label>
      <label>
        Rows
        <select
          name="status"
          value={filters.status ?? ""}
          onChange={(e) =>
            onChange({
              ...filters,
              status: (e.target.value || undefined) as PreviewFilters["status"],
            })}
        >
          <option value="">All rows</option>
          <option value="kept">Kept (in the download)</option>
          <option value="filtered">Filtered (left out)</option>
          <option value="failed">Failed</option>
        </select>
      </label>
      <label>
        Company or ASN
        <input
          type="search"
          name="q"
          maxLength={200}
          placeholder="e.g. Google or AS15169"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </label>
    </fieldset>
  );
}
