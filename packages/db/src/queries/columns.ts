/**
 * The columns a statement returns, declared once: the row type is derived
 * from the declaration (RowOf), and a test (packages/db/test/queries.test.ts)
 * runs every statement against the migrated schema and compares the names,
 * order and PostgreSQL types it really returns with the declaration. So a row
 * type cannot drift from its statement unnoticed.
 *
 * A column is its type's name in pg_type (after any cast in the statement),
 * with "?" when it can be NULL, or "!" when it comes from a nullable column
 * but cannot be NULL in this statement (a WHERE ... IS NOT NULL, a SET to
 * now()): the test checks a plain name against the column's NOT NULL. Only
 * types both drivers map alike are listed (see Executor); enums travel as
 * text (status::text).
 */
interface TsTypes {
  uuid: string;
  text: string;
  int2: number;
  int4: number;
  bool: boolean;
  timestamptz: Date;
  jsonb: unknown;
  json: unknown;
  /** text[] */
  _text: string[];
}

export type PgType = keyof TsTypes;
export type ColumnType = PgType | `${PgType}?` | `${PgType}!`;
export type ColumnMap = Readonly<Record<string, ColumnType>>;

type TsOf<C extends ColumnType> = C extends `${infer T extends PgType}?` ? TsTypes[T] | null : C extends `${infer T extends PgType}!` ? TsTypes[T] : C extends PgType ? TsTypes[C] : never;

/** The row a statement with these columns returns. */
export type RowOf<M extends ColumnMap> = { -readonly [K in keyof M]: TsOf<M[K]> };

const declared = new WeakSet<object>();

/** Declares a statement's columns (in the order it returns them): `type Row = RowOf<typeof rowColumns>`. */
export function columns<const M extends ColumnMap>(map: M): M {
  declared.add(map);
  return Object.freeze(map);
}

/** True for a map made by columns(): what the row-type test looks for among a module's exports. */
export function isColumnMap(value: unknown): value is ColumnMap {
  return typeof value === "object" && value !== null && declared.has(value);
}
