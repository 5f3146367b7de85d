// Tabs that read without JavaScript: the server renders every panel with a
// list of links to them; once hydrated they become ARIA tabs (arrow keys,
// Home and End move between tabs).

import { type KeyboardEvent, type ReactNode, useRef, useState } from "react";
import { useHydrated } from "../lib/use_hydrated.ts";

export interface TabItem {
  id: string;
  label: string;
  content: ReactNode;
}

export function Tabs({ items, label }: { items: TabItem[]; label: string }) {
  const hydrated = useHydrated();
  const [active, setActive] = useState(items[0]?.id);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);

  if (!hydrated) {
    return (
      <div className="tabs">
        <nav aria-label={label}>
          <ul>
            {items.map((item) => (
              <li key={item.id}>
                <a href={`#${item.id}`}>{item.label}</a>
              </li>
            ))}
          </ul>
        </nav>
        {items.map((item) => (
          <section key={item.id} id={item.id} className="tab-panel">
            <h2>{item.label}</h2>
            {item.content}
          </section>
        ))}
      </div>
    );
  }

  const onKeyDown = (event: KeyboardEvent, index: number) => {
    let next = index;
    if (event.key === "ArrowRight") next = (index + 1) % items.length;
    else if (event.key === "ArrowLeft") {
      next = (index - 1 + items.length) % items.length;
    } else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = items.length - 1;
    else return;
    event.preventDefault();
    setActive(items[next].id);
    buttons.current[next]?.focus();
  };

  return (
    <div className="tabs">
      <div role="tablist" aria-label={label} className="tab-list">
        {items.map((item, index) => (
          <button
            key={item.id}
            ref={(element) => {
              buttons.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`tab-${item.id}`}
            aria-selected={item.id === active}
            aria-controls={item.id}
            tabIndex={item.id === active ? 0 : -1}
            className={item.id === active ? "tab active" : "tab outline"}
            onClick={() => setActive(item.id)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {item.label}
          </button>
        ))}
      </div>
      {items.map((item) => (
        <section
          key={item.id}
          id={item.id}
          role="tabpanel"
          aria-labelledby={`tab-${item.id}`}
          hidden={item.id !== active}
          className="tab-panel"
          tabIndex={0}
        >
          <h2>{item.label}</h2>
          {item.content}
        </section>
      ))}
    </div>
  );
}
