/** Test support for the command layer: a registry command run against the in-memory fake API, its streams captured. */
import { PassThrough, Writable } from 'node:stream';
import type { Io } from '../../../src/cli/context.js';
import { parseFor } from '../../../src/cli/parse.js';
import { findCommand } from '../../../src/cli/registry.js';
import { runCommand } from '../../../src/cli/run.js';
import type { FakeApi } from '../../component/fakeApi.js';

class Sink extends Writable {
  text = '';
  columns?: number;
  constructor(readonly isTTY: boolean) {
    super();
  }
  override _write(chunk: Buffer, _e: BufferEncoding, cb: () => void): void {
    this.text += chunk.toString();
    cb();
  }
}

export function streams(tty = false, env: NodeJS.ProcessEnv = {}) {
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  stdin.isTTY = tty;
  const stdout = new Sink(tty);
  const stderr = new Sink(tty);
  const io: Io = { stdin, stdout, stderr, env };
  return { io, stdout, stderr };
}

/** `intern-tui ARGV` on the fake API: exit code, stdout, stderr (a refusal of parseFor as exit 2, as dispatch.ts makes it). */
export async function runFake(argv: string[], api: FakeApi, opts: { tty?: boolean; env?: NodeJS.ProcessEnv; stdin?: string } = {}) {
  const found = findCommand(argv);
  if (!found || !('spec' in found)) throw new Error(`no command ${argv.join(' ')}`);
  const s = streams(opts.tty ?? false, opts.env ?? {});
  if (opts.tty) s.stdout.columns = 200;
  if (opts.stdin !== undefined) (s.io.stdin as PassThrough).end(opts.stdin);
  let parsed;
  try {
    parsed = parseFor(found.spec, found.rest);
  } catch (e) {
    return { code: (e as { exitCode?: number }).exitCode ?? 1, stdout: '', stderr: `intern-tui: ${(e as Error).message}\n` };
  }
  const code = await runCommand(found.spec, found.rest, parsed, s.io, () => Promise.resolve(api));
  return { code, stdout: s.stdout.text, stderr: s.stderr.text };
}
