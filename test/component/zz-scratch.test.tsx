import { it } from 'vitest';
import { renderApp } from './render.js';
it('scratch', async () => {
  const app = renderApp({ initial: { name: 'create' } });
  app.resize({ columns: 80, rows: 9 });
  await app.waitFor('New intern');
  await new Promise((r) => setTimeout(r, 150));
  process.stdout.write('FRAME\n' + app.frame() + '\nEND\n');
});
