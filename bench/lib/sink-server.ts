/**
 * The baseline of upload benchmarks, run as its own process: a bare node:http server that streams
 * each request body into a new file under SINK_DIR and answers 200 once the file is written. It
 * prints `listening <port>` when ready.
 */
import { createWriteStream } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

const dir = process.env.SINK_DIR;
if (!dir) throw new Error('SINK_DIR is not set');
let counter = 0;

const server = http.createServer((req, res) => {
  const file = path.join(dir, `${++counter}.part`);
  pipeline(req, createWriteStream(file)).then(
    () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"state":200}'),
    (err: unknown) => res.writeHead(500).end(String(err)),
  );
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
