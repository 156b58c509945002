/**
 * A timestamptz column as the text JSON.stringify makes of the Date the
 * driver would read (toISOString: UTC, milliseconds truncated like the
 * driver's): for rows that go straight into a JSON answer, so the hottest
 * reads parse no dates only to print them again.
 */
export function isoTimeSql(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
