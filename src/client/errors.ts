/**
 * The client's typed errors. None of them ever holds a credential: messages are
 * built from the route, the status and the service's own (sanitized) words.
 */
import type { CredentialKind, RouteCredential } from '../contract/routes.js';
import { CREDENTIAL_SOURCES, credentialOfRoute } from '../contract/routes.js';

/** The longest `Retry-After` the client waits out by itself; asked to wait longer, it says so and stops. */
export const RETRY_AFTER_MAX_MS = 30_000;

/** A wait in whole seconds for people ("try again in 45 s"), at least 1. */
export const waitSeconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/** A service error from either envelope, mapped to one shape. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** How long the service asked the client to wait (`Retry-After`), when it said. */
  retryAfterMs: number | undefined;
  constructor(
    readonly status: number,
    /** `error.code` as sent: the HTTP status, or on older deployments the reason string. */
    readonly code: number | string,
    /** `metadata.reason`, or a string `code`, or null when the service gave none. */
    readonly reason: string | null,
    readonly retryable: boolean,
    message: string,
    /** `GET /interns/{internId}`: the route template, never a filled path with ids or queries. */
    readonly route: string,
  ) {
    super(message);
  }

  /** The credential the route takes, from the route table (undefined for a route not in it). */
  get credential(): RouteCredential | undefined {
    return credentialOfRoute(this.route);
  }
}

/** A route needs a credential that is not configured; raised before any request. */
export class MissingCredentialError extends Error {
  override readonly name = 'MissingCredentialError';
  readonly env: string;
  readonly flag: string;
  constructor(
    readonly kind: CredentialKind,
    readonly route: string,
  ) {
    const source = CREDENTIAL_SOURCES[kind];
    super(`${route} needs ${source.aLabel}: set ${source.env} or pass ${source.flag}`);
    this.env = source.env;
    this.flag = source.flag;
  }
}

/** A success response that does not match the contract: names the route and the field. */
export class ResponseShapeError extends Error {
  override readonly name = 'ResponseShapeError';
  constructor(
    readonly route: string,
    readonly detail: string,
  ) {
    super(`${route} answered with an unexpected body: ${detail}`);
  }
}

/** The answer's body was larger than the client accepts for this route; the client stopped reading it. */
export class ResponseTooLargeError extends Error {
  override readonly name = 'ResponseTooLargeError';
  constructor(
    readonly route: string,
    /** The limit in bytes (ClientOptions.maxResponseBytes, or maxIconBytes for icons). */
    readonly limit: number,
  ) {
    super(`${route} answered more than ${formatBytes(limit)} (the client's limit for this route); the answer was not read`);
  }
}

function formatBytes(n: number): string {
  if (n >= 1 << 20 && n % (1 << 20) === 0) return `${n / (1 << 20)} MiB`;
  if (n >= 1 << 10 && n % (1 << 10) === 0) return `${n / (1 << 10)} KiB`;
  return `${n} bytes`;
}

/** The socket's codes a user meets most, in words (after the code, which stays for searching). */
const NETWORK_CODES: Readonly<Record<string, string>> = {
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the name could not be looked up; offline?',
  ECONNREFUSED: 'nothing is listening there',
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection was closed',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'no route to the host; offline?',
  ENETUNREACH: 'no route to the network; offline?',
  EADDRINUSE: 'the port is in use',
  EADDRNOTAVAIL: 'not an address of this machine',
  EACCES: 'not allowed',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'a TLS certificate in its chain is self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate could not be verified',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'its TLS certificate could not be verified',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate names another host',
};

/** A socket error's code with its words when it has some: `ENOTFOUND (no such host)`. */
export function explainCode(code: string): string {
  const words = NETWORK_CODES[code];
  return words ? `${code} (${words})` : code;
}

/**
 * The request never got an answer: connection refused or reset, DNS, TLS, or the client's own
 * timeout. `host` is the service's host and port as the URL gives them (never its user part), so
 * that a wrong base URL shows in the message.
 */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  constructor(
    readonly route: string,
    readonly cause_: string,
    readonly timedOut: boolean,
    readonly host?: string,
    /** True when the service had begun to answer (its status and headers came) and the connection broke in its body: the request reached it. */
    readonly midAnswer = false,
  ) {
    const where = host ?? 'the service';
    super(
      timedOut
        ? `${route} to ${where} timed out: ${cause_}`
        : midAnswer
          ? `${route}: the connection to ${where} was lost in the middle of its answer (${explainCode(cause_)}); the request reached the service, so it may have been done`
          : `${route} could not reach ${where}: ${explainCode(cause_)}`,
    );
  }
}

export type ClientError = ApiError | MissingCredentialError | ResponseShapeError | NetworkError | ResponseTooLargeError;
export function isClientError(e: unknown): e is ClientError {
  return (
    e instanceof ApiError ||
    e instanceof MissingCredentialError ||
    e instanceof ResponseShapeError ||
    e instanceof NetworkError ||
    e instanceof ResponseTooLargeError
  );
}
