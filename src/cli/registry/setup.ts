/**
 * Sign-in, the config, completion and the sandbox, in the order help lists them. Data only: each
 * names its module and runner, and the dispatcher loads them (loaders.ts).
 */
import type { CommandSpec } from '../spec.js';

/** `login`, and gh's name for it, `auth login`: one spec. */
const LOGIN: Omit<CommandSpec, 'noun'> = {
  positionals: [0, 0],
  summary: 'sign in in the browser and save the API key',
  flags: {
    'no-browser': { type: 'boolean', description: 'only print the sign-in URL; do not open a browser' },
    headless: { type: 'boolean', description: 'no local listener: the page shows a code to paste (masked); not with --oauth' },
    oauth: { type: 'boolean', description: 'get the OAuth token for attaching (daemon access) from the profile\'s issuer' },
    issuer: { type: 'string', value: 'URL', description: 'with --oauth: the OAuth issuer (RFC 8414), saved in the profile' },
    'with-token': { type: 'boolean', description: 'read a key from stdin (or a masked prompt) instead of signing in, for CI' },
    kind: { type: 'string', value: 'KIND', description: 'with --with-token: api_key (default), management_key or oauth_token' },
  },
  details:
    'Signs in with PKCE: listens on a loopback port, prints "Open this URL to sign in:", and saves the\n' +
    'API key the service issues: in the system keychain, else in the config file at mode 0600.\n' +
    'Typed or pasted secrets are never echoed.\n' +
    'Examples:\n  intern-tui login --base-url https://openrouter.ai/api/v1\n  intern-tui login --headless\n' +
    '  intern-tui login --oauth --issuer https://auth.example.com\n  intern-tui login --with-token < key.txt',
  needs: [],
  noSandbox: 'it signs in to the configured service and saves its credentials; the built-in sandbox has its own keys',
  module: 'auth',
  runner: 'login',
};

/** `logout`, and gh's name for it, `auth logout`: one spec. */
const LOGOUT: Omit<CommandSpec, 'noun'> = {
  positionals: [0, 0],
  summary: "remove the profile's stored credentials",
  details:
    'From the system keychain and the config file. A --profile the config file lacks is refused (exit 2),\n' +
    'as every command refuses it, unless the keychain still held its secrets (then they are removed).\n' +
    'Example:\n  intern-tui logout --profile work',
  needs: [],
  noSandbox: "it removes the configured profile's credentials; the built-in sandbox keeps none",
  module: 'auth',
  runner: 'logout',
};

export const SETUP: CommandSpec[] = [
  // ── auth: login, logout, auth status (h-signin) ──
  { noun: 'login', ...LOGIN },
  { noun: 'logout', ...LOGOUT },
  { noun: 'auth', verb: 'login', ...LOGIN },
  { noun: 'auth', verb: 'logout', ...LOGOUT },
  {
    noun: 'auth',
    verb: 'token',
    positionals: [0, 0],
    summary: 'print the API key (or --kind) into a pipe',
    flags: { kind: { type: 'string', value: 'KIND', description: 'api_key (default), management_key or oauth_token' } },
    details:
      'As gh auth token: the credential the commands would use (the environment, then the profile), on\n' +
      'stdout with no line break after it. Refused when stdout is a terminal (exit 2): a secret is never\n' +
      'drawn on the screen. Exit 4 when none is set.\nExample:\n  curl -H "Authorization: Bearer $(intern-tui auth token)" "$OPENROUTER_BASE_URL/key"',
    needs: [],
    noSandbox: "it prints the configured credential; the built-in sandbox's are made afresh each time",
    module: 'auth',
    runner: 'token',
  },
  {
    noun: 'auth',
    verb: 'switch',
    args: 'PROFILE',
    positionals: [1, 1],
    summary: 'make PROFILE the default (as config use PROFILE)',
    details: 'Example:\n  intern-tui auth switch work',
    needs: [],
    noSandbox: 'it sets the config file\'s default profile; the built-in sandbox has none',
    module: 'auth',
    runner: 'switchProfile',
  },
  {
    noun: 'auth',
    verb: 'status',
    positionals: [0, 0],
    summary: 'which credentials are set, and whose the API key is',
    details: 'Where each credential comes from, who the API key signs in as (GET /key), and whether the\nservice takes the management key. Never prints a secret. Exit 4 when no credential is set or the\nservice refuses a key, 1 when it could not be reached to check them.\nExample:\n  intern-tui auth status --json',
    needs: [],
    json: true,
    noSandbox: 'it reports the configured credentials; the built-in sandbox has keys of its own each time',
    module: 'auth',
    runner: 'status',
  },
  {
    noun: 'config',
    verb: 'list',
    positionals: [0, 0],
    summary: 'the profiles and which credentials each keeps',
    details: 'Reads the config file (and asks the system keychain whether a profile keeps a credential there).\nExample:\n  intern-tui config list --json name,credentials',
    needs: [],
    json: true,
    noSandbox: 'it lists the config file\'s profiles; the built-in sandbox has none',
    module: 'config',
    runner: 'list',
  },
  {
    noun: 'config',
    args: 'path|show|use [PROFILE]',
    positionals: [1, 2],
    summary: 'config: its path, what is set, the default profile',
    needs: [],
    raw: true,
    module: 'legacy',
    runner: 'configCommandRaw',
  },
  {
    noun: 'completion',
    args: 'bash|zsh|fish',
    positionals: [1, 1],
    summary: 'print the shell script for tab completion',
    details: [
      'Each tab asks intern-tui what may come next; intern names, BYOK key ids and secret names come',
      'from the service the line would use when it answers quickly (never from the built-in sandbox).',
      'Load it at shell start:',
      '  bash (~/.bashrc):  eval "$(intern-tui completion bash)"',
      '  zsh (~/.zshrc, after compinit):  eval "$(intern-tui completion zsh)"',
      '  fish (~/.config/fish/config.fish):  intern-tui completion fish | source',
    ].join('\n'),
    needs: [],
    module: 'completion',
    runner: 'completion',
  },
  {
    noun: 'sandbox',
    positionals: [0, 0],
    summary: 'run the local sandbox service',
    needs: [],
    raw: true,
    module: 'legacy',
    runner: 'sandboxCommand',
  },
];
