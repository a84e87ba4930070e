/** Marks and bulk actions on the lists: space, *, esc, and s/p/D on every marked row after one question. */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { ApiError } from '../../src/client/errors.js';
import { FakeApi, IDS, credential, intern } from './fakeApi.js';
import { footerOf, renderApp } from './render.js';

afterEach(() => cleanup());

/** The list's row of an intern. */
const rowOf = (frame: string, name: string) => frame.split('\n').find((l) => new RegExp(`★? ${name} `).test(l)) ?? '';

describe('marks on the intern list', () => {
  it('space marks the row under the cursor with ✓, the title counts them, and esc clears them before it goes back', async () => {
    const app = renderApp();
    await app.waitFor('sleeper');
    await app.press('space');
    let f = await app.waitFor('1 marked');
    expect(rowOf(f, 'runner')).toMatch(/^✓/);
    await app.press('j', 'j', 'space');
    f = await app.waitFor('2 marked');
    expect(rowOf(f, 'broken')).toMatch(/^✓/);
    expect(rowOf(f, 'builder')).not.toMatch(/^✓/);
    // space again unmarks.
    await app.press('space');
    await app.waitFor((s) => s.includes('1 marked') && !/^✓ ?★? broken/m.test(s));
    await app.press('esc');
    f = await app.waitFor((s) => !s.includes('marked'));
    // Still the list: esc cleared the marks and did not go back.
    expect(f).toContain('sleeper');
    expect(rowOf(f, 'runner')).not.toMatch(/^✓/);
  });

  it('* marks every row the filter shows; a mark the filter hides stays and the title says so; esc clears the filter first', async () => {
    const app = renderApp();
    await app.waitFor('sleeper');
    await app.press('space'); // runner
    await app.press('/');
    await app.type('sle');
    await app.press('enter');
    await app.waitFor((s) => !s.includes('peer-bot') && s.includes('sleeper'));
    await app.press('*');
    await app.waitFor('2 marked (1 hidden)');
    await app.press('esc');
    const f = await app.waitFor((s) => s.includes('peer-bot') && s.includes('2 marked') && !s.includes('hidden'));
    expect(rowOf(f, 'runner')).toMatch(/^✓/);
    expect(rowOf(f, 'sleeper')).toMatch(/^✓/);
    // * again with every shown row... marks the rest; and once all are marked, unmarks them all.
    await app.press('*');
    await app.waitFor('5 marked');
    await app.press('*');
    await app.waitFor((s) => !s.includes('marked'));
  });

  it('marks stay across a status filter and a refresh; a row gone from the service loses its mark', async () => {
    const api = new FakeApi();
    const app = renderApp({ api });
    await app.waitFor('sleeper');
    await app.press('space', 'j', 'space'); // runner, builder
    await app.waitFor('2 marked');
    await app.press('f'); // running only: builder hidden
    await app.waitFor('2 marked (1 hidden)');
    await app.press('F');
    await app.waitFor((s) => s.includes('2 marked') && !s.includes('hidden'));
    api.interns = api.interns.filter((i) => i.id !== IDS.builder);
    await app.press('r');
    await app.waitFor((s) => s.includes('1 marked') && !s.includes('builder'));
  });
});

describe('bulk actions on marked interns', () => {
  it('s suspends every marked intern after one question that lists them, skipping one that is not running, and refreshes once', async () => {
    const api = new FakeApi();
    // Nothing moving: the list does not poll, so its requests are the refresh's alone.
    Object.assign(api.interns.find((i) => i.id === IDS.builder)!, { status: 'stopped', progress: null });
    const app = renderApp({ api });
    await app.waitFor('sleeper');
    // runner, peer-bot (running) and sleeper (stopped).
    await app.press('space', 'j', 'j', 'j', 'space', 'j', 'space');
    await app.waitFor('3 marked');
    const listsBefore = api.callsOf('listInterns').length;
    await app.press('s');
    let f = await app.waitFor('Suspend 2 interns? (1 of the 3 marked skipped');
    expect(f).toMatch(/· runner/);
    expect(f).toMatch(/· peer-bot/);
    expect(f).toMatch(/– sleeper +sleeper is stopped: only a running intern can be suspended/);
    expect(f).toContain('(y/n)');
    expect(footerOf(f)).toMatch(/y confirm/);
    expect(api.callsOf('suspendIntern')).toHaveLength(0);
    await app.press('y');
    f = await app.waitFor('2 of 2 interns suspended');
    expect(f).toMatch(/✓ runner/);
    expect(f).toMatch(/✓ peer-bot/);
    expect(api.callsOf('suspendIntern').map((a) => a[0]).sort()).toEqual([IDS.runner, IDS.peer].sort());
    // One refresh at the end.
    await app.waitFor(() => api.callsOf('listInterns').length === listsBefore + 1);
    // The flash says how it went, in the footer's place.
    await app.waitFor((s) => footerOf(s).includes('2 interns suspended'));
    await app.press('esc');
    f = await app.waitFor((s) => s.includes('NAME') && !s.includes('marked'));
    expect(rowOf(f, 'runner')).toContain('stopped');
    expect(api.callsOf('listInterns').length).toBe(listsBefore + 1);
  });

  it('a partial failure lists the failed row first with its reason, keeps it marked, and sends nothing twice', async () => {
    const api = new FakeApi();
    api.suspendIntern = async (id: string) => {
      api.calls.push({ method: 'suspendIntern', args: [id] });
      if (id === IDS.peer) throw new ApiError(409, 409, 'intern_busy', false, 'peer-bot is busy: \x1b[2Jwait', 'POST /interns/{internId}/suspend');
      api.interns.find((i) => i.id === id)!.status = 'stopped';
    };
    const app = renderApp({ api });
    await app.waitFor('sleeper');
    await app.press('space', 'j', 'j', 'j', 'space');
    await app.press('s');
    await app.waitFor('(y/n)');
    await app.press('y');
    const f = await app.waitFor('1 of 2 interns suspended; 1 failed');
    const lines = f.split('\n');
    const failed = lines.findIndex((l) => l.startsWith('✖ peer-bot'));
    expect(failed).toBeGreaterThan(0);
    expect(lines[failed]).toContain('peer-bot is busy: wait');
    expect(failed).toBeLessThan(lines.findIndex((l) => l.startsWith('✓ runner')));
    expect(api.callsOf('suspendIntern')).toHaveLength(2);
    await app.press('enter');
    const list = await app.waitFor('1 marked');
    expect(rowOf(list, 'peer-bot')).toMatch(/^✓/);
  });

  it('D asks for the count typed; a wrong count sends nothing, the right one deletes them all', async () => {
    const api = new FakeApi();
    const app = renderApp({ api });
    await app.waitFor('sleeper');
    await app.press('space', 'j', 'space');
    await app.press('D');
    await app.waitFor('type the count, 2');
    await app.type('3');
    await app.press('enter');
    await app.waitFor('that is not 2: nothing was sent');
    expect(api.callsOf('deleteIntern')).toHaveLength(0);
    await app.press('backspace');
    await app.type('2');
    await app.press('enter');
    await app.waitFor('2 of 2 interns being deleted');
    expect(api.callsOf('deleteIntern').map((a) => a[0])).toEqual([IDS.runner, IDS.builder]);
  });

  it('n answers no: nothing is sent and the marks stay', async () => {
    const api = new FakeApi();
    const app = renderApp({ api });
    await app.waitFor('sleeper');
    await app.press('j', 'j', 'j', 'j', 'space');
    await app.press('p');
    await app.waitFor('Provision 1 intern?');
    await app.press('n');
    await app.waitFor((s) => s.includes('1 marked') && s.includes('NAME'));
    expect(api.callsOf('provisionIntern')).toHaveLength(0);
  });

  it('200 marked: the question draws the rows that fit, and esc stops the run with those under way finishing', async () => {
    const api = new FakeApi();
    api.interns = Array.from({ length: 200 }, (_, n) => intern({ id: `dddddddd-0000-4000-8000-${String(n).padStart(12, '0')}`, name: `bulk-${n}` }));
    const gates: (() => void)[] = [];
    api.suspendIntern = async (id: string) => {
      api.calls.push({ method: 'suspendIntern', args: [id] });
      await new Promise<void>((res) => gates.push(res));
    };
    const app = renderApp({ api });
    await app.waitFor('bulk-0');
    // Every page loaded (G), then every row marked.
    await app.press('G');
    await app.waitFor('bulk-199');
    await app.press('*');
    await app.waitFor('200 marked');
    await app.press('s');
    let f = await app.waitFor('Suspend 200 interns?');
    // The terminal's rows, not 200.
    expect(f.split('\n').length).toBeLessThanOrEqual(24);
    expect(f).toMatch(/rows 1-\d+ of 200/);
    await app.press('y');
    await app.waitFor(() => gates.length === 4);
    f = await app.waitFor('Suspending 200 interns: 0 done, 200 to go');
    // Each row's state: the four under way, the next waiting.
    expect(f).toMatch(/^… bulk-0 *$/m);
    expect(f).toMatch(/^… bulk-3 *$/m);
    expect(f).toMatch(/^· bulk-4 *$/m);
    expect(footerOf(f)).toContain('esc stop');
    await app.press('esc');
    await app.waitFor('stopping');
    gates.splice(0).forEach((g) => g());
    f = await app.waitFor('4 of 200 interns suspended; 196 not started');
    expect(api.callsOf('suspendIntern')).toHaveLength(4);
  });
});

describe('bulk delete on the BYOK list and the vault', () => {
  it('D on marked BYOK keys deletes them after the count is typed; a failure is listed with its reason', async () => {
    const api = new FakeApi();
    api.byok.push(credential({ id: 'c3', provider: 'azure', name: 'Azure EU', label: 'az-...LMNO' }));
    const remove = api.deleteByok.bind(api);
    api.deleteByok = async (id: string) => {
      if (id === 'c2') {
        api.calls.push({ method: 'deleteByok', args: [id] });
        throw new ApiError(403, 403, 'forbidden', false, 'Only the owner may delete this key', 'DELETE /byok/{id}');
      }
      return remove(id);
    };
    const app = renderApp({ api, initial: { name: 'byok' } });
    await app.waitFor('Production OpenAI');
    await app.press('space', 'j', 'space');
    let f = await app.waitFor('2 marked');
    expect(f).toMatch(/^✓openai/m);
    await app.press('D');
    f = await app.waitFor('type the count, 2');
    expect(f).toMatch(/· openai Production OpenAI/);
    expect(f).toMatch(/· anthropic Team Anthropic/);
    await app.type('2');
    await app.press('enter');
    f = await app.waitFor('1 of 2 credentials deleted; 1 failed');
    expect(f).toMatch(/✖ anthropic Team Anthropic +Only the owner may delete this key/);
    expect(api.callsOf('deleteByok').map((a) => a[0])).toEqual(['c1', 'c2']);
    await app.press('esc');
    f = await app.waitFor((s) => s.includes('PROVIDER') && s.includes('1 marked'));
    expect(f).not.toContain('Production OpenAI');
    expect(f).toMatch(/^✓anthropic/m);
  });

  it('D on marked workspace secrets deletes them all after the count is typed, and refreshes once', async () => {
    const api = new FakeApi();
    void api.putVaultSecret('github_token', { value: 'ghp-workspace-value', hosts: ['api.github.com'] });
    void api.putVaultSecret('slack_token', { value: 'xoxb-workspace-value', hosts: ['slack.com'] });
    void api.putVaultSecret('npm_token', { value: 'npm-workspace-value', hosts: ['registry.npmjs.org'] });
    const app = renderApp({ api, initial: { name: 'vault' } });
    await app.waitFor('slack_token');
    await app.press('/');
    await app.type('tok');
    await app.press('enter');
    await app.press('*');
    await app.waitFor('3 marked');
    await app.press('j', 'space');
    await app.waitFor('2 marked');
    const lists = api.callsOf('listVaultSecrets').length;
    await app.press('D');
    await app.waitFor('Delete 2 secrets?');
    await app.type('2');
    await app.press('enter');
    await app.waitFor('2 of 2 secrets deleted');
    expect(api.callsOf('deleteVaultSecret').map((a) => a[0])).toEqual(['github_token', 'slack_token']);
    await app.waitFor(() => api.callsOf('listVaultSecrets').length === lists + 1);
    await app.press('enter');
    const f = await app.waitFor((s) => s.includes('npm_token') && !s.includes('marked'));
    expect(f).not.toContain('slack_token');
  });

  it("on an intern's effective tab, a marked secret of another scope is skipped with why, and only the intern's own is deleted", async () => {
    const api = new FakeApi();
    void api.putVaultSecret('github_token', { value: 'ghp-workspace-value', hosts: ['api.github.com'] });
    void api.putInternSecret(IDS.runner, 'own_token', { value: 'own-value', hosts: ['example.com'] });
    const app = renderApp({ api, initial: { name: 'vault', internId: IDS.runner } });
    await app.waitFor('own_token');
    await app.press('*');
    await app.waitFor('2 marked');
    await app.press('D');
    const f = await app.waitFor('Delete 1 secret? (1 of the 2 marked skipped');
    expect(f).toMatch(/– github_token +github_token is the workspace scope's: change it there/);
    await app.type('1');
    await app.press('enter');
    await app.waitFor('1 of 1 secret deleted');
    expect(api.callsOf('deleteInternSecret')).toEqual([[IDS.runner, 'own_token']]);
    expect(api.callsOf('deleteVaultSecret')).toEqual([]);
  });
});
