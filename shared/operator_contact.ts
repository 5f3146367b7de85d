// Who answers for this server (CONTACT_EMAIL, CONTACT_URL): the link the
// contact and privacy pages show. The server writes it into the prerendered
// pages and the web app renders the same from GET /api/config, so both give
// one link.

export interface OperatorContact {
  /** CONTACT_EMAIL: an address people may write to. */
  email: string | null;
  /** CONTACT_URL: a page or form (http, https or mailto). */
  url: string | null;
}

/** What the prerendered pages say until the server fills in the contact. */
export const NO_CONTACT_TEXT =
  "not named: the operator has not set CONTACT_EMAIL or CONTACT_URL";

/** The link to the operator: the page when set, else the address. */
export function contactLink(
  contact: OperatorContact | undefined,
): { href: string | null; text: string } {
  if (contact?.url) return { href: contact.url, text: contact.url };
  if (contact?.email) {
    return { href: `mailto:${contact.email}`, text: contact.email };
  }
  return { href: null, text: NO_CONTACT_TEXT };
}
