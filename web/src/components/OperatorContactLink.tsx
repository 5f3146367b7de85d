// The operator's contact (CONTACT_URL or CONTACT_EMAIL). Prerendered without
// one; the server writes this server's into the page (fillOperatorContact in
// server/routes/web.ts), so it reads without JavaScript, and the app renders
// the same link from GET /api/config once it has it.

import { contactLink } from "../../../shared/operator_contact.ts";
import { useServerConfig } from "../api/config.ts";

export function OperatorContactLink() {
  const { data } = useServerConfig();
  const { href, text } = contactLink(data?.contact);
  return (
    // The page may already hold the server's link while the config loads.
    <a
      className="operator-contact"
      href={href ?? undefined}
      suppressHydrationWarning
    >
      {text}
    </a>
  );
}
