import bcrypt from 'bcryptjs';

/** Cost 10: about 50–100 ms per hash in pure JS, slow enough against guessing, fast enough for a login. */
const COST = 10;

export async function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, COST);
}

/** False (never a throw) for a malformed hash, so a damaged row reads as a wrong password. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  try {
    return await bcrypt.compare(password, hash);
  } catch {
    return false;
  }
}
