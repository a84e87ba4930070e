/**
 * `intern-tui completion bash` in a real bash: the script loaded as a user's ~/.bashrc would, the
 * completion function called as bash calls it on a tab, the built CLI answering `__complete`, and
 * intern names from a sandbox process named by the environment (OPENROUTER_BASE_URL and
 * OPENROUTER_API_KEY), never from the embedded one.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, startSandboxProcess, type SandboxProcess } from './harness.js';

let sandbox: SandboxProcess;
let dir: string;
beforeAll(async () => {
  sandbox = await startSandboxProcess(['--seed', 'demo']);
  dir = mkdtempSync(join(tmpdir(), 'e2e-completion-'));
  // `intern-tui` on PATH, as npm installs it.
  symlinkSync(CLI, join(dir, 'intern-tui'));
}, 30_000);
afterAll(async () => {
  await sandbox?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** What bash offers on a tab after `line` (the cursor at its end). */
function tab(line: string, env: Record<string, string> = {}): string[] {
  const words = line.split(' ');
  const script = [
    'eval "$(intern-tui completion bash)"',
    `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')})`,
    'COMP_CWORD=$((${#COMP_WORDS[@]} - 1))',
    '_intern_tui_complete',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const r = spawnSync('bash', ['--norc', '--noprofile', '-c', script], {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: `${dir}:${dirname(process.execPath)}:/usr/bin:/bin`, HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), ...env },
  });
  if (r.status !== 0) throw new Error(`bash exited ${r.status}: ${r.stderr}`);
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter(Boolean);
}

describe('completion in bash', () => {
  it('completes commands, verbs, flags and their values', () => {
    expect(tab('intern-tui inter')).toEqual(['interns']);
    expect(tab('intern-tui interns p')).toEqual(['provision']);
    expect(tab('intern-tui chat runner --no')).toEqual(['--no-wait', '--no-color', '--no-pager']);
    expect(tab('intern-tui chat runner --no-w')).toEqual(['--no-wait']);
    expect(tab('intern-tui interns list --status fa')).toEqual(['failed']);
    // bash splits --flag=value at the "=" (COMP_WORDBREAKS): the value is completed after it.
    expect(tab('intern-tui byok create --region = e')).toEqual(['europe']);
    expect(tab('intern-tui byok create --region =')).toEqual(['global', 'europe', 'us', 'none']);
    // --json's fields, in either form.
    expect(tab('intern-tui interns list --json id,na')).toEqual(['id,name']);
    expect(tab('intern-tui interns list --json = id,na')).toEqual(['id,name']);
  });

  it('completes a file name where a FILE goes', () => {
    spawnSync('touch', [join(dir, 'instructions.md')]);
    expect(tab('intern-tui interns create x --instructions-file instr')).toEqual(['instructions.md']);
    expect(tab('intern-tui interns create x --instructions-file = instr')).toEqual(['instructions.md']);
  });

  it("offers the service's interns where a NAME goes, and none from the embedded sandbox", () => {
    const service = { OPENROUTER_BASE_URL: sandbox.manifest.base_url, OPENROUTER_API_KEY: sandbox.manifest.credentials.api_key! };
    expect(tab('intern-tui attach run', service)).toEqual(['runner', 'runner-jpeg']);
    expect(tab('intern-tui vault list --intern pla', service)).toEqual(['plain']);
    // A BYOK key by its id (the management key lists them), a secret by its name.
    const keys = tab('intern-tui byok get ', { ...service, OPENROUTER_MANAGEMENT_KEY: sandbox.manifest.credentials.management_key! });
    expect(keys).toHaveLength(4);
    for (const id of keys) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(tab('intern-tui byok get ', service)).toEqual([]); // no management key: none
    expect(tab('intern-tui vault delete git', service)).toEqual(['github_token']);
    expect(tab('intern-tui vault copy --intern runner npm_token s', service)).toEqual(['sentry_dsn', 'slack_webhook']);
    // Nothing configured: the commands would use a throwaway demo sandbox, whose names are not the user's.
    expect(tab('intern-tui attach run')).toEqual([]);
    // A service that does not answer: nothing, and quietly.
    expect(tab('intern-tui attach run', { OPENROUTER_BASE_URL: 'http://127.0.0.1:9/api/v1', OPENROUTER_API_KEY: 'sk-or-v1-nothing-listens' })).toEqual([]);
  });
});
