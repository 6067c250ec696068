// Receivers for `npm run bench -- webhooks`, in a process of their own so the dispatcher's event loop
// is measured alone: RECEIVERS servers on loopback answer 204 at once and note when each delivery
// first arrived. Sends {ports} on start; on {report}, sends {arrivals: [[port, eventId, ms]], requests}.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const arrivals = new Map<string, [number, string, number]>();
let requests = 0;
const ports: number[] = [];
for (let i = 0; i < Number(process.env.RECEIVERS ?? 5); i++) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      const port = (req.socket.localPort ?? 0) as number;
      const eventId = String(req.headers['x-service-event-id'] ?? '');
      const key = `${port} ${eventId}`;
      if (!arrivals.has(key)) arrivals.set(key, [port, eventId, Date.now()]);
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  ports.push((server.address() as AddressInfo).port);
}
process.send!({ ports });
process.on('message', (m: { report?: boolean; reset?: boolean }) => {
  if (m.reset) {
    arrivals.clear();
    requests = 0;
    process.send!({ reset: true });
  }
  if (m.report) process.send!({ arrivals: [...arrivals.values()], requests });
});
