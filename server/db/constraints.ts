/**
 * Recognises a unique-constraint violation from either engine, so a race between a duplicate
 * check and its insert still answers 409 rather than 500.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown; errcode?: unknown }).code;
  const errcode = (error as { errcode?: unknown }).errcode;
  return (
    code === '23505' || // PostgreSQL unique_violation
    errcode === 2067 || // SQLITE_CONSTRAINT_UNIQUE
    errcode === 1555 || // SQLITE_CONSTRAINT_PRIMARYKEY
    /UNIQUE constraint failed/.test(error.message)
  );
}

export function isForeignKeyViolation(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  const errcode = (error as { errcode?: unknown }).errcode;
  return code === '23503' || errcode === 787 || /FOREIGN KEY constraint failed/.test(error.message);
}
