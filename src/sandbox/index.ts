/** `startSandbox`: the whole service on loopback, with a real database and real terminals. */
import { chmodSync, existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildApp } from './app.js';
import { writeFileAtomic, makeDirs } from '../files.js';
import { SecretBox, SecretSourceError, randomToken, takeSecretFromEnv } from './crypto.js';
import { confinementNote, probeConfinement, stopProbe, within } from './daemon/confine.js';
import { createDaemonHub } from './daemon/index.js';
import type { DaemonHub } from './daemon/types.js';
import { AgentService } from './agent/index.js';
import { seedFixtures } from './fixtures.js';
import type { HttpContext } from './http.js';
import { Lifecycle } from './lifecycle.js';
import { Store } from './store.js';
import type { Manifest, RunningSandbox, SandboxOptions } from './types.js';
import { LIMITS } from '../contract/limits.js';

export type { Manifest, RunningSandbox, SandboxOptions } from './types.js';

const MANIFEST_META = 'manifest';
/** How long after its start the sandbox asks whether terminals can be confined, when no terminal asked first (the note). */
const PROBE_AFTER_MS = 1500;

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const notice = options.notice ?? ((line: string) => process.stderr.write(`sandbox: ${line}\n`));
  // Taken from the environment even when a source was given: no program started later inherits it.
  const fromEnv = takeSecretFromEnv();
  if (fromEnv.note) notice(fromEnv.note);
  const secretSource = options.secret ?? fromEnv.source;
  // Read first: a secret that cannot be read (SecretSourceError) stops the start before anything is made.
  const given = secretSource ? SecretBox.load(undefined, secretSource) : undefined;
  // Whether the terminals can be confined: asked by the first terminal (the hub probes then), or
  // PROBE_AFTER_MS after the start for the note, whichever comes first. Not during the start: the
  // probe runs processes, and on two cores they took the TUI's first frame on the embedded sandbox
  // from ×2.1 to ×2.8 of the Ink hello (bench row d). The probe is cached, so it runs once.
  let shuttingDown = false;
  const probeLater = setTimeout(() => {
    void probeConfinement().then((c) => {
      const note = confinementNote(c);
      // A probe the close ended says nothing true of this machine.
      if (note && !shuttingDown) notice(note);
    });
  }, PROBE_AFTER_MS);
  probeLater.unref();
  const host = options.host ?? '127.0.0.1';
  const ephemeral = options.dataDir === undefined;
  const dir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'intern-sandbox-'));
  makeDirs(dir);
  // The data folder holds the database and secret.key: only its owner may enter it, whoever made it.
  chmodSync(dir, 0o700);
  let workspaces: { dir: string; temporary: boolean };
  try {
    workspaces = openWorkspaces(dir, options.workspacesDir);
    for (const p of options.privatePaths ?? []) {
      if (existsSync(p) && within(workspaces.dir, realpathSync(p))) {
        if (workspaces.temporary) rmSync(workspaces.dir, { recursive: true, force: true });
        throw new SandboxOptionsError(`the workspaces folder must not be inside ${p}, which the interns' programs must not see`);
      }
    }
  } catch (e) {
    if (ephemeral) rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const store = new Store(join(dir, 'sandbox.db'));
  for (const f of ['sandbox.db', 'sandbox.db-wal', 'sandbox.db-shm']) if (existsSync(join(dir, f))) chmodSync(join(dir, f), 0o600);
  const secrets = given ?? SecretBox.load(ephemeral ? undefined : dir);

  // The fixtures' credentials are sealed in the database so a restart with --data-dir keeps them.
  let fixtures: Omit<Manifest, 'base_url' | 'regional_host' | 'control_token' | 'deadline_ms' | 'sign_in_url' | 'issuer'>;
  let controlToken: string;
  const sealed = store.getMeta(MANIFEST_META);
  if (sealed) {
    let opened: string;
    try {
      opened = secrets.open(Buffer.from(sealed, 'base64'));
    } catch {
      store.close();
      if (workspaces.temporary) rmSync(workspaces.dir, { recursive: true, force: true });
      throw new SecretSourceError(`the secret does not open the state sealed in ${dir} (it was made with another secret)`);
    }
    const saved = JSON.parse(opened) as typeof fixtures & { control_token: string };
    ({ control_token: controlToken, ...fixtures } = saved);
  } else {
    fixtures = seedFixtures(store, secrets, options.seed ?? 'demo');
    controlToken = randomToken(32);
    store.setMeta(MANIFEST_META, secrets.seal(JSON.stringify({ ...fixtures, control_token: controlToken })).toString('base64'));
  }

  // What the interns' programs must not see (daemon/confine.ts): read when each terminal starts.
  const secretFile = secretSource && 'file' in secretSource ? resolve(secretSource.file) : undefined;
  const privatePaths = () => [dir, ...(options.manifestPath ? [resolve(options.manifestPath)] : []), ...(secretFile ? [secretFile] : []), ...(options.privatePaths ?? [])];
  const daemons = createDaemonHub({ host, command: options.daemonCommand, scratchRoot: workspaces.dir, privatePaths });
  const agent = new AgentService(daemons, options.agent);
  // An intern that stops (suspend, delete, a status set by the control API) ends its chat runs too.
  const hub: DaemonHub = {
    ...daemons,
    stop: async (id, reason) => {
      agent.endRuns(id, reason);
      await daemons.stop(id, reason);
    },
  };
  const lifecycle = new Lifecycle(store, hub, options.stepMs ?? 800);
  const ctx: HttpContext = { deadlineMs: options.deadlineMs ?? LIMITS.routeDeadlineMs, faults: [], log: options.log };
  let origin = '';
  const app = await buildApp({
    store,
    hub,
    lifecycle,
    secrets,
    ctx,
    controlToken,
    agent,
    chatKeepaliveMs: options.agent?.keepaliveMs,
    origin: () => origin,
    signIn: options.signIn,
    log: options.log,
  });

  /** Stops everything started above and removes the temporary folders: on close, or when listening fails. */
  const shutdown = async () => {
    shuttingDown = true;
    clearTimeout(probeLater);
    lifecycle.close();
    agent.close();
    await hub.close();
    await app.close();
    store.close();
    if (ephemeral) rmSync(dir, { recursive: true, force: true });
    if (workspaces.temporary) rmSync(workspaces.dir, { recursive: true, force: true });
    // A probe under way (PROBE_AFTER_MS's, or the first terminal's) is ended, and its scratch folder removed.
    await stopProbe();
  };
  let address: string;
  try {
    address = await app.listen({ host, port: options.port ?? 0 });
  } catch (e) {
    await shutdown();
    throw e;
  }
  lifecycle.resume();
  const port = new URL(address).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  origin = `http://${urlHost}:${port}`;
  const manifest: Manifest = {
    base_url: `${origin}/api/v1`,
    sign_in_url: `${origin}/auth`,
    issuer: origin,
    regional_host: `eu.localhost:${port}`,
    control_token: controlToken,
    deadline_ms: ctx.deadlineMs,
    ...fixtures,
  };
  if (options.manifestPath) {
    writeFileAtomic(options.manifestPath, JSON.stringify(manifest, null, 2) + '\n');
  }

  let closing: Promise<void> | undefined;
  return {
    baseUrl: manifest.base_url,
    origin,
    manifest,
    workspacesDir: workspaces.dir,
    close() {
      closing ??= shutdown();
      return closing;
    },
  };
}

/** Options that cannot work together (a command line's mistake, exit 2 from the CLI), found once their folders are looked at. */
export class SandboxOptionsError extends Error {
  override readonly name = 'SandboxOptionsError';
}

/**
 * The interns' workspaces live outside the data folder (issue 13): a program in an intern starts
 * in `<workspaces>/<intern id>`, with no path from there down into the database or secret.key.
 */
function openWorkspaces(dataDir: string, given: string | undefined): { dir: string; temporary: boolean } {
  if (given === undefined) return { dir: mkdtempSync(join(tmpdir(), 'intern-workspaces-')), temporary: true };
  makeDirs(given);
  const real = realpathSync(resolve(given));
  const inside = within(real, realpathSync(dataDir));
  const around = within(realpathSync(dataDir), real);
  if (inside || around) throw new SandboxOptionsError('the workspaces folder must not be inside the data folder (or contain it)');
  return { dir: real, temporary: false };
}
