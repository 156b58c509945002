// The outreach/no-raw-sql lint rule: raw SQL belongs to packages/db. Outside it,
// code may not import a PostgreSQL driver or client, call Prisma's raw-query
// methods, build Prisma SQL fragments, take @outreach/db's helpers that run
// caller-written SQL, or hold the text of an SQL statement.
// eslint.config.mjs turns the rule on everywhere except packages/db, tests,
// benchmarks and scripts; packages/db/raw-sql-allowlist.txt lists today's
// offenders (warnings, not errors) until their SQL moves.
// Syntax only: it reads names, never types.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

/** Modules that open database connections or run SQL: pg, pg-* (pg-cursor, pg-pool, ...), postgres, Prisma's client and pg adapter. */
export const DRIVER_MODULE = /^(?:pg|pg-[\w.-]+|postgres|@prisma\/client|@prisma\/adapter-pg)(?:\/.*)?$/;
/** Prisma's raw-query methods. */
export const RAW_METHOD = /^\$(?:query|execute)Raw(?:Unsafe)?$/;
/** Prisma's SQL-fragment builders (Prisma.sql`...` and friends). */
export const PRISMA_FRAGMENTS = new Set(["sql", "raw", "join", "empty"]);
/**
 * @outreach/db exports whose only use is to run SQL text written by the caller.
 * (inRawTransaction and RawClient are not among them: a caller may hold a pg
 * transaction for statements that packages/db writes; SQL text written in the
 * callback is reported as such.)
 */
export const DB_RAW_HELPERS = new Set(["queryRows"]);
/**
 * A string or template that starts like an SQL statement (keywords in capitals,
 * as this code writes them): whatever runs it, the statement belongs in packages/db.
 */
export const SQL_TEXT =
  /^\s*(?:SELECT\s|INSERT\s+INTO\s|UPDATE\s+\S+\s+SET\s|DELETE\s+FROM\s|WITH\s+(?:RECURSIVE\s+)?\S+\s+AS\s*\(|(?:CREATE|ALTER|DROP)\s+(?:OR\s+REPLACE\s+)?(?:UNIQUE\s+)?(?:TABLE|INDEX|FUNCTION|TRIGGER|VIEW|DATABASE|SCHEMA|EXTENSION|TYPE)\s|TRUNCATE\s|LOCK\s+TABLE\s|SET\s+(?:LOCAL\s+)?\w+\s*(?:=|TO\s)|VALUES\s*\(|(?:LISTEN|UNLISTEN|NOTIFY)\s+\w|COPY\s+\S+.*\s(?:FROM|TO)\s)/;

const WHERE = "move the query into packages/db and call it from here";

/** The module name of a string literal (or a template literal without expressions), else null. */
function literalString(node) {
  if (!node) return null;
  if (node.type === "Literal" && typeof node.value === "string") return node.value;
  if (node.type === "TemplateLiteral" && node.expressions.length === 0) return node.quasis[0]?.value.cooked ?? null;
  if (node.type === "TSLiteralType") return literalString(node.literal);
  return null;
}

function specifierName(node) {
  return node.type === "Identifier" ? node.name : literalString(node);
}

/** @type {import("eslint").Rule.RuleModule} */
export const noRawSql = {
  meta: {
    type: "problem",
    docs: { description: "Only packages/db may touch SQL: no database drivers, raw Prisma queries, SQL fragments or raw-SQL helpers elsewhere." },
    messages: {
      driver: `'{{name}}' is a database client: only packages/db may import it (${WHERE}).`,
      raw: `{{name}} runs raw SQL: only packages/db may use it (${WHERE}).`,
      fragment: `Prisma.{{name}} builds SQL text: only packages/db may use it (${WHERE}).`,
      helper: `{{name}} from @outreach/db runs SQL text written here: only packages/db may use it (${WHERE}).`,
      sqlText: `SQL statement text ("{{start}}..."): only packages/db may hold SQL (${WHERE}).`,
    },
    // allowSqlText: tests, benchmarks and scripts may hold statement text (to seed and inspect
    // tables) and run it through @outreach/db, but never take a driver or Prisma's raw methods
    schema: [{ type: "object", properties: { allowSqlText: { type: "boolean" } }, additionalProperties: false }],
  },
  create(context) {
    const allowSqlText = context.options[0]?.allowSqlText === true;
    const checkSource = (source, reportOn = source) => {
      const name = literalString(source);
      if (name !== null && DRIVER_MODULE.test(name)) context.report({ node: reportOn, messageId: "driver", data: { name } });
      return name;
    };
    const checkSpecifiers = (source, specifiers, key) => {
      if (source !== "@outreach/db") return;
      for (const specifier of specifiers) {
        const name = specifier[key] && specifierName(specifier[key]);
        if (name && DB_RAW_HELPERS.has(name) && !allowSqlText) context.report({ node: specifier, messageId: "helper", data: { name } });
      }
    };
    const checkName = (node, name) => {
      if (typeof name === "string" && RAW_METHOD.test(name)) context.report({ node, messageId: "raw", data: { name } });
    };
    const isRawMethod = (node) => node?.type === "MemberExpression" && RAW_METHOD.test(node.property.name ?? node.property.value ?? "");
    const checkText = (node, text) => {
      if (allowSqlText || typeof text !== "string" || !SQL_TEXT.test(text)) return;
      // The statement given to $queryRaw & co. is reported there already.
      const parent = node.parent;
      if (parent?.type === "TaggedTemplateExpression" && isRawMethod(parent.tag)) return;
      if (parent?.type === "CallExpression" && isRawMethod(parent.callee)) return;
      const start = text.trim().replace(/\s+/g, " ").slice(0, 24);
      context.report({ node, messageId: "sqlText", data: { start } });
    };
    return {
      ImportDeclaration(node) {
        checkSpecifiers(checkSource(node.source), node.specifiers, "imported");
      },
      ExportNamedDeclaration(node) {
        if (node.source) checkSpecifiers(checkSource(node.source), node.specifiers, "local");
      },
      ExportAllDeclaration(node) {
        checkSource(node.source);
      },
      ImportExpression(node) {
        checkSource(node.source);
      },
      TSImportType(node) {
        checkSource(node.argument);
      },
      TSExternalModuleReference(node) {
        checkSource(node.expression);
      },
      // require("pg"), createRequire(url)("pg"), and a require made by createRequire under any name ending in require.
      CallExpression(node) {
        const { callee } = node;
        const requires =
          (callee.type === "Identifier" && /require$/i.test(callee.name)) || (callee.type === "CallExpression" && callee.callee.type === "Identifier" && callee.callee.name === "createRequire");
        if (requires && node.arguments.length > 0) checkSource(node.arguments[0]);
      },
      // $queryRaw and friends wherever they are named: calls, tagged templates,
      // optional chains, destructuring, Pick<Db, "$queryRawUnsafe">, db["$executeRaw"].
      Identifier(node) {
        checkName(node, node.name);
      },
      Literal(node) {
        checkName(node, node.value);
        checkText(node, node.value);
      },
      TemplateLiteral(node) {
        if (node.expressions.length === 0) checkName(node, node.quasis[0]?.value.cooked);
        checkText(node, node.quasis[0]?.value.cooked);
      },
      MemberExpression(node) {
        if (node.object.type === "Identifier" && node.object.name === "Prisma" && !node.computed && node.property.type === "Identifier" && PRISMA_FRAGMENTS.has(node.property.name)) {
          context.report({ node, messageId: "fragment", data: { name: node.property.name } });
        }
      },
    };
  },
};

// The version changes with this file, so ESLint's cache forgets results when the rule changes.
const version = createHash("sha256")
  .update(readFileSync(new URL(import.meta.url)))
  .digest("hex")
  .slice(0, 12);

/** The local ESLint plugin; its rule is outreach/no-raw-sql. */
export const outreachPlugin = { meta: { name: "outreach", version }, rules: { "no-raw-sql": noRawSql } };
