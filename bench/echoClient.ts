/**
 * A client that does nothing: the user's raw keys to an intern's terminal, its output straight to
 * stdout, acknowledged every FLOW.ackEveryBytes; no emulator, no screen, no TUI. Row 2 prints its
 * echo beside intern-tui's: typed through a pty of its own as intern-tui is, its path crosses the
 * same hops (the user's pty in and out, a process, the socket, the service), with none of
 * intern-tui's work on them. ctrl+] ends it.
 *
 * `node --import tsx bench/echoClient.ts NAME`, with OPENROUTER_BASE_URL, OPENROUTER_API_KEY and
 * OPENROUTER_OAUTH_TOKEN set (the sandbox's manifest).
 */
import { FLOW } from '../src/attach/protocol.js';
import { WebSocketTransport } from '../src/attach/transport.js';
import { createClient } from '../src/client/index.js';

const name = process.argv[2];
const api = createClient({
  baseUrl: process.env.OPENROUTER_BASE_URL!,
  credentials: { api_key: process.env.OPENROUTER_API_KEY, oauth_token: process.env.OPENROUTER_OAUTH_TOKEN },
});
const intern = (await api.listInterns({ limit: 100 })).data.find((i) => i.name === name);
if (!intern) throw new Error(`no intern named ${name}`);
let acked = 0;
const transport: WebSocketTransport = new WebSocketTransport({
  access: () => api.getDaemonAccess(intern.id),
  cols: process.stdout.columns || 100,
  rows: process.stdout.rows || 30,
  handlers: {
    output: (data, offset) => {
      process.stdout.write(data);
      const received = offset + data.length;
      if (received - acked >= FLOW.ackEveryBytes) transport.ack((acked = received));
    },
    state: () => {},
    gap: () => {},
    exit: () => process.exit(0),
  },
});
process.stdin.setRawMode(true);
process.stdin.on('data', (d: Buffer) => {
  if (d.includes(0x1d)) process.exit(0);
  transport.send(d);
});
transport.connect();
