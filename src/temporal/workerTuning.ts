/**
 * How every evalflow worker polls and holds work, shared by the composition root and the
 * orchestration benchmark so the benchmark measures what users run. Heartbeats are sent at
 * least every 2 s (not the SDK's 0.8 × heartbeat timeout), so cancellation reaches an activity
 * at once and a dead worker's activity times out soon; a workflow task left on a dead worker's
 * sticky queue moves to the shared queue after 3 s.
 */
export const WORKER_TUNING = {
  maxHeartbeatThrottleInterval: '2s',
  defaultHeartbeatThrottleInterval: '2s',
  stickyQueueScheduleToStartTimeout: '3s',
} as const;
