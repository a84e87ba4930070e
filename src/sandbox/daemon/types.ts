/**
 * The seam between the sandbox's HTTP side (routes, lifecycle) and its daemon
 * terminals. The lifecycle starts and stops an intern's daemon; the daemon
 * access route asks it for a token. Implemented by daemon/index.ts.
 */
export interface DaemonHub {
  /** Starts the intern's daemon endpoint (idempotent) and answers its origin, e.g. `http://127.0.0.1:40123`. */
  start(intern: { id: string; name: string }): Promise<{ origin: string }>;
  /** The running daemon's origin, or undefined when it is not started. */
  originOf(internId: string): string | undefined;
  /** A fresh token for the intern's daemon: random, at least 32 bytes, URL-safe. Valid for DAEMON_TOKEN_TTL_MS or until the daemon stops. */
  issueToken(internId: string): string;
  /** State of the intern's daemon (flow, live tokens), for tests and diagnostics; undefined when it is not started. */
  inspect(internId: string): DaemonState | undefined;
  /**
   * Types `command` into the intern's terminal (starting it if needed), as a person would, and streams
   * what it prints until it ends, is cancelled (ctrl+c) or passes `timeoutMs` (ctrl+c). The local agent's
   * `run:` uses it, so the command shows in attach too.
   */
  exec(
    intern: { id: string; name: string },
    command: string,
    opts: { onOutput: (text: string) => void; signal?: AbortSignal; timeoutMs: number },
  ): Promise<{ code: number | null; timedOut: boolean; cancelled: boolean }>;
  /** Ends the intern's terminals with an exit message (suspend, delete) and stops its endpoint. */
  stop(internId: string, reason: string): Promise<void>;
  /** Stops every daemon. */
  close(): Promise<void>;
}

import type { Confinement } from './confine.js';

export interface DaemonHubOptions {
  /** The interface the endpoints listen on (the sandbox's host). */
  host: string;
  /** The command each terminal runs; default the user's shell. */
  command?: string;
  /** Each intern gets a scratch folder below this one, the terminal's working directory. */
  scratchRoot: string;
  /** Scrollback replay buffer per terminal; at least 1 MiB. */
  replayBytes?: number;
  /** Lifetime of a token for new connections; default DAEMON_TOKEN_TTL_MS. */
  tokenTtlMs?: number;
  /** The clock for token expiry; default Date.now (tests move it). */
  now?: () => number;
  /** Whether terminals are confined (confine.ts); default the machine's answer to probeConfinement(). */
  confinement?: Promise<Confinement>;
  /** Paths a terminal's program must not see (confine.ts), read each time one starts; default none. */
  privatePaths?: () => readonly string[];
}

export interface DaemonState {
  /** The daemon has stopped reading the pseudo-terminal (the program blocks on its writes). */
  paused: boolean;
  /** Offset just past the last output byte read from the pseudo-terminal. */
  end: number;
  /** Offset of the oldest byte still held for replay. */
  start: number;
  /** The program is running (it has not ended, or a new one was started). */
  running: boolean;
  /** Connected clients. */
  clients: number;
  /** Tokens that have not expired. */
  tokens: number;
}
