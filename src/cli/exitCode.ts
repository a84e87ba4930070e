/**
 * The exit code an error means (exit.ts lists them): run.ts ends a command by it, and chat asks it
 * whether a failed turn ends the conversation. Apart from run.ts so that a command can import it
 * without importing the dispatcher that loads it.
 */
import { ApiError, MissingCredentialError } from '../client/errors.js';
import { UsageError } from './args.js';
import { CliError, EXIT } from './exit.js';
import { ConfigError } from './settings.js';

export function exitCodeOf(e: unknown, interrupted: boolean): number {
  if (interrupted) return EXIT.interrupted;
  if (e instanceof CliError) return e.exitCode;
  if (e instanceof UsageError || e instanceof ConfigError) return EXIT.usage;
  if (e instanceof MissingCredentialError) return EXIT.auth;
  if (e instanceof ApiError) return e.status === 401 || e.status === 403 ? EXIT.auth : EXIT.failed;
  return EXIT.failed;
}
