export * from './common.js';
export * from './errors.js';
export * from './features.js';
export * from './form.js';
export * from './languages.js';
export * from './limits.js';
export * from './translate.js';
export * from './validate.js';
