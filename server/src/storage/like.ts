/** LIKE patterns from user input: `%`, `_` and `\` in the input are matched literally (use with `escape '\'`). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The pattern for "contains value". */
export function containsPattern(value: string): string {
  return `%${escapeLike(value)}%`;
}
