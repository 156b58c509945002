import pg from "pg";
import { inRawTransaction } from "./raw-transaction.js";

/** What every connection of an app's pool runs with (0 or undefined: the server's default, normally none). */
export interface SessionSettings {
  statementTimeoutMs?: number;
  lockTimeoutMs?: number;
  idleInTransactionTimeoutMs?: number;
}

function entries(settings: SessionSettings): Array<[string, number]> {
  const all: Array<[string, number | undefined]> = [
    ["statement_timeout", settings.statementTimeoutMs],
    ["lock_timeout", settings.lockTimeoutMs],
    ["idle_in_transaction_session_timeout", settings.idleInTransactionTimeoutMs],
  ];
  return all.filter((entry): entry is [string, number] => Number.isInteger(entry[1]) && entry[1]! > 0);
}

/** Direct connections: the settings as startup parameters, so they hold for every statement at no cost. */
export function startupParameters(settings: SessionSettings): Record<string, number> {
  return Object.fromEntries(entries(settings));
}

/**
 * Through a transaction-pooling PgBouncer a session belongs to no one: startup
 * parameters are refused and a session SET would stick to whichever server
 * connection ran it. SET LOCAL lasts exactly one transaction, so each
 * transaction sets them itself, in the same round trip as its BEGIN.
 */
export function beginWithSettings(settings: SessionSettings): string {
  return ["BEGIN", ...entries(settings).map(([name, value]) => `SET LOCAL ${name} = ${value}`)].join("; ");
}

const isBegin = (query: unknown): boolean => (typeof query === "string" ? query : (query as { text?: unknown } | null)?.text) === "BEGIN";

/**
 * A pg pool for a transaction-pooling PgBouncer: every transaction opens with
 * the settings (the driver adapter's BEGIN becomes BEGIN; SET LOCAL ...), and a
 * statement outside a transaction gets a transaction of its own for them
 * (two extra round trips to the pooler, the price of timeouts that hold).
 */
export class TransactionPooledPool extends pg.Pool {
  constructor(config: pg.PoolConfig, settings: SessionSettings) {
    const begin = beginWithSettings(settings);
    class SettingsClient extends pg.Client {
      override query(...args: any[]): any {
        if (isBegin(args[0])) args[0] = typeof args[0] === "string" ? begin : { ...args[0], text: begin };
        return (super.query as (...a: any[]) => any)(...args);
      }
    }
    super({ ...config, Client: SettingsClient });
  }

  override query(...args: any[]): any {
    // query(config), as the driver adapter calls it, and query(text[, values]), as fromPg does, get
    // the settings; a callback form, a submittable (a cursor) or a BEGIN goes as it is
    const config = promisedStatement(args);
    if (!config) return (super.query as (...a: any[]) => any)(...args);
    return this.queryInTransaction(config);
  }

  private queryInTransaction(config: pg.QueryConfig): Promise<pg.QueryResult> {
    return inRawTransaction(this, (client) => client.query(config));
  }
}

/** The statement of a promise-returning query(config) or query(text[, values]) call, or undefined for the other forms. */
function promisedStatement(args: any[]): pg.QueryConfig | undefined {
  const [first, second] = args;
  if (args.length === 1 && typeof first === "object" && first !== null && typeof first.submit !== "function" && !isBegin(first)) return first as pg.QueryConfig;
  if (typeof first === "string" && !isBegin(first) && (args.length === 1 || (args.length === 2 && Array.isArray(second)))) return { text: first, values: second };
  return undefined;
}
