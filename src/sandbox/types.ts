/** The sandbox's entry point contract, as the CLI and the test harnesses use it. */
import type { AgentOptions } from './agent/index.js';
import type { SecretSource } from './secretSource.js';
import type { SignInOptions } from './routes/signin.js';

export interface SandboxOptions {
  /** Loopback by default. */
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** With a data dir, state survives restarts; without, a temporary database removed on close. */
  dataDir?: string;
  /**
   * Where each intern's workspace (its terminal's working folder) lives: `<dir>/<intern id>`.
   * Never inside the data folder. Default: a temporary folder, removed on close.
   */
  workspacesDir?: string;
  /** Writes the manifest (mode 0600) here once listening. */
  manifestPath?: string;
  seed?: 'demo' | 'empty';
  /** Route deadline; default 10000. */
  deadlineMs?: number;
  /** The program each intern's terminal runs; default the user's shell in a scratch folder of that intern. */
  daemonCommand?: string;
  /** Lifecycle step duration; tests make it short. */
  stepMs?: number;
  /** The local agent's pace and limits (tests make them short); see AgentOptions. */
  agent?: AgentOptions & { keepaliveMs?: number };
  /** Lifetimes of sign-in codes and OAuth tokens (tests make them short). */
  signIn?: SignInOptions;
  /** One line per request; default no logging. */
  log?: (line: string) => void;
  /**
   * The sealing key's source (crypto.ts). Default: INTERN_SANDBOX_SECRET_FILE or INTERN_SANDBOX_SECRET
   * (taken from the environment once, then removed from it), else `<dataDir>/secret.key`.
   */
  secret?: SecretSource;
  /**
   * Paths the interns' shells must not see, beside the data folder, the manifest and the secret
   * file: the CLI's config folder (daemon/confine.ts). Missing ones are skipped.
   */
  privatePaths?: string[];
  /** One-line notes at start (a secret in the environment, a shell that cannot be confined); default stderr. */
  notice?: (line: string) => void;
}

export interface Manifest {
  base_url: string;
  /** The site's sign-in page (`<origin>/auth`): approves at once and hands out a code. */
  sign_in_url: string;
  /** The OAuth authorization server's issuer (RFC 8414 metadata at `<issuer>/.well-known/oauth-authorization-server`). */
  issuer: string;
  regional_host: string;
  control_token: string;
  deadline_ms: number;
  credentials: Record<string, string>;
  api_key_hashes: { own: string[]; foreign: string[] };
  interns: Record<string, string>;
  names: { taken: string; peer_taken: string };
}

export interface RunningSandbox {
  /** `http://127.0.0.1:PORT/api/v1` */
  baseUrl: string;
  /** `http://127.0.0.1:PORT` (the control API lives at `${origin}/__sandbox`). */
  origin: string;
  manifest: Manifest;
  /** The folder of the interns' workspaces (outside the data folder). */
  workspacesDir: string;
  /** Finishes in-flight requests, closes terminals and the database. */
  close(): Promise<void>;
}
