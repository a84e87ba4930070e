/**
 * For test/integration/store-durability.test.ts: opens the sandbox's store on the file given and
 * inserts interns one after another, printing each one's id once `insertIntern` has returned (the
 * write acknowledged), until it is killed.
 */
import { Store, newInternRow } from '../../src/sandbox/store.js';

const [file, prefix] = process.argv.slice(2) as [string, string];
const store = new Store(file);
for (let i = 0; ; i++) {
  const id = `${prefix}-${i}`;
  store.insertIntern(newInternRow({ id, workspace_id: 'ws', creator_id: 'u', name: id, created_at: new Date().toISOString() }));
  process.stdout.write(`${id}\n`);
}
