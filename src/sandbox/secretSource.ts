/**
 * Where the sandbox's secret comes from, as the environment gives it. Imports nothing: thread.ts
 * (loaded before the TUI's first frame) takes the variables in the main thread.
 */

/** The variable that holds the secret itself: kept working, but any process of the same user reads it in /proc. */
export const SECRET_ENV = 'INTERN_SANDBOX_SECRET';
/** The variable that names a file holding the secret (what --secret-file gives). */
export const SECRET_FILE_ENV = 'INTERN_SANDBOX_SECRET_FILE';

/**
 * Where the sandbox's secret comes from. A file or a descriptor holds the same text the variable
 * would (any string, hashed to 32 bytes; a final line break is not part of it), so moving from
 * INTERN_SANDBOX_SECRET to a file keeps the data folder's sealed state readable.
 */
export type SecretSource = { file: string } | { fd: number } | { text: string };

/** A secret that cannot be read (a missing, unreadable or empty file, a closed descriptor): one line, exit 2 from the CLI. */
export class SecretSourceError extends Error {
  override readonly name = 'SecretSourceError';
}

/** The one-line note for a secret given in the environment. */
export const SECRET_ENV_NOTE = `${SECRET_ENV} is readable by this user's processes in /proc/PID/environ; pass --secret-file FILE (or --secret-fd N) instead`;

/**
 * The secret's source as the environment gives it, taken once: INTERN_SANDBOX_SECRET_FILE, else
 * INTERN_SANDBOX_SECRET. Both are removed from `env`, so no process started after this inherits
 * them (/proc/PID/environ still shows the process's first environment: hence the note).
 */
export function takeSecretFromEnv(env: NodeJS.ProcessEnv = process.env): { source?: SecretSource; note?: string } {
  const text = env[SECRET_ENV];
  const file = env[SECRET_FILE_ENV];
  delete env[SECRET_ENV];
  delete env[SECRET_FILE_ENV];
  const note = text ? SECRET_ENV_NOTE : undefined;
  if (file) return { source: { file }, note };
  return { source: text ? { text } : undefined, note };
}

