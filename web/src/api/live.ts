// The live feed of a running job: job updates over the /ws socket, and the
// newest results by polling recent-results.

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type {
  ClientMessage,
  ResultRow,
  ServerMessage,
} from "../../../shared/wire.ts";
import { fetchRecentResults, jobQuery } from "./queries.ts";

/** How many live results the processing view keeps and asks for. */
export const LIVE_RESULTS_LIMIT = 100;
const LIVE_RESULTS_POLL_MS = 2000;
const SOCKET_RECONNECT_MS = 3000;

/**
 * The latest 100 results first, then every 2 s what came since, keeping the
 * last 100. Failed fetches are only logged.
 */
export function useLiveResults(jobId: number, polling: boolean): ResultRow[] {
  const [rows, setRows] = useState<ResultRow[]>([]);
  /** Row index to ask from next; null until the first answer. */
  const nextIndex = useRef<number | null>(null);
  const fetching = useRef(false);
  const wasPolling = useRef(polling);

  const fetchNext = useRef<() => Promise<void>>(async () => {});
  fetchNext.current = async () => {
    if (fetching.current) return;
    fetching.current = true;
    try {
      const first = nextIndex.current === null;
      const answer = await fetchRecentResults(
        jobId,
        nextIndex.current ?? 0,
        LIVE_RESULTS_LIMIT,
        first,
      );
      nextIndex.current = answer.nextIndex;
      if (answer.results.length) {
        setRows((old) =>
          (first ? answer.results : [...old, ...answer.results]).slice(
            -LIVE_RESULTS_LIMIT,
          )
        );
      }
    } catch (error) {
      console.error(error);
    } finally {
      fetching.current = false;
    }
  };

  useEffect(() => {
    nextIndex.current = null;
    setRows([]);
    fetchNext.current();
  }, [jobId]);

  useEffect(() => {
    if (!polling) {
      // One last fetch picks up the rows written just before the end.
      if (wasPolling.current) fetchNext.current();
      wasPolling.current = false;
      return;
    }
    wasPolling.current = true;
    const timer = setInterval(() => fetchNext.current(), LIVE_RESULTS_POLL_MS);
    return () => clearInterval(timer);
  }, [jobId, polling]);

  return rows;
}

/**
 * Subscribes to a job's updates on /ws while `enabled`; every jobUpdate
 * replaces the cached job. Returns whether the socket is connected. The
 * socket reconnects after a drop; unparsable messages are only logged.
 */
export function useJobUpdates(jobId: number, enabled: boolean): boolean {
  const queryClient = useQueryClient();
  const [connected, setConnected] = useState(false);

  useEffect(() => {
    if (!enabled || typeof WebSocket === "undefined") return;
    let socket: WebSocket | null = null;
    let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
    let closed = false;
    const sendMessage = (message: ClientMessage) => {
      if (socket?.readyState === WebSocket.OPEN) {
        socket.send(JSON.stringify(message));
      }
    };
    const connect = () => {
      const protocol = location.protocol === "https:" ? "wss:" : "ws:";
      socket = new WebSocket(`${protocol}//${location.host}/ws`);
      socket.onopen = () => {
        setConnected(true);
        sendMessage({ type: "subscribe", jobId });
      };
      socket.onmessage = (event) => {
        let message: ServerMessage;
        try {
          message = JSON.parse(String(event.data));
        } catch (error) {
          console.error("Could not parse live update", error);
          return;
        }
        if (message.type === "jobUpdate" && message.jobId === jobId) {
          queryClient.setQueryData(jobQuery(jobId).queryKey, message.data.job);
        }
      };
      socket.onclose = () => {
        setConnected(false);
        if (!closed) reconnectTimer = setTimeout(connect, SOCKET_RECONNECT_MS);
      };
      socket.onerror = () => socket?.close();
    };
    connect();
    return () => {
      closed = true;
      clearTimeout(reconnectTimer);
      sendMessage({ type: "unsubscribe", jobId });
      socket?.close();
      setConnected(false);
    };
  }, [jobId, enabled, queryClient]);

  return connected;
}
