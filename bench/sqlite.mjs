/**
 * The sandbox's store (src/sandbox/store.ts, as it is) on each SQLite binding, for the choice
 * recorded in docs/architecture.md ("The SQLite binding"): the store is bundled once per binding
 * (esbuild aliases its driver import), and each round runs every binding in a fresh process, in
 * turns, so each sees the same machine; the medians are printed. Not a budget, not `npm run bench`.
 *
 *   node bench/sqlite.mjs [--rounds N] [--node PATH]...   (each --node: also run there, e.g. Node 22's)
 *
 * Per process: the binding's load (requiring the bundled store), the store's open (WAL, the
 * schema), then 1,000 interns inserted (each an autocommit transaction, as the routes write),
 * 1,000 read by id, 200 pages of 50, 500 vault secrets put (RETURNING) and read back.
 * `node:sqlite` runs through a shim of the better-sqlite3 calls the store makes, where the Node
 * running it has the module (22.13+); elsewhere it is skipped. better-sqlite3 is no dependency any
 * more: `npm install --no-save better-sqlite3@12` first to compare it (a binding not installed is
 * skipped, and one built for another Node's ABI says so).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, node: { type: 'string', multiple: true, default: [] }, child: { type: 'string' } } });

/** What store.ts asks of better-sqlite3, on node:sqlite: pragma, exec, prepare (get/all/run), transaction. */
const NODE_SQLITE_SHIM = `
const { DatabaseSync } = require('node:sqlite');
const buf = (row) => { if (!row) return row; const out = {}; for (const k in row) { const v = row[k]; out[k] = v instanceof Uint8Array ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : v; } return out; };
class Statement {
  constructor(s) { this.s = s; }
  get(...a) { return buf(this.s.get(...a)); }
  all(...a) { return this.s.all(...a).map(buf); }
  run(...a) { return this.s.run(...a); }
}
module.exports = class Database {
  constructor(file) { this.d = new DatabaseSync(file); }
  pragma(p) { return this.d.prepare('PRAGMA ' + p).all(); }
  exec(sql) { this.d.exec(sql); }
  prepare(sql) { return new Statement(this.d.prepare(sql)); }
  transaction(fn) { return (...a) => { this.d.exec('BEGIN'); try { const r = fn(...a); this.d.exec('COMMIT'); return r; } catch (e) { this.d.exec('ROLLBACK'); throw e; } }; }
  close() { this.d.close(); }
};
`;

/** One process's run: the store bundle given, a fresh database. */
function child(bundle) {
  const dir = mkdtempSync(join(tmpdir(), 'intern-tui-sqlite-'));
  const t = [performance.now()];
  const lap = () => t.push(performance.now()) && t.at(-1) - t.at(-2);
  const out = {};
  const { Store, newInternRow } = globalThis.require(bundle);
  out.load = lap();
  const store = new Store(join(dir, 'sandbox.db'));
  out.open = lap();
  const ids = [];
  for (let i = 0; i < 1000; i++) {
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    ids.push(id);
    store.insertIntern(newInternRow({ id, workspace_id: 'ws', creator_id: 'u', name: `intern-${i}`, created_at: new Date(1e12 + i).toISOString(), icon: i % 10 === 0 ? Buffer.alloc(2048, i) : null }));
  }
  out.insert = lap();
  for (const id of ids) if (!store.intern(id)) throw new Error('lost ' + id);
  out.read = lap();
  for (let i = 0; i < 200; i++) if (store.internsPage('ws', { limit: 50, beforeSeq: 1000 - i * 4 }).length !== 50) throw new Error('short page');
  out.pages = lap();
  for (let i = 0; i < 500; i++) {
    const row = store.putSecret({ scope: 'workspace:ws', name: `S${i}`, hosts: null, value_sealed: Buffer.alloc(64, i), fingerprint: 'f', created_at: 'now' });
    if (!Buffer.isBuffer(row.value_sealed)) throw new Error('a BLOB came back as ' + Object.prototype.toString.call(row.value_sealed));
    out.extraKeys = Object.keys(row).filter((k) => !['scope', 'name', 'hosts', 'value_sealed', 'fingerprint', 'created_at'].includes(k)).join(',') || 'none';
  }
  for (let i = 0; i < 500; i++) if (!store.secret('workspace:ws', `S${i}`)) throw new Error('lost secret');
  out.secrets = lap();
  store.close();
  rmSync(dir, { recursive: true, force: true });
  process.stdout.write(JSON.stringify(out));
}

if (values.child) {
  globalThis.require = (await import('node:module')).createRequire(import.meta.url);
  child(values.child);
} else {
  const { build } = await import('esbuild');
  const dir = mkdtempSync(join(tmpdir(), 'intern-tui-sqlite-bundles-'));
  writeFileSync(join(dir, 'node-sqlite-shim.cjs'), NODE_SQLITE_SHIM);
  const drivers = { 'better-sqlite3': 'better-sqlite3', libsql: 'libsql', 'node:sqlite': join(dir, 'node-sqlite-shim.cjs') };
  const bundles = {};
  const require = (await import('node:module')).createRequire(join(ROOT, 'package.json'));
  for (const [name, target] of Object.entries(drivers)) {
    if (!target.startsWith('/')) {
      try {
        require.resolve(target);
      } catch {
        console.log(`${name}: not installed, skipped`);
        delete drivers[name];
        continue;
      }
    }
    bundles[name] = join(dir, `store-${name.replace(':', '-')}.cjs`);
    await build({ absWorkingDir: ROOT, entryPoints: ['src/sandbox/store.ts'], outfile: bundles[name], bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: ['better-sqlite3', 'libsql', 'node:sqlite'], alias: { libsql: target }, nodePaths: [join(ROOT, 'node_modules')], logLevel: 'warning' });
  }
  const nodes = [process.execPath, ...values.node];
  const results = {};
  const rounds = Number(values.rounds);
  for (let r = 0; r < rounds; r++) {
    for (const node of nodes) {
      const version = execFileSync(node, ['-v'], { encoding: 'utf8' }).trim();
      for (const name of Object.keys(drivers)) {
        if (name === 'node:sqlite' && execFileSync(node, ['-p', "process.getBuiltinModule?.('node:sqlite') ? 1 : 0"], { encoding: 'utf8' }).trim() !== '1') continue;
        const key = `${version} ${name}`;
        const env = { ...process.env, NODE_PATH: join(ROOT, 'node_modules') };
        let out;
        try {
          out = JSON.parse(execFileSync(node, ['--no-warnings', fileURLToPath(import.meta.url), '--child', bundles[name]], { encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'pipe'] }));
        } catch (e) {
          // A native binding built for another Node (its ABI) does not load: say so, and go on.
          out = { failed: /ERR_DLOPEN_FAILED|NODE_MODULE_VERSION/.test(String(e.stderr)) ? 'does not load (built for another Node)' : String(e.stderr).split('\n').find((l) => /Error/.test(l)) ?? 'failed' };
        }
        (results[key] ??= []).push(out);
      }
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  console.log(`medians of ${rounds} processes each, ms`);
  console.log(['binding'.padEnd(30), 'load', 'open (+ dlopen for better-sqlite3)', '1000 inserts', '1000 reads', '200 pages', '500 secrets', 'keys beyond the columns'].join('  '));
  for (const [key, runs] of Object.entries(results)) {
    if (runs[0].failed) {
      console.log(`${key.padEnd(30)}  ${runs[0].failed}`);
      continue;
    }
    const m = (k) => median(runs.map((x) => x[k])).toFixed(1);
    console.log([key.padEnd(30), m('load'), m('open'), m('insert'), m('read'), m('pages'), m('secrets'), runs[0].extraKeys].join('  '));
  }
  rmSync(dir, { recursive: true, force: true });
}
