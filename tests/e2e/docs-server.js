// A "documentation site" on its own loopback port: public/embed-example.html (from dist/) with its
// iframes pointed at the playground's origin, and embed.js. For the embed test and `make perf`.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'), 'dist');

export async function startDocs(playgroundUrl) {
  const server = createServer(async (req, res) => {
    if (req.url.startsWith('/embed.js')) {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(await readFile(join(dist, 'embed.js')));
      return;
    }
    const page = (await readFile(join(dist, 'embed-example.html'), 'utf8')).replaceAll('src="/embed.html?embed', `src="${playgroundUrl}embed.html?embed`);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((ok) => server.close(ok)) };
}
