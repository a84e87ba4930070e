/**
 * The vault's secrets, in the order help lists them. Data only: each names its module and runner,
 * and the dispatcher loads them (loaders.ts).
 */
import type { CommandSpec } from '../spec.js';
import { IGNORE_NOT_FOUND, LIMIT } from './flags.js';

export const VAULT: CommandSpec[] = [
  // ── vault ──
  {
    noun: 'vault',
    verb: 'list',
    positionals: [0, 0],
    summary: "list the workspace's or an intern's secrets (no values)",
    flags: {
      intern: { type: 'string', value: 'NAME', description: "the intern's own secrets (id or name)", nonEmpty: true },
      effective: { type: 'boolean', description: 'with --intern: what the intern sees (intern, attached vault, workspace)' },
      limit: LIMIT('secrets'),
    },
    details: 'Names, hosts and fingerprints only: the service never returns a value.\nExample:\n  intern-tui vault list --intern reviewer --effective --json name,scope',
    needs: ['api_key'],
    json: true,
    module: 'vault',
    runner: 'list',
  },
  {
    noun: 'vault',
    verb: 'put',
    args: 'SECRET',
    positionals: [1, 2],
    summary: 'add or replace a secret (from stdin, a file, a prompt)',
    flags: {
      host: { type: 'string', multiple: true, value: 'HOST', description: 'a host the secret may be sent to (repeatable, at least one)' },
      'value-stdin': { type: 'boolean', description: 'read the value from stdin' },
      'value-file': { type: 'string', value: 'FILE', description: 'read the value from FILE' },
      intern: { type: 'string', value: 'NAME', description: "put it in the intern's own vault (id or name)", nonEmpty: true },
    },
    details:
      'Without --value-stdin or --value-file the value is asked for with a masked prompt (on a TTY); never\n' +
      'as an argument, which other local users can read in the process list.\n' +
      'Example:\n  printf %s "$GITHUB_TOKEN" | intern-tui vault put github_token --host api.github.com --value-stdin',
    needs: ['api_key'],
    json: true,
    module: 'vault',
    runner: 'put',
  },
  {
    noun: 'vault',
    verb: 'delete',
    args: 'SECRET',
    positionals: [1, 1],
    summary: 'delete a secret',
    flags: {
      intern: { type: 'string', value: 'NAME', description: "from the intern's own vault (id or name)", nonEmpty: true },
      yes: { type: 'boolean', short: 'y', description: 'do not ask (required without a TTY)' },
      'ignore-not-found': IGNORE_NOT_FOUND,

    },
    details: 'Example:\n  intern-tui vault delete github_token --yes',
    needs: ['api_key'],
    json: true,
    module: 'vault',
    runner: 'remove',
  },
  {
    noun: 'vault',
    verb: 'copy',
    args: 'SECRET...',
    positionals: [1, 100],
    summary: "copy workspace secrets into an intern's own vault",
    flags: { intern: { type: 'string', value: 'NAME', description: 'the intern to copy into (id or name; required)', nonEmpty: true } },
    details: 'Example:\n  intern-tui vault copy github_token slack_token --intern reviewer',
    needs: ['api_key'],
    json: true,
    module: 'vault',
    runner: 'copy',
  },
];
