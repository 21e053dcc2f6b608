import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'portal-config-'));

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const dir = tmp();
    const c = loadConfig({ DATA_DIR: dir });
    expect(c).toMatchObject({ port: 8080, dataDir: dir, databaseUrl: undefined, seedDemo: true });
  });

  it('takes the webhook endpoint from WEBHOOK_URL and WEBHOOK_SECRET together', () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    expect(loadConfig({ DATA_DIR: tmp(), WEBHOOK_URL: 'https://erp.example/hooks', WEBHOOK_SECRET: secret }).webhook)
      .toMatchObject({ env: { url: 'https://erp.example/hooks', secret }, timeoutMs: 10_000, maxAttempts: 8, retryBaseMs: 5000 });
    expect(loadConfig({ DATA_DIR: tmp() }).webhook.env).toBeNull();
  });

  it('bounds connections per address by default, but not behind a trusted proxy (every connection is the proxy\'s)', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).maxConnectionsPerAddress).toBe(64);
    expect(loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: '127.0.0.1' }).maxConnectionsPerAddress).toBe(0);
    expect(loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: '127.0.0.1', MAX_CONNECTIONS_PER_ADDRESS: '200' }).maxConnectionsPerAddress).toBe(200);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ SEED_DEMO: 'maybe' }, 'SEED_DEMO'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ MAX_ZIP_RATIO: '1' }, 'MAX_ZIP_RATIO'],
    [{ WEBHOOK_URL: 'http://erp.lan/hooks' }, 'WEBHOOK_SECRET'],
    [{ WEBHOOK_SECRET: `whsec_${'A'.repeat(43)}=` }, 'WEBHOOK_URL'],
    [{ WEBHOOK_URL: 'erp.lan/hooks', WEBHOOK_SECRET: `whsec_${'A'.repeat(43)}=` }, 'WEBHOOK_URL'],
    [{ WEBHOOK_URL: 'http://erp.lan/hooks', WEBHOOK_SECRET: 'secret' }, 'WEBHOOK_SECRET'],
    [{ TICKET_FONT: '/nonexistent/font.ttc' }, 'TICKET_FONT'],
  ])('stops on %o naming %s', (env, name) => {
    expect(() => loadConfig({ DATA_DIR: tmp(), ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: tmp(), ...env })).toThrow(new RegExp(`${name}:`));
  });

  it('generates the JWT secret once and keeps it in DATA_DIR', () => {
    const dir = tmp();
    const a = loadConfig({ DATA_DIR: dir }).jwtSecret;
    expect(a.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(a);
    expect(readFileSync(path.join(dir, 'jwt-secret'), 'utf8')).toBe(a);
  });
});
