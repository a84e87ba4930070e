/** `--json FIELDS`: checked against the fields a command names, and picked from what it prints. */
import { CliError, EXIT } from '../exit.js';

/**
 * Checks `--json FIELDS` against the fields a command's JSON output may hold, before the command
 * runs (usage error, exit 2). A command that prints JSON without naming its fields is a bug here.
 */
export function checkJsonFields(command: string, known: readonly string[] | undefined, fields: string[] | null): void {
  if (!fields?.length) return;
  if (!known) throw new Error(`intern-tui ${command} does not name its JSON fields`);
  const unknown = [...new Set(fields.filter((f) => !known.includes(f)))];
  if (unknown.length) {
    throw new CliError(EXIT.usage, `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((f) => `"${f.slice(0, 40)}"`).join(', ')} for --json; available: ${known.join(', ')}`, true);
  }
}

/** Keeps only the named fields (checked by checkJsonFields) of an object, or of each object of an array; a field the service left out stays out. */
export function pickFields(value: unknown, fields: string[]): unknown {
  const pick = (o: unknown) => (o && typeof o === 'object' ? Object.fromEntries(fields.filter((f) => f in o).map((f) => [f, (o as Record<string, unknown>)[f]])) : o);
  return Array.isArray(value) ? value.map(pick) : pick(value);
}
