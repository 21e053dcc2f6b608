/**
 * The development setup (README: `npm run dev` for the server, `npm run dev -w @portal/web` for Vite's dev
 * server, which forwards what the server answers): what the page asks of its own origin must reach the
 * server there too. The product details dialog's pictures (/catalogue-assets/…) came back as Vite's
 * index.html, so under the dev server the options showed no pictures while the production build, served by
 * the server itself, showed them. No browser: the page's own requests, through Vite, as the page sends them.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type ViteDevServer } from 'vite';
import { freePort, repoRoot, startServer, type RunningServer } from '../support/server.ts';

type Details = { state: number; message: { productImage: string | null; objectItems: Array<{ itemValues: Array<{ itemValue: string; img: string | null }> }> } };

describe('the Vite dev server in front of the server', () => {
  let server: RunningServer;
  let vite: ViteDevServer;
  let base: string;

  beforeAll(async () => {
    server = await startServer();
    const web = path.join(repoRoot, 'apps/web');
    // vite.config.ts reads where the server is when it is loaded.
    process.env.PORTAL_API_URL = server.url;
    const port = await freePort();
    vite = await createServer({ configFile: path.join(web, 'vite.config.ts'), root: web, logLevel: 'silent', server: { port, strictPort: true, host: '127.0.0.1' } });
    await vite.listen();
    base = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    await vite?.close();
    await server?.stop();
  });

  it("serves the product details dialog's option pictures, as the server does", async () => {
    const login = await fetch(`${base}/api/authenticate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'demo', password: 'demo' }) });
    expect(login.status).toBe(200);
    const { id_token: token } = (await login.json()) as { id_token: string };
    const get = async <T,>(p: string) => {
      const res = await fetch(base + p, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status, p).toBe(200);
      return (await res.json()) as T;
    };
    const products = await get<Array<{ id: number; name: string }>>('/api/customer-hubs/getProducts/1');
    const photo = products.find((p) => p.name === '5寸照片冲印');
    expect(photo).toBeDefined();
    const details = await get<Details>(`/api/customer-hubs/getProductDetails?productId=${photo!.id}`);
    const pictures = details.message.objectItems.flatMap((i) => i.itemValues).filter((v) => v.img);
    expect(pictures.map((v) => v.itemValue)).toEqual(['光面', '绒面', '珠光']);
    for (const v of pictures) {
      const viaVite = await fetch(base + v.img!);
      const viaServer = await fetch(server.url + v.img!);
      expect([viaVite.status, viaVite.headers.get('content-type')], v.img!).toEqual([200, 'image/png']);
      expect(Buffer.from(await viaVite.arrayBuffer())).toEqual(Buffer.from(await viaServer.arrayBuffer()));
    }
  });
});
