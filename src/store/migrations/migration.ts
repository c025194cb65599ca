/**
 * One schema change. Migrations are TypeScript string constants rather than `.sql` files
 * because `tsc` does not copy `.sql` files into `dist/`: constants are found the same way
 * under tsx/vitest (from `src/`) and after the build (from `dist/`), with no path lookup.
 *
 * Rules: never edit a shipped migration; add the next number. Each runs in its own
 * transaction, so a migration must not contain statements that refuse to run in one
 * (CREATE INDEX CONCURRENTLY, VACUUM). Unqualified names land in the store's schema.
 */
export interface Migration {
  /** 1, 2, 3… in order, no gaps; recorded in `schema_migrations.version`. */
  version: number;
  /** snake_case, matches the file name `NNN_<name>.ts`. */
  name: string;
  sql: string;
}
