/** The model picker on the settings form and the BYOK provider list from GET /providers. */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { ApiError } from '../../src/client/errors.js';
import { FakeApi, IDS } from './fakeApi.js';
import { renderApp } from './render.js';

afterEach(() => cleanup());

describe('model picker', () => {
  it('lists the catalogue with context and prices per million, filters, and saves the pick', async () => {
    const app = renderApp({ initial: { name: 'settings', id: IDS.sleeper } });
    await app.waitFor('Settings of sleeper');
    await app.press('tab', 'tab');
    await app.press('enter');
    const f = await app.waitFor('google/gemini-2.5-pro');
    expect(f).toContain('workspace default');
    expect(f).toMatch(/anthropic\/claude-sonnet-4 +200k ctx · \$3\.00\/\$15\.00 per M/);
    expect(f).toMatch(/deepseek-r1:free +164k ctx · free\/free/);
    await app.type('gemini');
    await app.waitFor((s) => !s.includes('claude-sonnet'));
    await app.press('enter');
    await app.waitFor((s) => s.includes('google/gemini-2.5-pro') && !s.includes('per M'));
    await app.press('ctrl+s');
    await app.waitFor('saved · The model applies');
    expect(app.api.callsOf('updateIntern')).toEqual([[IDS.sleeper, { model: 'google/gemini-2.5-pro' }]]);
  });

  it('"workspace default" sends null', async () => {
    const app = renderApp({ initial: { name: 'settings', id: IDS.sleeper } });
    await app.waitFor('Settings of sleeper');
    await app.press('tab', 'tab', 'enter');
    await app.waitFor('workspace default');
    await app.type('workspace');
    await app.waitFor('(1 of');
    await app.press('enter');
    await app.waitFor('empty: workspace default');
    await app.press('ctrl+s');
    await app.waitFor('saved · The model applies');
    expect(app.api.callsOf('updateIntern')).toEqual([[IDS.sleeper, { model: null }]]);
  });

  it('opens on the model the field holds, marked, so that enter keeps it', async () => {
    const app = renderApp({ initial: { name: 'settings', id: IDS.sleeper } });
    await app.waitFor('Settings of sleeper');
    await app.press('tab', 'tab', 'enter');
    const f = await app.waitFor(/›•openai\/gpt-4\.1 /);
    expect(f).toMatch(/Model \(\d+ of \d+\) · • current/);
    expect(f).toMatch(/^│ {2} workspace default/m);
    await app.press('up');
    await app.waitFor(/› anthropic\/claude-sonnet-4 /);
    // The mark stays on the current row when the cursor leaves it.
    expect(app.frame()).toMatch(/ •openai\/gpt-4\.1 /);
    await app.press('down', 'enter');
    await app.waitFor((s) => !s.includes('per M'));
    await app.press('ctrl+s');
    await app.waitFor('nothing changed');
    expect(app.api.callsOf('updateIntern')).toEqual([]);
  });

  it('opens on a slug typed into the field that the catalogue lacks, and enter keeps it', async () => {
    const app = renderApp({ initial: { name: 'settings', id: IDS.sleeper } });
    await app.waitFor('Settings of sleeper');
    await app.press('tab', 'tab', '\x01', '\x0b');
    await app.type('acme/custom-model:beta');
    await app.waitFor('will send: model');
    await app.press('enter');
    const f = await app.waitFor(/›•acme\/custom-model:beta +what the field holds/);
    expect(f).toMatch(/^│ {2} workspace default/m);
    await app.press('enter');
    await app.waitFor((s) => !s.includes('per M'));
    await app.press('ctrl+s');
    await app.waitFor('saved');
    expect(app.api.callsOf('updateIntern')).toEqual([[IDS.sleeper, { model: 'acme/custom-model:beta' }]]);
  });

  it('keeps a typed slug the catalogue lacks, and works when the catalogue fails', async () => {
    const api = new FakeApi();
    api.listModels = async () => {
      throw new ApiError(503, 503, 'unavailable', true, 'catalogue down', 'GET /models');
    };
    const app = renderApp({ api, initial: { name: 'settings', id: IDS.sleeper } });
    await app.waitFor('Settings of sleeper');
    await app.press('tab', 'tab', 'enter');
    await app.waitFor('catalogue is unavailable');
    // Not a slug: the picker says why and offers nothing to pick (the form would mark it).
    await app.type('gpt-4.1');
    const refused = await app.waitFor('"gpt-4.1" cannot be kept as typed: it must look like author/slug');
    expect(refused).not.toContain('keep "gpt-4.1"');
    // What the field holds is still a row, though the catalogue is missing: the filter finds it.
    expect(refused).toMatch(/›•openai\/gpt-4\.1 +what the field holds/);
    for (let i = 0; i < 'gpt-4.1'.length; i++) await app.press('backspace');
    await app.type('acme/new-model');
    await app.waitFor('keep "acme/new-model" as typed');
    await app.press('enter');
    await app.press('ctrl+s');
    await app.waitFor('saved · The model applies');
    expect(api.callsOf('updateIntern')).toEqual([[IDS.sleeper, { model: 'acme/new-model' }]]);
  });
});

describe('provider picker', () => {
  it('suggests the service providers from GET /providers', async () => {
    const api = new FakeApi();
    api.providers = [{ name: 'Zeta AI', slug: 'zeta-ai', privacy_policy_url: null }];
    const app = renderApp({ api, initial: { name: 'byokForm' } });
    await app.waitFor('New BYOK credential');
    await app.type('ze');
    const f = await app.waitFor('providers ↑/↓ enter: [zeta-ai]');
    expect(f).not.toContain('bundled list');
  });

  it('falls back to the bundled catalogue when the service has no provider list', async () => {
    const api = new FakeApi();
    api.listProviders = async () => {
      throw new ApiError(404, 404, 'not_found', false, 'no such route', 'GET /providers');
    };
    const app = renderApp({ api, initial: { name: 'byokForm' } });
    await app.waitFor('New BYOK credential');
    await app.type('openai');
    await app.waitFor('bundled list ↑/↓ enter: [openai]');
  });
});
