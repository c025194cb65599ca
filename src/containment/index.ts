export { bwrapArgs, sandboxWasMade, STATUS_FD, stdioWithStatus, type ResolvedView } from './bwrapArgs.js';
export { containCommand, resolveView, type ContainedCommand } from './containCommand.js';
export { isInside } from './isInside.js';
export { DEFAULT_ISOLATION } from './isolation.js';
export { isolationOf } from './isolationOf.js';
export { forgetContainmentProbe, whyCannotContain } from './probeContainment.js';
export { candidateView, checkView, privatePlaces, type HostPlaces } from './runViews.js';
export type { SandboxView } from './sandboxView.js';
