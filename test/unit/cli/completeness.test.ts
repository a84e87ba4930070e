/** `connections list NAME`, `providers list`, and `--limit` on every list. */
import { describe, expect, it } from 'vitest';
import { findCommand } from '../../../src/cli/registry.js';
import { FakeApi } from '../../component/fakeApi.js';
import { runFake } from './runFake.js';

describe('connections list NAME', () => {
  it('is found as a verb, and the bare form stays its alias', async () => {
    expect(findCommand(['connections', 'list', 'runner'])).toMatchObject({ spec: { noun: 'connections', verb: 'list' }, rest: ['runner'] });
    const bareFound = findCommand(['connections', 'runner']) as { spec: { noun: string; verb?: string }; rest: string[] };
    expect([bareFound.spec.noun, bareFound.spec.verb, bareFound.rest]).toEqual(['connections', undefined, ['runner']]);
    const api = new FakeApi();
    const verb = await runFake(['connections', 'list', 'runner', '--json', 'key'], api);
    const bare = await runFake(['connections', 'runner', '--json', 'key'], api);
    expect(verb.code, verb.stderr).toBe(0);
    expect(verb.stdout).toBe(bare.stdout);
    expect(JSON.parse(verb.stdout)).toContainEqual({ key: 'github' });
  });
});

describe('providers list', () => {
  it('prints the catalogue --provider checks against, with the regions each may declare', async () => {
    const r = await runFake(['providers', 'list', '--json'], new FakeApi());
    const rows = JSON.parse(r.stdout) as { slug: string; region_rule: string; regions: string[] }[];
    expect(rows).toContainEqual({ slug: 'azure', region_rule: 'only', regions: ['europe', 'us'] });
    expect(rows).toContainEqual({ slug: 'anthropic', region_rule: 'global', regions: ['global'] });
    expect((await runFake(['providers', 'list'], new FakeApi())).stdout.split('\n')).toContain('anthropic\tglobal');
  });
});

describe('--limit on every list', () => {
  it('keeps the first N of byok, vault and models lists, says on a terminal that there are more, and refuses 0', async () => {
    const api = new FakeApi();
    const byok = await runFake(['byok', 'list', '--limit', '1', '--json', 'id'], api);
    expect(JSON.parse(byok.stdout)).toEqual([{ id: 'c1' }]);
    const models = await runFake(['models', '--limit', '2', '-q', 'length'], api);
    expect(models.stdout).toBe('2\n');
    const tty = await runFake(['models', '--limit', '2'], api, { tty: true, env: { NO_COLOR: '1' } });
    expect(tty.stderr).toContain('the first 2 shown; there are more');
    for (const name of ['a_one', 'a_two']) expect((await runFake(['vault', 'put', name, '--host', 'x.example', '--value-stdin'], api, { stdin: 'v' })).code).toBe(0);
    const vault = await runFake(['vault', 'list', '--limit', '1', '-q', 'length'], api);
    expect([vault.code, vault.stdout]).toEqual([0, '1\n']);
    for (const argv of [['byok', 'list'], ['vault', 'list'], ['models'], ['interns', 'list']]) {
      const zero = await runFake([...argv, '--limit', '0'], api);
      expect([zero.code, zero.stderr], argv.join(' ')).toEqual([2, 'intern-tui: --limit must be a whole number of at least 1, not "0"\n']);
    }
  });
});

describe('config list and auth token', () => {
  it('config list names each profile, its base URL and which credentials it keeps, never a value', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    mkdirSync(join(dir, 'intern-tui'));
    writeFileSync(join(dir, 'intern-tui', 'config.json'), JSON.stringify({ default_profile: 'work', profiles: { work: { base_url: 'http://127.0.0.1:9/api/v1', api_key: 'sk-or-v1-secret' }, home: {} } }), { mode: 0o600 });
    const env = { XDG_CONFIG_HOME: dir, INTERN_TUI_CREDENTIAL_STORE: 'file' };
    const r = await runFake(['config', 'list', '--json'], new FakeApi(), { env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      { name: 'work', default: true, base_url: 'http://127.0.0.1:9/api/v1', credential_store: 'file', credentials: { api_key: 'file' } },
      { name: 'home', default: false, base_url: 'https://openrouter.ai/api/v1', credential_store: 'file', credentials: {} },
    ]);
    expect(r.stdout + r.stderr).not.toContain('sk-or-v1-secret');
    const piped = await runFake(['config', 'list'], new FakeApi(), { env });
    expect(piped.stdout).toBe('work\tyes\thttp://127.0.0.1:9/api/v1\tapi_key\tfile\nhome\t\thttps://openrouter.ai/api/v1\t\tfile\n');
  });

  it('auth token prints the credential into a pipe only, and exits 4 when none is set', async () => {
    const env = { XDG_CONFIG_HOME: '/nonexistent-intern-tui', OPENROUTER_API_KEY: 'sk-or-v1-piped' };
    expect(await runFake(['auth', 'token'], new FakeApi(), { env })).toMatchObject({ code: 0, stdout: 'sk-or-v1-piped' });
    const tty = await runFake(['auth', 'token'], new FakeApi(), { env, tty: true });
    expect([tty.code, tty.stdout]).toEqual([2, '']);
    expect(tty.stderr).toMatch(/never onto the terminal/);
    expect(tty.stderr).not.toContain('sk-or-v1-piped');
    expect((await runFake(['auth', 'token', '--kind', 'management_key'], new FakeApi(), { env })).code).toBe(4);
  });
});
