/** Creating an intern: live name rules, the body sent, the idempotency key kept across a retry, the vault picker. */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { ApiError } from '../../src/client/errors.js';
import { FakeApi, IDS } from './fakeApi.js';
import { footerOf, renderApp } from './render.js';

afterEach(() => cleanup());

describe('create an intern', () => {
  it('opens with n on the list, shows the name rule live, and lands on the new intern provisioning', async () => {
    const app = renderApp();
    await app.waitFor('sleeper');
    await app.press('n');
    const form = await app.waitFor('New intern');
    // The labels' column holds the longest label and a space before every value.
    expect(form).toMatch(/provision now +\[x\]/);
    expect(form).toMatch(/borrow vault +none/);
    await app.type('Bad');
    await app.waitFor('must be lowercase letters');
    for (let i = 0; i < 3; i++) await app.press('backspace');
    await app.type('helper-1');
    await app.waitFor((f) => f.includes('helper-1') && !f.includes('✖'));
    await app.press('tab');
    await app.type('Writes docs');
    await app.press('ctrl+s');
    const f = await app.waitFor('queued');
    expect(f).toContain('helper-1');
    const [[body, key]] = app.api.callsOf('createIntern') as [[Record<string, unknown>, string]];
    expect(body).toEqual({ name: 'helper-1', description: 'Writes docs', provision: true });
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sets a model from the picker the settings form uses: created stopped, the model set, then provisioned', async () => {
    const app = renderApp({ initial: { name: 'create' } });
    await app.waitFor('New intern');
    await app.type('modelled');
    await app.press('tab', 'tab');
    await app.waitFor(/› model/);
    await app.press('enter');
    await app.waitFor('openai/o4-mini');
    await app.type('o4-mini');
    await app.waitFor((f) => /› ?\S* ?openai\/o4-mini/.test(f));
    await app.press('enter');
    await app.waitFor((f) => /model +openai\/o4-mini/.test(f) && !f.includes('per M'));
    await app.press('ctrl+s');
    await app.waitFor('created modelled');
    const [[body]] = app.api.callsOf('createIntern') as [[Record<string, unknown>]];
    // The service takes no model on create: it is set before the intern is provisioned.
    expect(body).toEqual({ name: 'modelled', provision: false });
    const id = app.api.interns.find((i) => i.name === 'modelled')!.id;
    expect(app.api.callsOf('updateIntern')).toEqual([[id, { model: 'openai/o4-mini' }]]);
    expect(app.api.callsOf('provisionIntern')).toEqual([[id]]);
    const order = app.api.calls.map((c) => c.method).filter((m) => ['createIntern', 'updateIntern', 'provisionIntern'].includes(m));
    expect(order).toEqual(['createIntern', 'updateIntern', 'provisionIntern']);
  });

  it('marks a typed model the contract refuses, and says when the model could not be set after the create', async () => {
    const api = new FakeApi();
    const app = renderApp({ api, initial: { name: 'create' } });
    await app.waitFor('New intern');
    await app.type('half-made');
    await app.press('tab', 'tab');
    await app.type('not a slug');
    await app.press('ctrl+s');
    await app.waitFor('fix the marked fields first');
    expect(api.callsOf('createIntern')).toHaveLength(0);
    for (let i = 0; i < 'not a slug'.length; i++) await app.press('backspace');
    await app.type('openai/gpt-4.1');
    api.updateIntern = async () => {
      throw new ApiError(400, 400, 'invalid_model', false, 'Unknown model openai/gpt-4.1', 'PATCH /interns/{id}');
    };
    await app.press('ctrl+s');
    const f = await app.waitFor('its model was not set');
    expect(f).toContain('Unknown model openai/gpt-4.1');
    // The intern was made, stopped, and nothing provisioned it without its model.
    expect(api.interns.find((i) => i.name === 'half-made')?.status).toBe('stopped');
    expect(api.callsOf('provisionIntern')).toHaveLength(0);
  });

  it('refuses to submit an invalid name and sends nothing', async () => {
    const app = renderApp({ initial: { name: 'create' } });
    await app.waitFor('New intern');
    await app.type('9lives');
    await app.press('ctrl+s');
    await app.waitFor('fix the marked fields first');
    expect(app.api.callsOf('createIntern')).toHaveLength(0);
  });

  it('opens with the empty name unmarked, and marks it once a create is tried, as the flash says', async () => {
    const app = renderApp({ initial: { name: 'create' } });
    let f = await app.waitFor('New intern');
    expect(f).not.toContain('✖');
    await app.press('tab');
    await app.type('Docs');
    await app.press('ctrl+s');
    // Before, the flash said "fix the marked fields first" beside an empty name nobody had marked.
    f = await app.waitFor((s) => s.includes('fix the marked fields first') && s.includes('✖ must be at least 2 characters'));
    expect(f).toMatch(/› name/);
    expect(app.api.callsOf('createIntern')).toHaveLength(0);
  });

  it('a retry of the same submit reuses its Idempotency-Key, so one intern is made', async () => {
    const api = new FakeApi();
    api.dropNextCreate = true;
    const app = renderApp({ api, initial: { name: 'create' } });
    await app.waitFor('New intern');
    await app.type('retry-me');
    await app.press('ctrl+s');
    await app.waitFor('connection dropped');
    await app.press('ctrl+s');
    await app.waitFor('created retry-me');
    const calls = api.callsOf('createIntern');
    expect(calls).toHaveLength(2);
    expect(calls[0]![1]).toBe(calls[1]![1]);
    expect(api.interns.filter((i) => i.name === 'retry-me')).toHaveLength(1);
  });

  it('toggles provision off and borrows the vault of another intern from the picker', async () => {
    const app = renderApp({ initial: { name: 'create' } });
    await app.waitFor('New intern');
    await app.type('borrower');
    await app.press('tab', 'tab', 'tab', 'tab');
    await app.waitFor('space or ←/→ toggles');
    await app.press('space');
    await app.waitFor('[ ] no');
    await app.press('tab', 'enter');
    await app.waitFor('Borrow the vault of');
    await app.type('run');
    await app.press('enter');
    await app.waitFor('the vault of runner');
    await app.press('ctrl+s');
    await app.waitFor('created borrower');
    const [[body]] = app.api.callsOf('createIntern') as [[Record<string, unknown>]];
    expect(body).toEqual({ name: 'borrower', provision: false, vault_id: app.api.interns.find((i) => i.id === IDS.runner)!.vault_id });
  });

  it('a taken name keeps the whole form and shows the service error', async () => {
    const app = renderApp({ initial: { name: 'create' } });
    await app.waitFor('New intern');
    await app.type('runner');
    await app.press('tab');
    await app.type('kept text');
    await app.press('ctrl+s');
    const f = await app.waitFor('already exists');
    expect(f).toContain('kept text');
    expect(f).toMatch(/› name +runner/);
    // The field says it too, while the name is the one refused; a new name clears both.
    expect(f).toContain('already used by another of your interns here');
    await app.type('-two');
    await app.waitFor((s) => !s.includes('already exists') && !s.includes('already used by another'));
  });

  it('esc asks before discarding typed fields; n keeps them, y leaves', async () => {
    const app = renderApp();
    await app.waitFor('sleeper');
    await app.press('n');
    await app.waitFor('New intern');
    await app.type('half-done');
    await app.press('esc');
    await app.waitFor('Discard this new intern? (y/n)');
    await app.press('n');
    await app.waitFor((f) => !f.includes('Discard this') && f.includes('half-done'));
    await app.press('esc');
    await app.waitFor('Discard this new intern?');
    await app.press('y');
    await app.waitFor((f) => f.includes('sleeper') && !f.includes('New intern'));
    expect(app.api.callsOf('createIntern')).toHaveLength(0);
  });

  it('on a short terminal its fields scroll with the focus: the one being edited is always on screen', async () => {
    const app = renderApp({ initial: { name: 'create' } });
    app.resize({ columns: 60, rows: 12 });
    let f = await app.waitFor((s) => s.includes('› name') && (s.split('\n')[1] ?? '').length === 60);
    for (const next of ['description', 'model', 'instructions', 'provision now', 'borrow vault']) {
      await app.press('tab');
      f = await app.waitFor(`› ${next}`);
      expect(f.split('\n').length, next).toBeLessThanOrEqual(12);
      expect(footerOf(f), next).toMatch(/^\^s create {2}tab next field/);
    }
    expect(f).toMatch(/↑ \d+ more fields/);
  });

  it('the palette opens it with :new', async () => {
    const app = renderApp();
    await app.waitFor('sleeper');
    await app.press(':');
    await app.type('new');
    await app.press('enter');
    await app.waitFor('New intern');
  });
});
