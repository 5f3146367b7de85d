// Every page: header, the notifications' strip, main content, footer.

import type { ReactNode } from "react";
import { NotificationRegion } from "./Notifications.tsx";
import { SiteFooter } from "./SiteFooter.tsx";
import { SiteHeader } from "./SiteHeader.tsx";

export function Layout({ children }: { children: ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#main">Skip to content</a>
      <SiteHeader />
      <NotificationRegion />
      <main id="main" className="container" tabIndex={-1}>
        {children}
      </main>
      <SiteFooter />
    </>
  );
}
