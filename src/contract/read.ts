/**
 * How the contract reads what the service answers, beside the shapes themselves: one way for a
 * field the notes say is always sent, null when empty, to be read when a service leaves it out.
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
