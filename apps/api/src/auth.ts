import type { Request, Response } from "express";
import type { ClientKind } from "@outreach/db";

export interface AuthContext {
  accountId: string;
  apiKeyId: string;
  clientKind: ClientKind;
  /** set while an operator has the account suspended: authenticate() refuses every request (403 account_suspended) */
  suspendedAt?: Date | null;
}

/** The authenticated caller; only valid behind the authenticate() middleware. */
export function authOf(res: Response): AuthContext {
  const auth = res.locals.auth as AuthContext | undefined;
  if (!auth) throw new Error("authOf() used on a route without authenticate()");
  return auth;
}

/** The path parameter as a string (Express 5 types allow arrays for wildcards). */
export function param(req: Request, name: string): string {
  const value = req.params[name];
  return Array.isArray(value) ? value.join("/") : String(value ?? "");
}
