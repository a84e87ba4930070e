/**
 * Preloaded (NODE_OPTIONS=--import) into the built CLI by an e2e test: counts the Intl.Segmenters
 * each thread makes. On SIGUSR2 the main thread notes its count in SEGMENTER_LOG and asks every
 * worker thread to note its own.
 */
import { appendFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

let made = 0;
const Real = Intl.Segmenter;
Intl.Segmenter = new Proxy(Real, {
  construct(target, args, newTarget) {
    made++;
    return Reflect.construct(target, args, newTarget);
  },
});
const note = (thread) => appendFileSync(process.env.SEGMENTER_LOG, `${thread} ${made}\n`);
const channel = new BroadcastChannel('intern-tui-e2e-segmenters');
channel.unref();
if (isMainThread) {
  process.on('SIGUSR2', () => {
    note('main');
    channel.postMessage('count');
  });
} else {
  channel.onmessage = () => note('worker');
}
