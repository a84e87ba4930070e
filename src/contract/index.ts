export * from './limits.js';
export * from './rules.js';
export * from './providers.js';
export * from './intern.js';
export * from './byok.js';
export * from './errors.js';
export * from './routes.js';
