/**
 * CSV (RFC 4180) for spreadsheets: every cell quoted, quotes doubled, rows ended by CRLF. A cell a spreadsheet
 * would run as a formula (starting with =, +, -, @, a tab or a carriage return: anyone can put that in a user agent
 * or a name) gets a leading apostrophe, so it is shown as text.
 */
export function toCsv(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}
