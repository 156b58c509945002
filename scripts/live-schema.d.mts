// Types of scripts/live-schema.mjs, for the tests that import it.
export type SqlObjectKind = "function" | "persistence" | "index" | "constraint" | "trigger";

export interface Statement {
  text: string;
  start: number;
  end: number;
  leadStart: number;
}

export interface ClassifiedStatement {
  kind: SqlObjectKind;
  name: string;
  table?: string;
  key: string;
  replace: string[];
  drop: string;
}

export interface SqlDoc {
  file: string;
  start: number;
  end: number;
  text: string;
}

export interface SqlObject extends ClassifiedStatement {
  file: string;
  statement: string;
  sha256: string;
  doc: SqlDoc | null;
}

export interface Touched {
  kind: SqlObjectKind;
  name: string;
  table?: string;
}

export interface SqlSnapshot {
  comment?: string;
  objects: Record<string, { file: string; sha256: string; drop: string }>;
}

export interface SqlChanges {
  added: SqlObject[];
  changed: SqlObject[];
  removed: Array<{ key: string; kind: string; file: string; sha256: string; drop: string }>;
  empty: boolean;
}

export const TOOL_ROOT: string;
export function schemaPath(root: string): string;
export function migrationsDir(root: string): string;
export function sqlDir(root: string): string;
export function sqlSnapshotPath(root: string): string;
export function splitStatements(text: string): Statement[];
export function quoteIdent(name: string): string;
export function classifyStatement(statement: string): ClassifiedStatement;
export function touchedByStatement(statement: string): Touched | null;
export function touchKey(object: { kind: string; name: string; table?: string }): string;
export function readSqlObjects(dir: string): SqlObject[];
export function snapshotOf(objects: SqlObject[]): SqlSnapshot;
export function readSnapshot(root: string): SqlSnapshot;
export function writeSnapshot(root: string, objects: SqlObject[]): void;
export function sqlChanges(snapshot: SqlSnapshot, objects: SqlObject[]): SqlChanges;
export function describeChanges(changes: SqlChanges): string[];
export function applySql(objects: SqlObject[]): string;
export function migrationSqlFor(changes: SqlChanges, objects: SqlObject[]): { before: string; after: string };
export function stampLastChanged(dir: string, objects: SqlObject[], migration: string): void;
export function prismaDiff(fromSchema: string | null, toSchema: string): string;
