/**
 * A saved conversation's id, `20261128-124512-a3f9` (when it began, UTC, and four random hex
 * digits): sortable, and short enough to type. Its own module, with no imports, because the CLI's
 * registry (loaded at start-up) reads it too.
 */
export const CONVERSATION_ID = /^\d{8}-\d{6}-[0-9a-f]{4}$/;

/** A word that is a conversation id or the start of one (from its date): `--resume 20261128-1245`. */
export const CONVERSATION_REF = /^\d{8}(?:-\d{0,6}(?:-[0-9a-f]{0,4})?)?$/;
