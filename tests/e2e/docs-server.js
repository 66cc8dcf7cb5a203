// A "documentation site" on its own loopback port: public/embed-example.html (from dist/) with its
// iframes pointed at the playground's origin, and embed.js. For the embed tests and `make perf`.
// `pages` adds pages of the test's own (path -> HTML), such as a host page holding a snippet.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'), 'dist');

export async function startDocs(playgroundUrl, pages = {}) {
  const server = createServer(async (req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (path === '/embed.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(await readFile(join(dist, 'embed.js')));
      return;
    }
    if (pages[path] !== undefined) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(pages[path]);
      return;
    }
    const page = (await readFile(join(dist, 'embed-example.html'), 'utf8')).replaceAll('src="/embed.html?embed', `src="${playgroundUrl}embed.html?embed`);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${server.address().port}/`, pages, close: () => new Promise((ok) => server.close(ok)) };
}

/** A plain documentation page around `body` (a snippet, say). */
export function hostPage(title, body) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><style>body{margin:0;font:17px/1.6 Georgia,serif}main{max-width:760px;margin:0 auto;padding:24px 16px}</style></head>
<body><main><h1>${title}</h1><p>A page on another origin.</p>
${body}
</main></body></html>`;
}
