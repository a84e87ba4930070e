/**
 * Vitest global setup: every temporary folder a test run makes (tests, sandboxes, the programs they
 * start) goes under one folder of its own, removed when the run ends. Tests remove what they make
 * as well; this catches what a killed process or a failed test leaves behind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'intern-tui-tests-'));
  // Read by os.tmpdir() in the test workers (forked after this) and in the processes they start.
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}
