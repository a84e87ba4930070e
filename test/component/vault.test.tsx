/** Vault screens: the workspace list, an intern's own and effective tabs, add, replace, delete, copy. */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { FakeApi, IDS } from './fakeApi.js';
import { footerOf, renderApp } from './render.js';

afterEach(() => cleanup());

function withWorkspaceSecrets(): FakeApi {
  const api = new FakeApi();
  void api.putVaultSecret('github_token', { value: 'ghp-workspace-value', hosts: ['api.github.com'] });
  void api.putVaultSecret('slack_token', { value: 'xoxb-workspace-value', hosts: ['slack.com'] });
  api.calls = [];
  return api;
}

describe('vault secrets', () => {
  it('adds a workspace secret from :vault: host rules live, the value never on screen', async () => {
    const app = renderApp();
    await app.waitFor('sleeper');
    await app.press(':');
    await app.type('vault');
    await app.press('enter');
    await app.waitFor('No secrets here yet');
    await app.press('a');
    await app.waitFor('Add a secret');
    await app.type('Bad');
    await app.waitFor('must be lowercase letters');
    for (let i = 0; i < 3; i++) await app.press('backspace');
    await app.type('deploy_key');
    await app.press('tab');
    await app.type('s3cr3t-value');
    await app.waitFor('12 chars, hidden');
    await app.press('tab', 'tab');
    await app.type('https://x.example.com');
    await app.waitFor('give the bare hostname');
    for (let i = 0; i < 'https://x.example.com'.length; i++) await app.press('backspace');
    await app.type('x.example.com');
    await app.waitFor((f) => !f.includes('give the bare hostname'));
    await app.press('enter');
    const added = await app.waitFor((f) => f.includes('1/100') && /hosts +x\.example\.com/.test(f));
    // The hosts line keeps the labels' column: its hosts start under the fields' values.
    const column = (re: RegExp) => re.exec(added)![1]!.length;
    expect(column(/\n(│ {3}hosts +)x\.example\.com/)).toBe(column(/\n(│ {3}name +)deploy_key/));
    await app.type('API.Example.com.');
    await app.press('ctrl+s');
    const f = await app.waitFor('saved deploy_key');
    await app.waitFor(/deploy_key +x\.example\.com, api\.example\.com +[0-9a-f]{8} +\d+s ago/);
    expect(app.api.callsOf('putVaultSecret')).toEqual([['deploy_key', { hosts: ['x.example.com', 'api.example.com'] }]]);
    expect(app.frames.some((fr) => fr.includes('s3cr3t-value'))).toBe(false);
    expect(f).not.toContain('s3cr3t');
  });

  it('selects the secret it saved once the list has loaded again', async () => {
    const app = renderApp({ api: withWorkspaceSecrets(), initial: { name: 'vault' } });
    await app.waitFor(/›github_token/);
    await app.press('a');
    await app.waitFor('Add a secret');
    await app.type('npm_token');
    await app.press('tab');
    await app.type('npm-value');
    await app.press('tab', 'tab');
    await app.type('registry.npmjs.org');
    await app.press('ctrl+s');
    // Sorted by name it is the second row: the cursor goes there, off github_token.
    const f = await app.waitFor(/›npm_token/);
    expect(f).toMatch(/^ github_token/m);
  });

  it('the secret form scrolls its fields with the focus on a short terminal', async () => {
    const app = renderApp({ api: withWorkspaceSecrets(), initial: { name: 'vault' } });
    app.resize({ columns: 60, rows: 11 });
    await app.waitFor(/›github_token/);
    await app.press('a');
    await app.waitFor((s) => s.includes('› name') && (s.split('\n')[1] ?? '').length === 60);
    for (const next of ['value', 'or file', 'host']) {
      await app.press('tab');
      const f = await app.waitFor(`› ${next}`);
      expect(f.split('\n').length, next).toBeLessThanOrEqual(11);
    }
    expect(app.frame()).toMatch(/hosts +none yet/);
  });

  it('reads the value from a regular file only: /dev/zero is refused at once with why, and the form keeps what was typed', async () => {
    const api = withWorkspaceSecrets();
    const app = renderApp({ api, initial: { name: 'vault' } });
    await app.waitFor(/›github_token/);
    await app.press('a');
    await app.waitFor('Add a secret');
    await app.type('zero_token');
    await app.press('tab', 'tab');
    await app.type('/dev/zero');
    await app.press('tab');
    await app.type('x.example.com');
    await app.press('ctrl+s');
    await app.waitFor('could not read /dev/zero: not a regular file');
    const f = await app.waitFor('› or file');
    expect(f).toContain('zero_token');
    expect(api.callsOf('putVaultSecret')).toHaveLength(0);
  });

  it('shows the effective tab with the winning scope, and copies workspace secrets in with a multi-select', async () => {
    const api = withWorkspaceSecrets();
    const app = renderApp({ api, initial: { name: 'intern', id: IDS.runner } });
    await app.waitFor('Keeps CI green.');
    await app.press('v');
    await app.waitFor('Secrets of runner');
    await app.waitFor(/github_token +api\.github\.com .* workspace/);
    await app.press('C');
    await app.waitFor('Copy workspace secrets into runner');
    await app.waitFor('slack_token');
    await app.press('tab');
    await app.waitFor('1 marked');
    await app.press('enter');
    await app.waitFor('copied 1 secret into runner');
    expect(api.callsOf('copySecretsToIntern')).toEqual([[IDS.runner, ['github_token']]]);
    const own = await app.waitFor(/github_token +api\.github\.com/);
    expect(own).not.toContain('slack_token');
    await app.press('tab');
    await app.waitFor(/github_token .* intern/);
    await app.waitFor(/slack_token .* workspace/);
  });

  it('deletes an intern\'s own secret from the effective tab, staying on it', async () => {
    const api = withWorkspaceSecrets();
    void api.putInternSecret(IDS.runner, 'npm_token', { value: 'npm-value', hosts: ['registry.npmjs.org'] });
    const app = renderApp({ api, initial: { name: 'intern', id: IDS.runner } });
    await app.waitFor('Keeps CI green.');
    await app.press('v');
    await app.waitFor(/npm_token .* intern/);
    await app.press('j');
    await app.waitFor(/›npm_token/);
    await app.press('D');
    const asked = await app.waitFor('Delete npm_token');
    expect(asked).toMatch(/SCOPE/);
    await app.press('y');
    await app.waitFor('deleted npm_token');
    const f = await app.waitFor((s) => !/npm_token .* intern/.test(s) && /github_token .* workspace/.test(s));
    expect(f).toMatch(/SCOPE/);
    expect(api.callsOf('deleteInternSecret')).toEqual([[IDS.runner, 'npm_token']]);
  });

  it('D on the effective tab on a workspace secret says where to change it, whole at 80 columns', async () => {
    const api = withWorkspaceSecrets();
    const app = renderApp({ api, initial: { name: 'intern', id: IDS.runner } });
    app.resize({ columns: 80, rows: 24 });
    await app.waitFor('Keeps CI green.');
    await app.press('v');
    await app.waitFor(/›github_token .* workspace/);
    await app.press('D');
    const f = await app.waitFor("github_token is the workspace scope's: change it there, or override it here (a)");
    expect(f).not.toContain('Delete github_token');
  });

  it('deletes only after y, and n keeps it', async () => {
    const api = withWorkspaceSecrets();
    const app = renderApp({ api, initial: { name: 'vault' } });
    await app.waitFor('github_token');
    await app.press('D');
    await app.waitFor('Delete github_token from workspace?');
    await app.press('n');
    await app.waitFor((f) => !f.includes('Delete github_token'));
    expect(api.callsOf('deleteVaultSecret')).toHaveLength(0);
    await app.press('D');
    await app.waitFor('Delete github_token');
    await app.press('y');
    await app.waitFor('deleted github_token');
    await app.waitFor((f) => !f.includes('github_token') || f.includes('deleted github_token'));
    expect(api.callsOf('deleteVaultSecret')).toEqual([['github_token']]);
  });

  it('adding under a name the scope has already asks before replacing it; n keeps the form, y replaces', async () => {
    const api = withWorkspaceSecrets();
    const app = renderApp({ api, initial: { name: 'vault' } });
    await app.waitFor('github_token');
    await app.press('a');
    await app.waitFor('Add a secret');
    await app.type('slack_token');
    await app.waitFor('workspace has one: saving replaces it');
    await app.press('tab');
    await app.type('other-value');
    await app.press('tab', 'tab');
    await app.type('evil.example.com');
    await app.press('ctrl+s');
    await app.waitFor('workspace has slack_token already: replace its value and hosts? (y/n)');
    await app.press('n');
    await app.waitFor((f) => !f.includes('replace its value') && f.includes('Add a secret'));
    expect(api.callsOf('putVaultSecret')).toHaveLength(0);
    await app.press('ctrl+s');
    await app.waitFor('replace its value and hosts?');
    await app.press('y');
    await app.waitFor('saved slack_token');
    expect(api.callsOf('putVaultSecret')).toEqual([['slack_token', { hosts: ['evil.example.com'] }]]);
    expect(app.frames.some((fr) => fr.includes('other-value'))).toBe(false);
  });

  it('replaces a secret keeping its hosts; a wildcard host is refused live', async () => {
    const api = withWorkspaceSecrets();
    const app = renderApp({ api, initial: { name: 'vault' } });
    await app.waitFor('github_token');
    await app.press('e');
    await app.waitFor('Replace github_token');
    await app.type('new-value');
    await app.press('tab', 'tab');
    await app.type('*.github.com');
    await app.waitFor('wildcards are refused');
    for (let i = 0; i < '*.github.com'.length; i++) await app.press('backspace');
    await app.press('ctrl+s');
    await app.waitFor('saved github_token');
    expect(api.callsOf('putVaultSecret')).toEqual([['github_token', { hosts: ['api.github.com'] }]]);
    expect(app.frames.some((fr) => fr.includes('new-value'))).toBe(false);
  });
});

describe('a secret with a long name', () => {
  it('keeps the replace form\'s title to one row, so a small terminal still shows the fields', async () => {
    const api = new FakeApi();
    const name = `very_long_secret_name_${'x'.repeat(150)}`;
    void api.putVaultSecret(name, { value: 'v', hosts: ['api.example.com'] });
    api.calls = [];
    const app = renderApp({ api, initial: { name: 'vault' } });
    app.resize({ columns: 40, rows: 12 });
    await app.waitFor('very_long_secret');
    await app.press('e');
    const f = await app.waitFor(/Replace very_long/);
    expect(f.split('\n').filter((l) => l.includes('xxxx'))).toHaveLength(1);
    expect(f).toMatch(/value/);
  });
});

describe('the secret form and the vault footer', () => {
  it('esc with edits asks before discarding (the value never in the question); without edits it leaves at once', async () => {
    const app = renderApp({ initial: { name: 'vault' } });
    await app.waitFor('No secrets here yet');
    await app.press('a');
    await app.waitFor('Add a secret');
    await app.press('esc');
    await app.waitFor((f) => !f.includes('Add a secret') && f.includes('No secrets here yet'));
    await app.press('a');
    await app.waitFor('Add a secret');
    await app.type('deploy_key');
    await app.press('tab');
    await app.type('s3cr3t-value');
    await app.waitFor('12 chars, hidden');
    await app.press('esc');
    const asked = await app.waitFor('Discard your changes? (y/n)');
    expect(asked).not.toContain('s3cr3t');
    // n keeps the form as it was: the answer is not typed into the value.
    await app.press('n');
    await app.waitFor((f) => !f.includes('Discard your changes') && f.includes('12 chars, hidden'));
    await app.press('esc');
    await app.waitFor('Discard your changes? (y/n)');
    await app.press('y');
    await app.waitFor((f) => !f.includes('Add a secret') && f.includes('No secrets here yet'));
    expect(app.api.callsOf('putVaultSecret')).toHaveLength(0);
    expect(app.frames.some((fr) => fr.includes('s3cr3t'))).toBe(false);
  });

  it('the footer lists only keys that work there: no open, and copy and tabs only on an intern', async () => {
    const api = withWorkspaceSecrets();
    // Wide enough for the whole footer, so a key is missing because it is not listed, not cut off.
    const wide = (app: ReturnType<typeof renderApp>) => app.resize({ columns: 400 });
    const ws = renderApp({ api, initial: { name: 'vault' } });
    wide(ws);
    let line = footerOf(await ws.waitFor((f) => f.includes('github_token') && footerOf(f).includes('a add a secret')));
    for (const shown of ['a add a secret', 'e replace', 'D delete', '/ filter', 'j/k move', 'r refresh']) expect(line).toContain(shown);
    for (const missing of ['enter open', 'f status', 'C copy', 'tab effective']) expect(line).not.toContain(missing);
    cleanup();
    const own = renderApp({ api, initial: { name: 'vault', internId: IDS.runner } });
    wide(own);
    line = footerOf(await own.waitFor((f) => f.includes('Secrets of runner') && footerOf(f).includes('a add a secret')));
    for (const shown of ['a add a secret', 'C copy workspace secrets', 'tab effective / own', 'j/k move']) expect(line).toContain(shown);
    for (const missing of ['enter open', 'f status']) expect(line).not.toContain(missing);
  });

  it('/ filters by name or host as it is typed, the cursor and the keys acting on what is shown; esc clears it', async () => {
    const api = withWorkspaceSecrets();
    const app = renderApp({ api, initial: { name: 'vault' } });
    await app.waitFor('github_token');
    const all = (app.frame().match(/_token|_webhook|_dsn/g) ?? []).length;
    await app.press('/');
    await app.type('slack');
    let f = await app.waitFor((s) => s.includes('/ filter slack') && !s.includes('github_token'));
    expect(f).toContain('slack');
    expect(f).toMatch(/· 1 of \d+ · values are never shown/);
    await app.press('enter');
    // The keys act on the row shown: D asks about the slack secret, not the first of the whole list.
    await app.press('D');
    f = await app.waitFor(/Delete slack\w* from workspace\?/);
    await app.press('n');
    await app.waitFor((s) => !s.includes('Delete slack'));
    // A host matches too, and a filter that matches nothing says so.
    await app.press('/');
    for (let i = 0; i < 'slack'.length; i++) await app.press('backspace');
    await app.type('api.git');
    await app.waitFor((s) => s.includes('github_token') && !s.includes('slack_token'));
    for (let i = 0; i < 'api.git'.length; i++) await app.press('backspace');
    await app.type('nothing-here');
    await app.waitFor('Nothing matches "nothing-here".');
    await app.press('esc');
    await app.waitFor((s) => s.includes('github_token') && /· \d+ · values are never shown/.test(s) && !/^[› ] \/ filter/m.test(s));
    expect((app.frame().match(/_token|_webhook|_dsn/g) ?? []).length).toBe(all);
  });

  it('esc on a filtered vault opened from the list clears the filter and stays; the next esc goes back', async () => {
    const api = withWorkspaceSecrets();
    const app = renderApp({ api });
    await app.waitFor('sleeper');
    await app.press(':');
    await app.type('vault');
    await app.press('enter');
    await app.waitFor('github_token');
    await app.press('/');
    await app.type('slack');
    await app.press('enter');
    await app.waitFor((s) => /· 1 of \d+ · values are never shown/.test(s));
    await app.press('esc');
    const f = await app.waitFor((s) => s.includes('github_token') && /· \d+ · values are never shown/.test(s));
    expect(f).not.toMatch(/1 of \d+/);
    await app.press('esc');
    await app.waitFor((s) => s.includes('sleeper') && !s.includes('values are never shown'));
  });
});
