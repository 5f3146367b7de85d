// Toast notifications: receives what showToast() sends and shows the queue
// in a region that F8 focuses. One toast at a time; 5 s; swipe right to dismiss.
// The region is a strip of the page under the header (NotificationRegion,
// placed by Layout), so a toast moves the page down rather than covering it.

import {
  createContext,
  type PointerEvent,
  type ReactNode,
  type RefObject,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
} from "react";
import {
  addToast,
  receiveToasts,
  type Toast,
  TOAST_DURATION_MS,
  TOAST_REMOVE_DELAY_MS,
  TOAST_SWIPE_THRESHOLD_PX,
  type ToastInput,
} from "../lib/toast.ts";

let nextId = 1;

interface Queue {
  toasts: Toast[];
  dismiss: (id: number) => void;
  region: RefObject<HTMLOListElement | null>;
}

const QueueContext = createContext<Queue | null>(null);

export function Notifications({ children }: { children: ReactNode }) {
  const [queue, setQueue] = useState<Toast[]>([]);
  const region = useRef<HTMLOListElement>(null);

  const dismiss = useCallback((id: number) => {
    setQueue((queued) =>
      queued.map((toast) => toast.id === id ? { ...toast, open: false } : toast)
    );
    setTimeout(
      () => setQueue((queued) => queued.filter((toast) => toast.id !== id)),
      TOAST_REMOVE_DELAY_MS,
    );
  }, []);

  useEffect(() =>
    receiveToasts((input: ToastInput) => {
      setQueue((queued) =>
        addToast(queued, { ...input, id: nextId++, open: true })
      );
    }), []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "F8") {
        event.preventDefault();
        region.current?.focus();
      }
    };
    globalThis.addEventListener("keydown", onKey);
    return () => globalThis.removeEventListener("keydown", onKey);
  }, []);

  return (
    <QueueContext.Provider value={{ toasts: queue, dismiss, region }}>
      {children}
    </QueueContext.Provider>
  );
}

/** Where the toasts show: a strip of the page, placed by the layout. */
export function NotificationRegion() {
  const queue = useContext(QueueContext);
  if (!queue) return null;
  return (
    <section aria-label="Notifications (F8)" className="notifications">
      <ol
        ref={queue.region}
        tabIndex={-1}
        aria-label="Notifications"
        className="container"
      >
        {queue.toasts.filter((toast) => toast.open).map((toast) => (
          <ToastItem key={toast.id} toast={toast} onDismiss={queue.dismiss} />
        ))}
      </ol>
    </section>
  );
}

function ToastItem(
  { toast, onDismiss }: { toast: Toast; onDismiss: (id: number) => void },
) {
  const [paused, setPaused] = useState(false);
  const [offset, setOffset] = useState(0);
  const start = useRef<number | null>(null);

  useEffect(() => {
    if (paused) return;
    const timer = setTimeout(() => onDismiss(toast.id), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [paused, toast.id, onDismiss]);

  const onPointerDown = (event: PointerEvent<HTMLLIElement>) => {
    if ((event.target as HTMLElement).closest("button")) return;
    start.current = event.clientX;
    event.currentTarget.setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLLIElement>) => {
    if (start.current !== null) {
      setOffset(Math.max(0, event.clientX - start.current));
    }
  };
  // How far the pointer went is read from the event that ends the swipe:
  // `offset` is the last rendered one, which may not have caught up yet.
  const onPointerUp = (event: PointerEvent<HTMLLIElement>) => {
    if (start.current === null) return;
    const moved = event.clientX - start.current;
    start.current = null;
    if (moved >= TOAST_SWIPE_THRESHOLD_PX) onDismiss(toast.id);
    else setOffset(0);
  };
  const onPointerCancel = () => {
    start.current = null;
    setOffset(0);
  };

  const destructive = toast.variant === "destructive";
  return (
    <li
      className={`toast${destructive ? " toast-destructive" : ""}`}
      data-testid="toast"
      style={offset ? { transform: `translateX(${offset}px)` } : undefined}
      onPointerEnter={() => setPaused(true)}
      onPointerLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerCancel}
    >
      {/* The live region inside the list item: a list holds only items. */}
      <div
        role={destructive ? "alert" : "status"}
        aria-live={destructive ? "assertive" : "polite"}
        aria-atomic="true"
      >
        <strong className="toast-title">{toast.title}</strong>
        {toast.description && (
          <p className="toast-description">{toast.description}</p>
        )}
      </div>
      <button
        type="button"
        className="toast-close"
        aria-label="Close notification"
        onClick={() => onDismiss(toast.id)}
      >
        ×
      </button>
    </li>
  );
}
