import type { Isolation } from '../vocabulary/isolation.js';

/** bubblewrap is Linux's; elsewhere nothing contains a candidate yet. */
export const DEFAULT_ISOLATION: Isolation = process.platform === 'linux' ? 'sandbox' : 'none';
