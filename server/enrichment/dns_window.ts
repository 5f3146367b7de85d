// How many PTR queries may wait for a first answer at once (AIMD, as TCP
// does): start moderate, add a step per round while answers keep coming at a
// steady latency, halve when a round loses answers, shrink by a quarter when
// its latency doubles (the server or our socket is queueing). DNS_CONCURRENCY is the ceiling.
//
// Deno's UDP sockets take no receive-buffer option (Deno.listenDatagram has
// none, and node:dgram's recvBufferSize is accepted but not applied: a
// measured burst overflowed at the same ~256 datagrams either way), so the
// window is what keeps answers from overflowing the kernel's default buffer.
//
// A silent address (a zone that never answers) is not a loss: its first
// attempt times out and it leaves the window, but only an answer to the
// resend (which has an id of its own) counts as a lost one; a late answer to
// the first send is a round trip that climbed. A few random losses are not
// congestion either: a round decreases only past LOSS_SHARE of its answers.

/** Window at start (bounded by the ceiling). */
export const START_WINDOW = 32;
const MIN_WINDOW = 4;
/** Losses in a round that mean congestion: this share, and at least LOSS_MIN. */
const LOSS_SHARE = 0.05;
const LOSS_MIN = 3;
/** A round whose mean round trip exceeds the base by this factor is queueing. */
const LATENCY_FACTOR = 2;
/** A climbing round trip shrinks the window by this factor; a loss halves it. */
const LATENCY_BACKOFF = 0.75;
const LATENCY_SLACK_MS = 10;
/** First-attempt timeout: RTO_RTTS smoothed round trips, at least RTO_MIN_MS. */
const RTO_RTTS = 3;
const RTO_MIN_MS = 250;

const ROUND_RTTS = 4;
const ROUND_MIN_ANSWERS = 8;
/** A query leaves the window after this many round trips without answer. */
const RELEASE_RTTS = 2;
const RELEASE_MIN_MS = 50;

export interface WindowStats {
  /** The window now. */
  size: number;
  /** Largest window reached. */
  peak: number;
  increases: number;
  /** Halvings for lost answers, and for a round trip that climbed. */
  lossDecreases: number;
  latencyDecreases: number;
  /** Answers to a resend (the first send or its answer lost). */
  losses: number;
}

export class AdaptiveWindow {
  readonly ceiling: number;
  #cwnd: number;
  /** Added per round: the ceiling in about 16 rounds from the start. */
  #step: number;
  #srttMs: number | null = null;
  /** Lowest round mean seen, drifting up slowly (a path that changed). */
  #baseRttMs: number | null = null;
  #round = this.#newRound(0);
  readonly stats: WindowStats;

  constructor(ceiling: number, start = START_WINDOW) {
    this.ceiling = Math.max(1, Math.floor(ceiling));
    this.#cwnd = Math.min(this.ceiling, Math.max(1, start));
    this.#step = Math.max(1, Math.ceil(this.ceiling / 16));
    this.#round.target = this.size;
    this.stats = {
      size: this.size,
      peak: this.size,
      increases: 0,
      lossDecreases: 0,
      latencyDecreases: 0,
      losses: 0,
    };
  }

  /** Queries that may wait for a first answer now. */
  get size(): number {
    return Math.max(1, Math.floor(this.#cwnd));
  }

  /** How long a first attempt waits before it is sent again. */
  firstTimeoutMs(timeoutMs: number): number {
    const rto = this.#srttMs === null
      ? RTO_MIN_MS
      : Math.max(RTO_MIN_MS, RTO_RTTS * this.#srttMs);
    return Math.min(timeoutMs, Math.round(rto));
  }

  /**
   * How long a query holds its place in the window: RELEASE_RTTS smoothed
   * round trips (nearly every answer is in by then; one still out is
   * probably silent or lost), at most until its resend.
   */
  holdMs(firstMs: number): number {
    if (this.#srttMs === null) return firstMs;
    return Math.min(
      firstMs,
      Math.max(RELEASE_MIN_MS, RELEASE_RTTS * this.#srttMs),
    );
  }

  /** The caller had a query to send and the window was full. */
  saturated(): void {
    this.#round.full = true;
  }

  /**
   * An answer (a name or NXDOMAIN) `rttMs` after the send it answers;
   * `lost` when that was the resend (the first send or its answer lost).
   */
  answered(rttMs: number, lost: boolean): void {
    this.#srttMs = this.#srttMs === null
      ? rttMs
      : this.#srttMs + (rttMs - this.#srttMs) / 8;
    const round = this.#round;
    round.answers++;
    if (lost) {
      round.losses++;
      this.stats.losses++;
    }
    round.rttSum += rttMs;
    // A round is a window's worth of answers, or ROUND_RTTS round trips
    // when fewer come back (queries that left the window early, or lost).
    if (
      round.answers >= round.target ||
      (round.answers >= ROUND_MIN_ANSWERS &&
        performance.now() - round.startedAt >=
          ROUND_RTTS * this.#srttMs)
    ) this.#endRound();
  }

  #endRound(): void {
    const round = this.#round;
    const meanRtt = round.answers > 0 ? round.rttSum / round.answers : null;
    const lossy =
      round.losses >= Math.max(LOSS_MIN, LOSS_SHARE * round.answers);
    let queueing = false;
    if (meanRtt !== null) {
      if (this.#baseRttMs === null || meanRtt < this.#baseRttMs) {
        this.#baseRttMs = meanRtt;
      } else {
        queueing =
          meanRtt > this.#baseRttMs * LATENCY_FACTOR + LATENCY_SLACK_MS;
        this.#baseRttMs += (meanRtt - this.#baseRttMs) / 64;
      }
    }
    if (lossy || queueing) {
      // Loss halves, as TCP does. A climbing round trip is gentler: on a
      // busy machine it is often our own thread waiting for the processor.
      const factor = lossy ? 0.5 : LATENCY_BACKOFF;
      this.#cwnd = Math.max(
        Math.min(MIN_WINDOW, this.ceiling),
        this.#cwnd * factor,
      );
      if (lossy) this.stats.lossDecreases++;
      else this.stats.latencyDecreases++;
    } else if (round.full && this.#cwnd < this.ceiling) {
      // Grown only when the window was the limit: an idle caller proves
      // nothing about a larger one.
      this.#cwnd = Math.min(this.ceiling, this.#cwnd + this.#step);
      this.stats.increases++;
    }
    this.stats.size = this.size;
    this.stats.peak = Math.max(this.stats.peak, this.size);
    this.#round = this.#newRound(this.size);
  }

  #newRound(target: number) {
    return {
      target,
      answers: 0,
      losses: 0,
      rttSum: 0,
      full: false,
      startedAt: performance.now(),
    };
  }
}
