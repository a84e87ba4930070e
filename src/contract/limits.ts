/**
 * Every number of the service contract (spec section 8 and the public notes), once.
 */
export const LIMITS = {
  /** PATCH /interns/{id} body; over it is 413. */
  requestBodyBytes: 1_048_576,
  name: { min: 2, max: 17 },
  description: { max: 2000 },
  instructions: { max: 100_000 },
  model: { min: 1, max: 200 },
  byokName: { max: 255 },
  allowedApiKeyHashes: { min: 1, max: 100 },
  allowedModels: { max: 100 },
  allowedUserIds: { max: 100 },
  internList: { minLimit: 1, maxLimit: 500 },
  byokList: { minLimit: 1, maxLimit: 100, defaultLimit: 50 },
  /** Route deadline for the operations of 4.1 to 4.5. */
  routeDeadlineMs: 10_000,
} as const;
