// Logins (spec 2.1, 4.1, 5): credentials for an HS512 JWT with an `exp`, as the real service signs; a missing,
// malformed, foreign or expired token is 401. Passwords and tokens are never logged.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import { SignJWT, jwtVerify } from 'jose';
import { z } from 'zod';
import type { SandboxContext } from './context.js';
import { ApiError } from './errors.js';
import type { Account } from './records.js';
import { parseBody } from './validation.js';

const credentials = z.object({ username: z.string().min(1).max(320), password: z.string().min(1).max(1024) });

function samePassword(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function createAuth(ctx: SandboxContext): { login: RequestHandler; requireToken: RequestHandler } {
  // One key per sandbox: a restart invalidates every token, as a new key on the real service would.
  const secret = randomBytes(64);

  const login: RequestHandler = async (req, res) => {
    const { username, password } = parseBody(credentials, req.body);
    const account = ctx.store.accounts.find((a) => a.email.toLowerCase() === username.toLowerCase());
    if (!account || !samePassword(password, account.password))
      throw new ApiError(401, 'Bad credentials: the username or password is wrong.');
    const token = await new SignJWT({ uid: account.id, role: 'teacher' })
      .setProtectedHeader({ alg: 'HS512', typ: 'JWT' })
      .setSubject(account.email)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ctx.config.tokenTtlSeconds)
      .sign(secret);
    ctx.issuedTokens.push(token);
    res.json({
      token,
      role: 'teacher',
      username: account.email,
      name: account.name,
      in_flag: false,
      ai_flag: true,
      mfa: false,
      id: account.id,
      con_type: null,
    });
  };

  const requireToken: RequestHandler = async (req, res, next) => {
    const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    if (!match) throw new ApiError(401, 'Full authentication is required to access this resource.');
    let uid: unknown;
    try {
      ({
        payload: { uid },
      } = await jwtVerify(match[1]!, secret, { algorithms: ['HS512'], requiredClaims: ['exp'] }));
    } catch {
      throw new ApiError(401, 'The token is invalid or has expired.');
    }
    const account = typeof uid === 'number' ? ctx.store.account(uid) : undefined;
    if (!account) throw new ApiError(401, 'The token names no known user.');
    res.locals.account = account;
    next();
  };

  return { login, requireToken };
}

/** The account the token named; only after requireToken. */
export const accountOf = (res: Response): Account => res.locals.account as Account;
