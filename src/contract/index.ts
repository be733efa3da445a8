/** The migration contract: the one place the v1-to-v2 differences of the platform are written. */
export * from './types.js';
export { RESOURCES } from './resources.js';
export { uidField, VERSION_SEGMENT } from './builders.js';
export * from './platform.js';
export * from './paths.js';
export * from './fields.js';
export * from './assumptions.js';
export * from './timestamps.js';
export * from './rejections.js';
