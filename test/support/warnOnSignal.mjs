/**
 * Preloaded (NODE_OPTIONS=--import) into the built CLI by an e2e test: on SIGUSR2 the main thread
 * emits a warning and asks every worker thread to emit one too. Each warning emitted in the main
 * thread (its own, and a worker's handed over) is noted in WARN_LOG, so the test can wait for them
 * without watching the screen the TUI must keep them off.
 */
import { appendFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const channel = new BroadcastChannel('intern-tui-e2e-warn');
channel.unref();
if (isMainThread) {
  const emit = process.emitWarning;
  process.emitWarning = function (warning, ...rest) {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (text.startsWith('e2e-')) appendFileSync(process.env.WARN_LOG, `${text}\n`);
    return emit.call(this, warning, ...rest);
  };
  process.on('SIGUSR2', () => {
    process.emitWarning('e2e-main-thread-warning');
    channel.postMessage('warn');
  });
} else {
  channel.onmessage = () => process.emitWarning('e2e-worker-thread-warning');
}
