export { slugify } from './slug.js';
export { wordCount } from './wordCount.js';
