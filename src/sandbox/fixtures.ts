/**
 * The manifest fixtures (a testing contract: role names are stable) and the
 * demo seed. Credentials are random per database; only their hashes are stored.
 */
import { randomUUID } from 'node:crypto';
import type { Manifest } from './types.js';
import { type SecretBox, randomToken, sha256Hex } from './crypto.js';
import { jpegIcon, pngIcon } from './icons.js';
import { newInternRow, type ByokRow, type InternRow, type KeyKind, type Store } from './store.js';
import { labelFor } from './routes/byok.js';
import { maskKey } from '../contract/byok.js';
import { PROVISION_STEPS } from './lifecycle.js';

type FixtureManifest = Omit<Manifest, 'base_url' | 'regional_host' | 'control_token' | 'deadline_ms' | 'sign_in_url' | 'issuer'>;

const USER_A = 'user_a';
const USER_B = 'user_b';

export function seedFixtures(store: Store, secrets: SecretBox, seed: 'demo' | 'empty'): FixtureManifest {
  const tx = store.db.transaction(() => {
    const W = randomUUID();
    const W2 = randomUUID();
    const WC = randomUUID();
    store.db.prepare('INSERT INTO accounts VALUES (?, ?)').run('acct_a', W);
    store.db.prepare('INSERT INTO accounts VALUES (?, ?)').run('acct_b', null);
    store.db.prepare('INSERT INTO accounts VALUES (?, ?)').run('acct_c', WC);
    const ws = store.db.prepare('INSERT INTO workspaces (id, account_id, name, deleted, created_at) VALUES (?, ?, ?, ?, ?)');
    const made = new Date().toISOString();
    ws.run(W, 'acct_a', 'Main', 0, made);
    ws.run(W2, 'acct_a', 'Side projects', 0, made);
    ws.run(WC, 'acct_c', 'Gone', 1, made);

    const interns: Record<string, string> = {};
    const credentials: Record<string, string> = {};
    const key = (role: string, kind: KeyKind, f: { user?: string; account?: string; workspace?: string | null; intern?: string; inProgramme?: boolean; lost?: boolean }) => {
      const secret = kind === 'oauth_token' ? `oat-${randomToken(24)}` : `sk-or-v1-${randomToken(24)}`;
      credentials[role] = secret;
      store.insertKey({
        secret_hash: sha256Hex(secret),
        kind,
        user_id: f.user ?? null,
        account_id: f.account ?? 'acct_a',
        workspace_id: f.workspace === undefined ? W : f.workspace,
        intern_id: f.intern ?? null,
        in_programme: f.inProgramme === false ? 0 : 1,
        lost_access: f.lost ? 1 : 0,
        label: maskKey(secret),
      });
      return secret;
    };

    let clock = Date.now() - 86_400_000 * 30;
    const intern = (role: string | null, fields: Partial<InternRow> & { name: string }, icon?: 'png' | 'jpeg', seedNo = 1) => {
      const id = randomUUID();
      clock += 3_600_000 * 7;
      const ts = new Date(clock).toISOString();
      const bytes = icon === 'png' ? pngIcon(seedNo) : icon === 'jpeg' ? jpegIcon(seedNo) : null;
      const row = newInternRow({
        id,
        workspace_id: W,
        creator_id: USER_A,
        created_at: ts,
        icon: bytes,
        icon_type: icon === 'png' ? 'image/png' : icon === 'jpeg' ? 'image/jpeg' : null,
        icon_sha256: bytes ? sha256Hex(bytes) : null,
        ...fields,
      });
      if (row.status === 'running' && !row.hostname) row.hostname = `${row.name}-${id.slice(0, 8)}.interns.localhost`;
      if (row.status === 'running' && !row.vault_id) row.vault_id = `vault-${id.slice(0, 8)}`;
      if (row.status === 'running') row.active_model = store.modelToRun(row);
      store.insertIntern(row);
      if (role) interns[role] = id;
      return id;
    };
    const progress = (n: number) => JSON.stringify({ step_label: PROVISION_STEPS[n - 1], step_number: n, total_steps: PROVISION_STEPS.length });

    const demoIds = seed === 'demo' ? seedDemo(intern, progress, W) : {};

    intern('other_workspace', { name: 'elsewhere', workspace_id: W2, description: 'Lives in the side-projects workspace.' });
    intern('peer', { name: 'peer-bot', creator_id: USER_B, status: 'running', description: 'Created by a teammate.' }, 'png', 11);
    intern('destroy_failed', { name: 'stuck-delete', status: 'destroy_failed', last_failure_message: 'Teardown failed: the machine did not stop within 10 minutes' });
    intern('destroying', { name: 'leaving', status: 'destroying' });
    intern('awaiting_slack_install', { name: 'slack-pending', status: 'awaiting_slack_install' });
    intern('failed', { name: 'broken', status: 'failed', last_failure_message: 'Image pull failed: registry answered 503 three times' });
    intern('provisioning', { name: 'builder', status: 'provisioning', progress: progress(2) });
    intern('queued', { name: 'waiting', status: 'queued' });
    intern('stopped', { name: 'sleeper', description: 'A stopped intern to provision.', model: 'openai/gpt-4.1' });
    intern('no_icon', { name: 'plain', status: 'running' });
    intern('running_jpeg', { name: 'runner-jpeg', status: 'running' }, 'jpeg', 7);
    const running = intern(
      'running',
      {
        name: 'runner',
        status: 'running',
        description: 'Keeps the CI green and answers questions about the build.',
        instructions: 'Watch the main branch.\nWhen a build fails, find the commit and open an issue.',
        model: 'anthropic/claude-sonnet-4',
      },
      'png',
      3,
    );

    const conn = (k: string, f: { enabled?: boolean; off?: boolean; hidden?: boolean; ok?: boolean | null } = {}) =>
      store.insertConnection({
        intern_id: running,
        key: k,
        enabled: f.enabled === false ? 0 : 1,
        off_for_intern: f.off ? 1 : 0,
        hidden_for_intern: f.hidden ? 1 : 0,
        last_test_ok: f.ok === undefined ? 1 : f.ok === null ? null : f.ok ? 1 : 0,
      });
    conn('github');
    conn('slack');
    conn('linear');
    conn('mcp:tools.example.com');
    conn('notion', { ok: false });
    conn('google', { enabled: false });
    conn('jira', { off: true });
    conn('mcp:hidden.example.com', { hidden: true });

    key('api_key', 'api_key', { user: USER_A });
    key('api_key_peer', 'api_key', { user: USER_B, account: 'acct_b' });
    key('api_key_other_workspace', 'api_key', { user: USER_A, workspace: W2 });
    key('api_key_outside_programme', 'api_key', { user: 'user_d', account: 'acct_b', inProgramme: false });
    key('api_key_lost_access', 'api_key', { user: 'user_e', account: 'acct_b', lost: true });
    key('org_key', 'org_key', {});
    key('intern_key', 'intern_key', { intern: running });
    key('management_key', 'management_key', { user: USER_A, workspace: null });
    key('management_key_no_default_workspace', 'management_key', { user: 'user_c', account: 'acct_c', workspace: null });
    key('oauth_token', 'oauth_token', { user: USER_A });
    key('oauth_token_peer', 'oauth_token', { user: USER_B, account: 'acct_b' });

    const own = [credentials.api_key!, credentials.api_key_other_workspace!, `sk-or-v1-${randomToken(24)}`].map(sha256Hex);
    const foreign = [credentials.api_key_peer!, `sk-or-v1-${randomToken(24)}`].map(sha256Hex);
    for (const h of own) store.db.prepare('INSERT INTO account_key_hashes VALUES (?, ?)').run(h, 'acct_a');
    for (const h of foreign) store.db.prepare('INSERT INTO account_key_hashes VALUES (?, ?)').run(h, 'acct_b');

    if (seed === 'demo') {
      seedDemoByok(store, secrets, W, own[0]!);
      seedDemoVault(store, secrets, W, demoIds);
    }

    const manifest: FixtureManifest = {
      credentials,
      api_key_hashes: { own, foreign },
      interns,
      names: { taken: 'sleeper', peer_taken: 'peer-bot' },
    };
    return manifest;
  });
  return tx();
}

type InternFn = (role: string | null, fields: Partial<InternRow> & { name: string }, icon?: 'png' | 'jpeg', seedNo?: number) => string;

function seedDemo(intern: InternFn, progress: (n: number) => string, _w: string): Record<string, string> {
  const demo: [string, Partial<InternRow>, ('png' | 'jpeg')?][] = [
    ['release-captain', { status: 'running', model: 'openai/gpt-4.1', description: 'Cuts releases, writes changelogs, and chases the last blocking issues.', instructions: 'Every Friday, draft the release notes from merged PRs.\nNever publish without a green CI run.' }, 'png'],
    ['triage', { status: 'running', model: 'anthropic/claude-sonnet-4', description: 'Labels new issues and asks reporters for missing details.', instructions: 'Be kind. Ask for a reproduction when there is none.' }, 'jpeg'],
    ['docs-gardener', { status: 'stopped', model: 'google/gemini-2.5-pro', description: 'Keeps the docs in step with the code.', instructions: 'Open small PRs, one topic each.' }, 'png'],
    ['oncall-buddy', { status: 'provisioning', progress: progress(3), description: 'Summarises alerts and proposes first steps.' }, 'png'],
    ['data-wrangler', { status: 'queued', model: 'deepseek/deepseek-r1:free', description: 'Cleans the weekly CSV exports.' }],
    ['standup', { status: 'awaiting_slack_install', description: 'Collects standup notes in Slack every morning.' }, 'jpeg'],
    ['migrator', { status: 'failed', last_failure_message: 'Provisioning timed out while restoring the workspace snapshot (step 2 of 4)', description: 'Moves services to the new cluster.' }, 'png'],
    ['sweeper', { status: 'destroying', description: 'Deleted last week; cleaning up.' }],
    ['legacy-bot', { status: 'destroy_failed', last_failure_message: 'Teardown failed: its vault is still attached to another intern', description: 'Kept its vault for a teammate.' }],
    ['reviewer', { status: 'running', model: 'openai/o4-mini', description: 'Reviews pull requests for style and obvious bugs.', instructions: 'Comment once per PR. Suggest, do not demand.' }, 'png'],
    ['researcher', { status: 'stopped', model: 'perplexity/sonar-pro', description: 'Answers questions with sources.' }, 'jpeg'],
    ['translator', { status: 'running', description: 'Translates user-facing strings into French, German and Japanese — 日本語 included.' }, 'png'],
  ];
  const ids: Record<string, string> = {};
  demo.forEach(([name, fields, icon], i) => {
    ids[name] = intern(null, { name, ...fields }, icon, 20 + i * 13);
  });
  return ids;
}

/**
 * Vault secrets for the demo: a few in the workspace, some of the interns' own, and `reviewer` borrows
 * `release-captain`'s vault, so its effective view shows all three scopes (intern, attached, workspace).
 */
function seedDemoVault(store: Store, secrets: SecretBox, workspaceId: string, ids: Record<string, string>): void {
  const captain = store.intern(ids['release-captain']!);
  const reviewer = ids.reviewer!;
  if (captain?.vault_id) store.updateIntern(reviewer, { attached_vault_id: captain.vault_id });
  const put = (scope: string, name: string, value: string, hosts: string[], daysAgo: number) =>
    store.putSecret({
      scope,
      name,
      hosts: JSON.stringify(hosts),
      value_sealed: secrets.seal(value),
      fingerprint: secrets.fingerprint(scope, value),
      created_at: new Date(Date.now() - daysAgo * 86_400_000).toISOString(),
    });
  const ws = `workspace:${workspaceId}`;
  put(ws, 'github_token', `ghp_demo${randomToken(18)}`, ['api.github.com', 'github.com'], 40);
  put(ws, 'sentry_dsn', `https://${randomToken(16)}@o1.ingest.sentry.io/42`, ['o1.ingest.sentry.io'], 30);
  put(ws, 'npm_token', `npm_demo${randomToken(18)}`, ['registry.npmjs.org'], 12);
  put(ws, 'slack_webhook', `https://hooks.slack.com/services/T0/B0/${randomToken(12)}`, ['hooks.slack.com'], 5);
  const captainScope = `intern:${ids['release-captain']!}`;
  put(captainScope, 'github_token', `ghp_release${randomToken(18)}`, ['api.github.com'], 9);
  put(captainScope, 'pypi_token', `pypi-demo${randomToken(18)}`, ['upload.pypi.org'], 8);
  const reviewerScope = `intern:${reviewer}`;
  put(reviewerScope, 'linear_api_key', `lin_api_${randomToken(18)}`, ['api.linear.app'], 3);
  put(reviewerScope, 'npm_token', `npm_review${randomToken(18)}`, ['registry.npmjs.org'], 2);
}

function seedDemoByok(store: Store, secrets: SecretBox, workspaceId: string, ownHash: string): void {
  const rows: [string, string, Partial<ByokRow>][] = [
    ['openai', '{"api_key":"sk-proj-demo1234567890abcdWXYZ","region":"us"}', { name: 'Production OpenAI', declared_region: 'us', allowed_api_key_hashes: JSON.stringify([ownHash]) }],
    ['anthropic', 'sk-ant-demo0987654321efghQRST', { name: 'Team Anthropic', allowed_models: JSON.stringify(['anthropic/claude-sonnet-4']) }],
    ['azure', 'az-demo-5555666677778888LMNO', { name: 'Azure EU', declared_region: 'europe', is_fallback: 1 }],
    ['groq', 'gsk_demo11112222333344445555', { name: null, disabled: 1 }],
  ];
  rows.forEach(([provider, raw, f], i) =>
    store.insertByok({
      id: randomUUID(),
      account_id: 'acct_a',
      workspace_id: workspaceId,
      provider,
      name: null,
      label: labelFor(raw),
      key_sealed: secrets.seal(raw),
      allowed_api_key_hashes: null,
      allowed_models: null,
      allowed_user_ids: null,
      declared_region: null,
      declared_zdr: null,
      disabled: 0,
      is_byok_only: 0,
      is_fallback: 0,
      is_required: 0,
      sort_order: 0,
      created_at: new Date(Date.now() - (10 - i) * 86_400_000).toISOString(),
      version: 0,
      ...f,
    }),
  );
}
