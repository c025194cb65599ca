export { bwrapArgs, type ResolvedView } from './bwrapArgs.js';
export { containCommand, isInside, resolveView, type ContainedCommand } from './containCommand.js';
export { DEFAULT_ISOLATION, IsolationSchema, type Isolation } from './isolation.js';
export { forgetContainmentProbe, whyCannotContain } from './probeContainment.js';
export { candidateView, checkView, privatePlaces, type HostPlaces } from './runViews.js';
export type { SandboxView } from './sandboxView.js';
