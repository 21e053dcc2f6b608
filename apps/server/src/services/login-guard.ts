/**
 * Counts failed logins per client address and login name within a window. Kept in memory: with several
 * processes each counts its own, which still bounds guessing to maxFailures × processes per window.
 */
export class LoginGuard {
  private failures = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private maxFailures: number,
    private windowMs: number,
    private now: () => number = Date.now,
  ) {}

  private key(ip: string, login: string) {
    return `${ip}\u0000${login.toLowerCase()}`;
  }

  /** Seconds until the caller may try again, or 0 when a try is allowed. */
  retryAfter(ip: string, login: string): number {
    // Guesses spread over many addresses still count against the login, with a wider allowance.
    const all = this.failures.get(this.key('*', login));
    if (all && all.resetAt > this.now() && all.count >= this.maxFailures * 4) return Math.ceil((all.resetAt - this.now()) / 1000);
    const entry = this.failures.get(this.key(ip, login));
    if (!entry) return 0;
    const left = entry.resetAt - this.now();
    if (left <= 0) {
      this.failures.delete(this.key(ip, login));
      return 0;
    }
    return entry.count >= this.maxFailures ? Math.ceil(left / 1000) : 0;
  }

  fail(ip: string, login: string) {
    if (ip !== '*') this.fail('*', login);
    const k = this.key(ip, login);
    const entry = this.failures.get(k);
    if (!entry || entry.resetAt <= this.now()) this.failures.set(k, { count: 1, resetAt: this.now() + this.windowMs });
    else entry.count += 1;
    if (this.failures.size > 100_000) this.prune();
  }

  succeed(ip: string, login: string) {
    this.failures.delete(this.key(ip, login));
  }

  private prune() {
    const t = this.now();
    for (const [k, v] of this.failures) if (v.resetAt <= t) this.failures.delete(k);
  }
}
