/**
 * Login limits protect the customer instead of locking them out (issue #19, item 7): guesses are
 * limited per login and address, counted in the database (so every process shares them), and a login
 * under attack from many addresses is slowed down, never closed to its real owner.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCustomer } from '../../src/db/seed/customers.ts';
import { startApp, type TestApp } from '../helpers/app.ts';

describe('login limits on two processes sharing one PostgreSQL', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await startApp('postgres', { TRUST_PROXY: 'true', LOGIN_MAX_FAILURES: '5', LOGIN_WINDOW_SECONDS: '900' });
    b = await startApp('postgres', { TRUST_PROXY: 'true', LOGIN_MAX_FAILURES: '5', LOGIN_WINDOW_SECONDS: '900' }, a.keep);
    await addCustomer(a.db.db, { hub: 1, login: 'target', password: 'right-password', customer: '演示客户' });
    await addCustomer(a.db.db, { hub: 1, login: 'shared', password: 'right-password', customer: '演示客户' });
  }, 120_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const attempt = (app: TestApp, login: string, password: string, from: string) =>
    app.call('POST', '/api/authenticate', { body: { username: login, password }, headers: { 'x-forwarded-for': from } });

  it('limits guesses from each address, and the real customer still gets in from theirs', async () => {
    // Twenty wrong passwords from four addresses, spread over both processes.
    const guesses: number[] = [];
    for (let i = 0; i < 20; i++) guesses.push((await attempt(i % 2 ? a : b, 'target', `wrong-${i}`, `198.51.100.${(i % 4) + 1}`)).status);
    expect(guesses).toEqual(guesses.map(() => 401));
    // Each of those addresses is done guessing for the window, on either process, even with the right password.
    for (const app of [a, b]) {
      const again = await attempt(app, 'target', 'wrong-again', '198.51.100.1');
      expect(again.status).toBe(429);
      expect(((await again.json()) as { message: string }).message).toMatch(/登录尝试过多/);
      expect((await attempt(app, 'target', 'right-password', '198.51.100.2')).status).toBe(429);
    }
    // The customer at their own desk gets in, slowed down while the login is under attack.
    const started = Date.now();
    const mine = await attempt(a, 'target', 'right-password', '192.0.2.50');
    expect(mine.status).toBe(200);
    expect(((await mine.json()) as { id_token: string }).id_token).toBeTruthy();
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('counts failures in the database: five from one address on two processes, not five on each', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await attempt(i % 2 ? a : b, 'shared', `wrong-${i}`, '198.51.100.77')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
  });
});
