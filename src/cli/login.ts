/** `intern-tui login`: asks for a base URL and each credential, and stores them in a profile (0600). */
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { CREDENTIAL_SOURCES, type CredentialKind } from '../contract/routes.js';
import { type ConfigFile, type Profile, ProfileSchema, configPath, readConfig, writeConfig } from './config.js';
import { describeIssues } from '../contract/errors.js';

export interface LoginIo {
  input: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (on: boolean) => void };
  output: NodeJS.WritableStream;
}

/** Reads lines one at a time; on a TTY, secrets are read without echo. */
class Prompter {
  private readonly lines: string[] = [];
  private waiting: ((line: string | null) => void) | undefined;
  private ended = false;
  private readonly rl;
  private muted = false;

  constructor(private readonly io: LoginIo) {
    const output = new Writable({
      write: (chunk: Buffer, _enc, cb) => {
        if (!this.muted) io.output.write(chunk);
        cb();
      },
    });
    this.rl = createInterface({ input: io.input, output, terminal: Boolean(io.input.isTTY) });
    this.rl.on('line', (line) => {
      if (this.waiting) {
        const w = this.waiting;
        this.waiting = undefined;
        w(line);
      } else this.lines.push(line);
    });
    this.rl.on('close', () => {
      this.ended = true;
      this.waiting?.(null);
    });
  }

  ask(question: string, secret: boolean): Promise<string | null> {
    this.io.output.write(question);
    this.muted = secret && Boolean(this.io.input.isTTY);
    const next = this.lines.shift();
    if (next !== undefined) return Promise.resolve(this.done(next));
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.waiting = (line) => resolve(line === null ? null : this.done(line));
    });
  }

  private done(line: string): string {
    if (this.muted) this.io.output.write('\n');
    this.muted = false;
    return line.trim();
  }

  close(): void {
    this.rl.close();
  }
}

export async function login(profileName: string, env: NodeJS.ProcessEnv, io: LoginIo, warn: (m: string) => void): Promise<string> {
  const path = configPath(env);
  const config: ConfigFile = readConfig(path, warn);
  const current: Profile = { ...(config.profiles[profileName] ?? {}) };
  const prompter = new Prompter(io);
  try {
    io.output.write(`Profile "${profileName}" in ${path}. Press enter to keep a value.\n`);
    const base = await prompter.ask(`Base URL [${current.base_url ?? 'https://openrouter.ai/api/v1'}]: `, false);
    if (base) current.base_url = base;
    for (const kind of Object.keys(CREDENTIAL_SOURCES) as CredentialKind[]) {
      const has = current[kind] ? 'set; enter keeps it' : 'not set';
      const value = await prompter.ask(`${CREDENTIAL_SOURCES[kind].label} (${has}): `, true);
      if (value) current[kind] = value;
    }
  } finally {
    prompter.close();
  }
  const checked = ProfileSchema.safeParse(current);
  if (!checked.success) throw new Error(`not saved: ${describeIssues(checked.error)}`);
  config.profiles[profileName] = checked.data;
  config.default_profile ??= profileName;
  writeConfig(path, config);
  return path;
}
