/**
 * For test/integration/store-durability.test.ts: opens the sandbox's store on the file given and
 * inserts interns one after another, printing each one's id once `insertIntern` has returned (the
 * write acknowledged), until it is killed.
 *
 * Each ack is handed to the kernel before the next insert. process.stdout on a pipe is
 * asynchronous on Linux: a line the pipe cannot take at once waits for an event-loop turn, and a
 * loop that never yields never gives it one, so every later ack would stay in this process while
 * it went on inserting (and growing) for ever. That happened once in CI: the test, descheduled for
 * a moment, let the pipe fill and never got the acks it waited for.
 */
import { Store, newInternRow } from '../../src/sandbox/store.js';

const [file, prefix] = process.argv.slice(2) as [string, string];
const store = new Store(file);
// Says how far a writer that never acknowledges got (the test shows this stderr when it fails).
process.stderr.write(`store open\n`);
const ack = (line: string): Promise<void> =>
  new Promise((resolve, reject) => process.stdout.write(line, (err) => (err ? reject(err) : resolve())));
for (let i = 0; ; i++) {
  const id = `${prefix}-${i}`;
  store.insertIntern(newInternRow({ id, workspace_id: 'ws', creator_id: 'u', name: id, created_at: new Date().toISOString() }));
  await ack(`${id}\n`);
}
