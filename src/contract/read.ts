/**
 * How the contract reads what the service answers, beside the shapes themselves: one way for a
 * field the notes say is always sent, null when empty, to be read when a service leaves it out;
 * and the schema inside one built on first use.
 *
 * The contract's schemas are built the first time they are used (`z.lazy`), not as their module
 * loads: built at once, its 200-odd schemas cost 16-20 ms of every start, on the TUI's thread and
 * again on the embedded sandbox's, which parse a handful of them before the first list is drawn
 * (bench/README.md, rows c and d). A lint rule (eslint.config.js, EAGER_SCHEMA) keeps it so.
 */
import type * as z from 'zod';

/**
 * A nullable field read as null when absent: the notes say such fields are always present, but one
 * row of a list without one made the whole list (and every name looked up through it) fail.
 */
export const absentAsNull = <T extends z.ZodType>(schema: T) =>
  schema
    .nullable()
    .optional()
    .transform((v): z.output<T> | null => v ?? null);

/** The schema a `z.lazy` builds, built now if it was not yet: for its `shape` or to `extend` it. */
export const built = <T extends z.ZodType>(schema: z.ZodLazy<T>): T => schema._zod.innerType;

/** The field names of an object schema built on first use (what `--json FIELDS` may keep of a record). */
export const schemaFields = <T extends z.ZodObject>(schema: z.ZodLazy<T>): string[] => Object.keys(built(schema).shape);
